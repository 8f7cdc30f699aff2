/**
 * `@svc/portfolio-store/testing`: the two engines every storage test runs against, shared by the
 * packages and apps whose tests need a real, migrated database. A separate entry: the main entry
 * never imports it, so the library carries no test code.
 *
 * PostgreSQL: a fresh schema per opened database, dropped on cleanup. PGlite: in memory.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Database, type PoolOptions } from './database.js';
import { migrateToLatest } from './migrate.js';

/** The server probed when no URL is given explicitly. */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** An open, migrated test database and how to throw it away. */
export interface TestDatabase extends Database {
  /**
   * Opens another pool on the same schema (as another server process would). On PGlite, which
   * one process owns, it returns the same database with a `close()` that does nothing.
   */
  connectAgain(pool?: PoolOptions): Promise<Database>;
  /** PostgreSQL: drops the schema, then closes the pool. PGlite: closes the database. */
  cleanup(): Promise<void>;
}

/** One engine to run a suite against. */
export interface TestBackend {
  /** The engine, for test titles (`describe.each(backends)('... on $name', ...)`). */
  name: 'postgres' | 'pglite';
  /** Opens a fresh, migrated database; `pool` sizes the PostgreSQL pool (ignored by PGlite). */
  open(options?: { pool?: PoolOptions }): Promise<TestDatabase>;
}

/** Options of {@link createTestBackends}. */
export interface TestBackendsOptions {
  /**
   * A PostgreSQL server named explicitly (typically `process.env.TEST_DATABASE_URL`). When set,
   * the PostgreSQL backend always runs, so an unreachable server fails the suite. When absent or
   * empty, {@link DEFAULT_TEST_DATABASE_URL} is probed and, if unreachable, left out with a warning.
   */
  databaseUrl?: string | undefined;
  /** Receives the warning when the default server is skipped. Default `console.warn`. */
  warn?: (message: string) => void;
}

/** `true` when a client connects to `url` within 2 s. */
async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function postgresBackend(databaseUrl: string): TestBackend {
  return {
    name: 'postgres',
    async open(options = {}) {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      const database = await createDatabase({ databaseUrl, schema, pool: options.pool });
      await migrateToLatest(database.db);
      return {
        ...database,
        connectAgain: (pool) => createDatabase({ databaseUrl, schema, pool }),
        async cleanup() {
          await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
          await database.close();
        },
      };
    },
  };
}

const pgliteBackend: TestBackend = {
  name: 'pglite',
  async open() {
    const database = await createDatabase({});
    await migrateToLatest(database.db);
    return {
      ...database,
      connectAgain: async () => ({ ...database, close: async () => undefined }),
      cleanup: () => database.close(),
    };
  },
};

/**
 * The engines to run storage tests against: PostgreSQL (when named or reachable) and PGlite.
 *
 * Probes the default server only when `databaseUrl` is absent (at most 2 s).
 *
 * @example
 * ```ts
 * import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
 *
 * const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
 * describe.each(backends)('flows on $name', (backend) => {
 *   let database: TestDatabase;
 *   beforeAll(async () => { database = await backend.open(); });
 *   afterAll(() => database.cleanup());
 * });
 * ```
 */
export async function createTestBackends(
  options: TestBackendsOptions = {},
): Promise<TestBackend[]> {
  const explicitUrl = options.databaseUrl || undefined;
  const url = explicitUrl ?? DEFAULT_TEST_DATABASE_URL;
  if (explicitUrl || (await reachable(url))) return [postgresBackend(url), pgliteBackend];
  (options.warn ?? console.warn)(
    `PostgreSQL at ${url} unreachable: PostgreSQL storage tests skipped`,
  );
  return [pgliteBackend];
}

/** A unique e-mail address for a test user, e.g. `alice-3f9a0c1b2d@example.test`. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.test`;
}

export { freePort } from './free-port.js';
export {
  findPostgresBinDir,
  startThrowawayCluster,
  type ThrowawayCluster,
  type ThrowawayClusterOptions,
} from './throwaway-cluster.js';
