import { isDatabaseUnavailable } from '@svc/portfolio-store';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jsonResponse } from '../../openapi.js';
import { ApiError, DATABASE_RETRY_AFTER_SECONDS, errorResponses } from '../../problem.js';
import { Liveness, Readiness } from '../../schemas/health.js';

/** Milliseconds `/readyz` waits for the database before it answers 503. */
export const READINESS_TIMEOUT_MS = 2_000;

/** Options of {@link healthRoutes}. */
export interface HealthOptions {
  /**
   * Names the migrations not yet applied (`pendingMigrations` of `@svc/portfolio-store`);
   * throws when the database cannot be reached.
   */
  readonly pendingMigrations: () => Promise<readonly string[]>;
}

const notReady = (detail: string, cause?: unknown): ApiError =>
  new ApiError('upstream_unavailable', detail, {
    cause,
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });

/** Runs `check`, failing after `ms` milliseconds. */
async function within<T>(ms: number, check: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('readiness check timed out')), ms);
  });
  try {
    return await Promise.race([check(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for orchestrators and load balancers, outside authentication and rate limits:
 * `GET /healthz` answers 200 while the process serves HTTP (liveness: restart when it fails);
 * `GET /readyz` answers 200 when the database answers within {@link READINESS_TIMEOUT_MS} and
 * every migration is applied, else 503 `upstream_unavailable` with `Retry-After` (readiness:
 * send no traffic while it fails; the instance recovers by itself).
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, options) => {
  app.get('/healthz', {
    schema: {
      tags: ['operations'],
      summary: 'Liveness: the process is up',
      description:
        'No authentication, no rate limit, no database access. 503 only while the server shuts down.',
      response: { 200: jsonResponse('The process is up', Liveness), ...errorResponses() },
    },
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
    handler: async (request) => {
      let pending: readonly string[];
      try {
        pending = await within(READINESS_TIMEOUT_MS, options.pendingMigrations);
      } catch (error) {
        // unreachable, too slow, or failing: not ready either way; the cause goes to the log
        if (!isDatabaseUnavailable(error)) request.log.warn({ err: error }, 'readiness failed');
        throw notReady('The database does not answer.', error);
      }
      if (pending.length > 0) throw notReady(`Migrations are pending: ${pending.join(', ')}.`);
      return {
        status: 'ready' as const,
        checks: { database: 'ok' as const, migrations: 'current' as const },
      };
    },
  });
};
