import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';

/** Cookie parsing and `reply.setCookie` (`@fastify/cookie`). Values are JWTs signed by us. */
export async function registerCookies(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCookie);
}
