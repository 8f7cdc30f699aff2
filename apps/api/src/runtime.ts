import { createDatabase, createRepositories, migrateToLatest } from '@svc/portfolio-store';
import { createQuotaService } from '@svc/quota';
import { createQuoteSource } from '@svc/use-cases';
import type { AppConfig, ConfigLogger } from './config.js';
import type { AppDeps } from './deps.js';
import { openFundamentalsProvider } from './moat/fundamentals.js';
import { createMoatServices } from './moat/services.js';

/** The long-lived resources of a running service and how to release them. */
export interface Runtime {
  readonly deps: AppDeps;
  /** The engine in use: `postgres` (DATABASE_URL) or the embedded `pglite`. */
  readonly dialect: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/**
 * Opens the database (PostgreSQL when `DATABASE_URL` is set, else PGlite under `DATA_DIR`),
 * migrates it to the latest schema, and creates once the repositories, the quota service, the
 * fundamentals provider, the quote source and the moat flows (evaluation, screener, reports).
 *
 * A fundamentals provider that cannot be created (e.g. `sec-edgar` without `SEC_USER_AGENT`)
 * does not stop the start: `logger.warn` says why, and `GET /api/stock-evaluation` answers 503
 * `upstream_unavailable` for symbols that are not cached.
 *
 * @throws whatever the database raises when it cannot be opened or migrated.
 * @example
 * const runtime = await openRuntime(config, logger);
 * const app = await buildApp(runtime.deps);
 */
export async function openRuntime(
  config: AppConfig,
  logger: Pick<ConfigLogger, 'warn'> = { warn: () => {} },
): Promise<Runtime> {
  const database = await createDatabase({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir: config.dataDir,
  });
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const repos = createRepositories(database.db);
  const quotas = createQuotaService({ db: database.db, limits: config.quotaLimits });
  const fundamentals = openFundamentalsProvider(config.fundamentals);
  if (fundamentals.unavailable) logger.warn(fundamentals.unavailable);
  const moat = createMoatServices({
    fundamentals: fundamentals.provider,
    quoteSource: createQuoteSource(config.quotes),
    repos,
    quotas,
    evaluationMemoSeconds: config.evaluationMemoSeconds,
  });
  return {
    deps: { config, repos, quotas, moat },
    dialect: database.dialect,
    close: () => database.close(),
  };
}
