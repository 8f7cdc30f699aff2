import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_DESCRIPTION, OPENAPI_VERSION, SECURITY_SCHEMES } from '../../openapi.js';
import { withErrorHeaders } from '../../problem.js';

/**
 * OpenAPI 3.1.0 from the routes' zod schemas (`@fastify/swagger` + the zod type provider's
 * transforms; schemas named with `.meta({ id })` become `#/components/schemas/<id>`).
 */
export async function registerSwagger(app: FastifyInstance, baseUrl: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Moat evaluation and portfolio service',
        version: OPENAPI_VERSION,
        description: API_DESCRIPTION,
      },
      servers: [{ url: baseUrl }],
      tags: [
        { name: 'auth', description: 'Sign-up, sign-in, sessions, OpenID Connect' },
        { name: 'account', description: 'Personal access tokens and the developer page' },
        { name: 'docs', description: 'Integration documentation and the OpenAPI document' },
        {
          name: 'operations',
          description: 'Liveness and readiness probes (no authentication, no rate limit)',
        },
        {
          name: 'moat',
          description: 'Moat evaluation, the screener over cached evaluations, saved reports',
        },
        {
          name: 'advisor',
          description: 'The advisor chat (streamed or as one answer) and its proposals',
        },
      ],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => withErrorHeaders(jsonSchemaTransformObject(input)),
  });
}
