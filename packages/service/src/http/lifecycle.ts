import { isDatabaseUnavailable } from '@svc/portfolio-store';
import { DATABASE_RETRY_AFTER_SECONDS, UseCaseError } from '@svc/use-cases';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** Milliseconds a readiness check waits for the database before it answers 503. */
export const READINESS_TIMEOUT_MS = 2_000;

/**
 * On close, sweeps the keep-alive connections every 50 ms: `server.close()` closes only those idle
 * at that moment, and one whose request finishes later would hold the close open until its
 * keep-alive timeout (so a SIGTERM ran into the grace deadline and the process exited 1).
 */
export function registerIdleConnectionSweep(app: FastifyInstance): void {
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));
}

const notReady = (detail: string, cause?: unknown): UseCaseError =>
  new UseCaseError('upstream_unavailable', detail, {
    cause,
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });

/**
 * The readiness of a server (`GET /readyz` of both servers): the database answers within
 * {@link READINESS_TIMEOUT_MS} and every migration is applied.
 * @throws UseCaseError `upstream_unavailable` with `Retry-After` otherwise (an unexpected cause is
 *   logged on `log`).
 */
export async function checkReadiness(
  pendingMigrations: () => Promise<readonly string[]>,
  log: Pick<FastifyBaseLogger, 'warn'>,
) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('readiness check timed out')), READINESS_TIMEOUT_MS);
  });
  let pending: readonly string[];
  try {
    pending = await Promise.race([pendingMigrations(), timeout]);
  } catch (error) {
    // unreachable, too slow, or failing: not ready either way; the cause goes to the log
    if (!isDatabaseUnavailable(error)) log.warn({ err: error }, 'readiness failed');
    throw notReady('The database does not answer.', error);
  } finally {
    clearTimeout(timer);
  }
  if (pending.length > 0) throw notReady(`Migrations are pending: ${pending.join(', ')}.`);
  return {
    status: 'ready' as const,
    checks: { database: 'ok' as const, migrations: 'current' as const },
  };
}
