import { checkReadiness, mapperAnswers, READINESS_TIMEOUT_MS } from '@svc/service';
import { type FastifyPluginAsyncZod, serializerCompiler } from 'fastify-type-provider-zod';
import { jsonResponse } from '../../openapi.js';
import { errorResponses } from '../../problem.js';
import { Liveness, Readiness } from '../../schemas/health.js';

/**
 * Probes for orchestrators and load balancers, outside authentication and rate limits:
 * `GET /healthz` answers 200 while the process serves HTTP (liveness: restart when it fails);
 * `GET /readyz` answers 200 when the database answers within {@link READINESS_TIMEOUT_MS} and
 * every migration is applied, else 503 `upstream_unavailable` with `Retry-After` (readiness:
 * send no traffic while it fails; the instance recovers by itself).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', {
    schema: {
      tags: ['operations'],
      summary: 'Liveness: the process is up',
      description:
        'No authentication, no rate limit, no database access. 503 only while the server shuts down.',
      response: { 200: jsonResponse('The process is up', Liveness), ...errorResponses() },
    },
    // the answer is a constant of the schema: written without a zod pass per probe (issue 22)
    serializerCompiler: mapperAnswers(serializerCompiler),
    handler: async () => ({ status: 'ok' as const }),
  });

  app.get('/readyz', {
    schema: {
      tags: ['operations'],
      summary: 'Readiness: the database is reachable and its schema current',
      description: `No authentication, no rate limit. 503 \`upstream_unavailable\` with \`Retry-After\` while the database does not answer within ${READINESS_TIMEOUT_MS} ms or migrations are pending (run \`svc-migrate\`, or start one instance, which migrates).`,
      response: {
        200: jsonResponse('The instance can serve requests', Readiness),
        ...errorResponses(),
      },
    },
    handler: (request) => checkReadiness(app.pendingMigrations, request.log),
  });
};
