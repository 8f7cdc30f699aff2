import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../problem.js';

/**
 * `@fastify/rate-limit`, not global: session routes opt in per route (see the session guard),
 * keyed by user id. Exceeding answers 429 `rate_limited` problem+json with `Retry-After`.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        'rate_limited',
        `Too many requests: at most ${context.max} per ${context.after}.`,
        {
          retryAfterSeconds: Math.ceil(context.ttl / 1000),
        },
      ),
  });
}
