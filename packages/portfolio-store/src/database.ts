import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import type { DB } from './db-types.js';
import { StoreError } from './errors.js';
import { PreparingClient } from './prepared-statements.js';

/**
 * Connection-pool settings for a PostgreSQL server (ignored by the embedded database). Every wait
 * is bounded by default, so that a database outage fails a query within seconds instead of
 * holding the caller: see {@link DEFAULT_POOL_OPTIONS}.
 */
export interface PoolOptions {
  /** Maximum open connections. Default 10 (node-postgres default). */
  max?: number;
  /** Milliseconds an idle connection stays open. Default 10 000. */
  idleTimeoutMillis?: number;
  /**
   * Milliseconds to wait for a connection (a free pool slot, or a new connection to the server)
   * before the query fails with node-postgres' `timeout exceeded when trying to connect`.
   * Default 5 000; `0` waits forever.
   */
  connectionTimeoutMillis?: number;
  /**
   * Server-side `statement_timeout` of every connection, in milliseconds: PostgreSQL cancels a
   * statement running longer (SQLSTATE 57014). Default 30 000; `0` disables.
   */
  statementTimeoutMillis?: number;
  /**
   * Client-side `query_timeout` in milliseconds: the query fails (`Query read timeout`) when no
   * answer arrives, e.g. when the server is unreachable mid-query. Default
   * `statementTimeoutMillis + 5 000` (so the server's own cancellation normally comes first);
   * `0` disables.
   */
  queryTimeoutMillis?: number;
}

/**
 * Pool defaults applied under {@link PoolOptions} for PostgreSQL. `queryTimeoutMillis` defaults to
 * `statementTimeoutMillis + 5 000` and is therefore not listed here.
 */
export const DEFAULT_POOL_OPTIONS = {
  max: 10,
  idleTimeoutMillis: 10_000,
  connectionTimeoutMillis: 5_000,
  statementTimeoutMillis: 30_000,
} as const;

/** Milliseconds the client-side query timeout exceeds the server-side statement timeout by. */
const QUERY_TIMEOUT_MARGIN_MS = 5_000;

/** Options of {@link createDatabase}. The package never reads the environment: callers pass these. */
export interface DatabaseOptions {
  /** A PostgreSQL connection string. When absent, an embedded PGlite database is used. */
  databaseUrl?: string;
  /**
   * Where the embedded database persists, as `<dataDir>/pglite`. When absent the embedded
   * database lives in memory and is lost on `close()`. Ignored when `databaseUrl` is set.
   */
  dataDir?: string;
  /**
   * A schema to use instead of `public` (created when missing, put first on the `search_path`).
   * Lower-case letters, digits and `_` only. Used by tests to isolate themselves.
   */
  schema?: string;
  /** Pool settings for PostgreSQL. The embedded database always has exactly one connection. */
  pool?: PoolOptions;
  /**
   * Told about errors of pooled PostgreSQL connections that no query is waiting for: an idle
   * connection terminated by the server (a restart: SQLSTATE 57P01) or a network failure. The
   * broken connection is dropped and replaced on the next query; the process never exits on
   * such an error. Also told when the embedded database's folder lock could not be refreshed
   * (the process was frozen past its expiry). Default: ignore (the package does not log). Pass
   * the app's logger here.
   */
  onConnectionError?: (error: Error) => void;
}

/** An open database: the Kysely instance, which engine backs it, and how to close it. */
export interface Database {
  /** The typed query builder. Pass it (or a transaction of it) to the repositories. */
  db: Kysely<DB>;
  /** `postgres` for a server reached by `databaseUrl`, `pglite` for the embedded database. */
  dialect: 'postgres' | 'pglite';
  /** The schema in use when one was requested. */
  schema: string | undefined;
  /**
   * The node-postgres pool under `db` (for PGlite, a pool of one over its adapter), for libraries
   * that take a pool, such as the shared counters of `createSharedCounter`.
   */
  pool: pg.Pool;
  /** Closes the pool and, for the embedded database, shuts PGlite down (flushing it to disk). */
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const DATE_OID = 1082;

/**
 * Type parsers shared by both engines: `date` stays a `YYYY-MM-DD` string (node-postgres would
 * build a local-midnight `Date`); `numeric` and `int8` stay strings (node-postgres defaults).
 */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === DATE_OID) return (value: string) => value;
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

function checkSchema(schema: string | undefined): void {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new StoreError('invalid_input', `schema name must match ${SCHEMA_NAME}: ${schema}`);
  }
}

async function ensureSchema(db: Kysely<DB>, schema: string | undefined): Promise<void> {
  if (schema === undefined) return;
  await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
}

/** The node-postgres pool settings of {@link PoolOptions} laid over {@link DEFAULT_POOL_OPTIONS}. */
function poolConfig(url: string, options: DatabaseOptions): pg.PoolConfig {
  const { statementTimeoutMillis, queryTimeoutMillis, ...pool } = {
    ...DEFAULT_POOL_OPTIONS,
    ...options.pool,
  };
  const queryTimeout =
    queryTimeoutMillis ??
    (statementTimeoutMillis > 0 ? statementTimeoutMillis + QUERY_TIMEOUT_MARGIN_MS : 0);
  const settings = [`-c statement_timeout=${Math.max(0, Math.round(statementTimeoutMillis))}`];
  if (options.schema) settings.push(`-c search_path=${options.schema}`);
  return {
    connectionString: url,
    types: typeParsers,
    ...pool,
    ...(queryTimeout > 0 ? { query_timeout: queryTimeout } : {}),
    keepAlive: true,
    options: settings.join(' '),
  };
}

/**
 * A pool that survives its connections' errors. node-postgres emits `error` on the pool for an
 * idle client and on the client itself while it is checked out between queries (e.g. inside a
 * transaction awaiting other work); an unhandled `error` event would end the process. Both are
 * handled here: the error is reported and the pool drops the broken client (`_queryable` false),
 * so the next query opens a fresh connection once the server is back.
 */
function resilientPool(config: pg.PoolConfig, report: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: PreparingClient });
  // an idle client's error reaches both listeners: report it once, from the client's
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', report);
  });
  return pool;
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const pool = resilientPool(poolConfig(url, options), options.onConnectionError ?? (() => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  await ensureSchema(db, options.schema);
  return { db, dialect: 'postgres', schema: options.schema, pool, close: () => db.destroy() };
}

/**
 * Milliseconds after which the lock of a data folder whose owner stopped refreshing it (killed
 * with `kill -9`, or frozen) may be taken over. The owner refreshes it every half of this.
 */
const DATA_DIR_LOCK_STALE_MS = 10_000;

/**
 * Takes the lock of an embedded database folder (`<dataDir>.lock`, a directory created
 * atomically and refreshed while held: `proper-lockfile`), so that one process owns the folder:
 * two PGlite instances writing the same files corrupt them.
 *
 * @throws {StoreError} `locked` when another owner holds it.
 */
async function lockDataDir(
  dataDir: string,
  onLost: (error: Error) => void,
): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      stale: DATA_DIR_LOCK_STALE_MS,
      update: DATA_DIR_LOCK_STALE_MS / 2,
      retries: 0,
      realpath: false,
      onCompromised: onLost,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ELOCKED') throw error;
    throw new StoreError(
      'locked',
      `the embedded database in ${dataDir} is in use by another process (lock: ${dataDir}.lock). ` +
        'Stop that process, or set DATABASE_URL to let several processes share a PostgreSQL ' +
        `server. A lock left by a killed process expires after ${DATA_DIR_LOCK_STALE_MS / 1000} s.`,
      { cause: error },
    );
  }
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  let dataDir: string | undefined;
  let unlock = async () => {};
  if (options.dataDir !== undefined) {
    dataDir = join(options.dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir, options.onConnectionError ?? (() => {}));
  }
  let pglite: Awaited<ReturnType<typeof PGlite.create>>;
  try {
    pglite = await PGlite.create(dataDir === undefined ? {} : { dataDir });
  } catch (error) {
    await unlock();
    throw error;
  }
  // One PGlite backend behind a pool of one: node-postgres queues every query and transaction.
  const pool = new pg.Pool({
    ...createPgConfig(pglite),
    max: 1,
    idleTimeoutMillis: 0,
    types: typeParsers,
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  await ensureSchema(db, options.schema);
  if (options.schema) await sql`set search_path to ${sql.id(options.schema)}`.execute(db);
  const close = async () => {
    await db.destroy();
    await pglite.close();
    await unlock();
  };
  return { db, dialect: 'pglite', schema: options.schema, pool, close };
}

/**
 * Opens the database: PostgreSQL through node-postgres when `databaseUrl` is given, otherwise an
 * embedded PGlite (persisted under `dataDir`, or in memory). Both run the same SQL through
 * Kysely's `PostgresDialect`; PGlite is reached through its own node-postgres adapter
 * (`@electric-sql/pglite/node-postgres`) with a pool of one connection, so transactions are
 * serialised. Does not migrate: call {@link migrateToLatest} after opening.
 *
 * The embedded database's folder is locked while open (`<dataDir>/pglite.lock`): a second
 * process, or a second `createDatabase` in this one, is refused until `close()`.
 *
 * @throws {StoreError} `invalid_input` for a malformed `schema`; `locked` when another process
 *   owns the embedded database folder; connection errors unchanged.
 * @example
 * ```ts
 * const database = await createDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
 * await migrateToLatest(database.db);
 * const repos = createRepositories(database.db);
 * // ... on shutdown
 * await database.close();
 * ```
 */
export async function createDatabase(options: DatabaseOptions = {}): Promise<Database> {
  checkSchema(options.schema);
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options);
}
