import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** `GET /openapi.json`: the OpenAPI 3.1.0 document generated from the route schemas. */
export const openapiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
