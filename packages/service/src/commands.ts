import {
  createDatabase,
  createRepositories,
  type Database,
  migrateToLatest,
  type Repositories,
} from '@svc/portfolio-store';
import { createQuotaService, type QuotaService } from '@svc/quota';
import { type BaseConfig, commandEnvNames, type EnvName, parseConfig } from './config.js';

/**
 * The variables the command line tools read (`svc`, `svc-migrate`, `svc-admin`): the database,
 * the providers and the quota limits, with the server's names, defaults and checks; those marked
 * `command` in `EnvSchema` (`packages/service/src/config.ts`). Variables of the servers only
 * (PORT, OPENAI_*, …) are not read, so a bad one does not stop a command.
 */
export const COMMAND_ENV_KEYS: readonly EnvName[] = commandEnvNames();

/** The configuration of a command line tool: the subset of {@link BaseConfig} it uses. */
export type CommandConfig = Pick<
  BaseConfig,
  | 'databaseUrl'
  | 'databasePool'
  | 'dataDir'
  | 'fundamentals'
  | 'quotes'
  | 'quotaLimits'
  | 'refreshSchedule'
>;

/**
 * Validates the command line tools' variables ({@link COMMAND_ENV_KEYS}) with the service's own
 * parser (`parseConfig`), so the CLI and the servers agree on names, defaults (`DATA_DIR`
 * `./.data`, made absolute) and checks (`FUNDAMENTALS_PROVIDER=snapshot` needs
 * `FUNDAMENTALS_SNAPSHOT_DIR`, …).
 *
 * @throws {ConfigError} listing every invalid variable.
 * @example
 * const config = parseCommandConfig(process.env);
 */
export function parseCommandConfig(env: Record<string, string | undefined>): CommandConfig {
  const picked = Object.fromEntries(COMMAND_ENV_KEYS.map((key) => [key, env[key]]));
  const config = parseConfig(picked);
  return {
    databaseUrl: config.databaseUrl,
    databasePool: config.databasePool,
    dataDir: config.dataDir,
    fundamentals: config.fundamentals,
    quotes: config.quotes,
    quotaLimits: config.quotaLimits,
    refreshSchedule: config.refreshSchedule,
  };
}

/** The service's database opened by a command line tool ({@link openStore}). */
export interface Store {
  /** `postgres` (DATABASE_URL) or the embedded `pglite` under `DATA_DIR`. */
  readonly dialect: 'postgres' | 'pglite';
  /** The migrations this opening applied (empty when the schema was current). */
  readonly applied: readonly string[];
  /** The schema the migrations ran in. */
  readonly schema: string;
  /** The store's repositories (users, evaluation cache and history, …). */
  readonly repos: Repositories;
  /** The Kysely instance under `repos`, for units of work (e.g. the refresh pass). */
  readonly db: Database['db'];
  /** The node-postgres pool under `db` (for libraries that take one, e.g. the job queue). */
  readonly pool: Database['pool'];
  /** Quota usage and resets, with the configured `QUOTA_LIMITS`. */
  readonly quotas: QuotaService;
  close(): Promise<void>;
}

/**
 * Opens the database of `config` (PostgreSQL with `databaseUrl`, else PGlite in `dataDir`) and
 * migrates it to the latest schema: the one opening of the store, for the servers' runtime
 * (`openRuntime`) and the command line tools ({@link openStore}) alike.
 *
 * @throws StoreError `locked` when a server holds the embedded database, or whatever the database
 *   raises when it cannot be opened or migrated (the database is closed again).
 */
export async function openMigratedDatabase(
  config: Pick<CommandConfig, 'databaseUrl' | 'databasePool' | 'dataDir'>,
  onConnectionError?: (error: Error) => void,
): Promise<{ database: Database; applied: readonly string[]; schema: string }> {
  const database = await createDatabase({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir: config.dataDir,
    pool: config.databasePool,
    ...(onConnectionError ? { onConnectionError } : {}),
  });
  try {
    const { applied, schema } = await migrateToLatest(database.db);
    return { database, applied, schema };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * Opens the database of `config` ({@link openMigratedDatabase}), and gives its repositories and
 * quota service.
 *
 * @throws StoreError `locked` when a server holds the embedded database, or whatever the database
 *   raises when it cannot be opened or migrated (the database is closed again).
 * @example
 * const store = await openStore(parseCommandConfig(process.env));
 * try { await store.repos.users.findByEmail(email); } finally { await store.close(); }
 */
export async function openStore(config: CommandConfig): Promise<Store> {
  const { database, applied, schema } = await openMigratedDatabase(config);
  return {
    dialect: database.dialect,
    applied,
    schema,
    repos: createRepositories(database.db),
    db: database.db,
    pool: database.pool,
    quotas: createQuotaService({ db: database.db, limits: config.quotaLimits }),
    close: () => database.close(),
  };
}
