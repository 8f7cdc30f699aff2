import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './db-types.js';
import { StoreError } from './errors.js';

/** Connection-pool settings for a PostgreSQL server (ignored by the embedded database). */
export interface PoolOptions {
  /** Maximum open connections. Default 10 (node-postgres default). */
  max?: number;
  /** Milliseconds an idle connection stays open. Default 10 000. */
  idleTimeoutMillis?: number;
  /** Milliseconds to wait for a connection before failing. Default 0 (wait forever). */
  connectionTimeoutMillis?: number;
}

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

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    types: typeParsers,
    ...options.pool,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  await ensureSchema(db, options.schema);
  return { db, dialect: 'postgres', schema: options.schema, pool, close: () => db.destroy() };
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  let dataDir: string | undefined;
  if (options.dataDir !== undefined) {
    dataDir = join(options.dataDir, 'pglite');
    await mkdir(dataDir, { recursive: true });
  }
  const pglite = await PGlite.create(dataDir === undefined ? {} : { dataDir });
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
 * @throws {StoreError} `invalid_input` for a malformed `schema`; connection errors unchanged.
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
