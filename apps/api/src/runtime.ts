import { createDatabase, createRepositories, migrateToLatest } from '@svc/portfolio-store';
import { createQuotaService } from '@svc/quota';
import type { AppConfig } from './config.js';
import type { AppDeps } from './deps.js';

/** The long-lived resources of a running service and how to release them. */
export interface Runtime {
  readonly deps: AppDeps;
  /** The engine in use: `postgres` (DATABASE_URL) or the embedded `pglite`. */
  readonly dialect: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/**
 * Opens the database (PostgreSQL when `DATABASE_URL` is set, else PGlite under `DATA_DIR`),
 * migrates it to the latest schema, and creates the repositories and the quota service once.
 *
 * @throws whatever the database raises when it cannot be opened or migrated.
 * @example
 * const runtime = await openRuntime(config);
 * const app = await buildApp(runtime.deps);
 */
export async function openRuntime(config: AppConfig): Promise<Runtime> {
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
  return {
    deps: { config, repos, quotas },
    dialect: database.dialect,
    close: () => database.close(),
  };
}
