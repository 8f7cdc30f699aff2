/**
 * Test-only: the two engines every storage test runs against. Not exported by the package.
 * PostgreSQL: `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`), a fresh
 * schema per opened database, dropped on cleanup. When the variable is unset and the default
 * server is unreachable, the PostgreSQL runs are skipped with a warning; when it is set and
 * unreachable, they fail. PGlite: in memory.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Database, type PoolOptions } from '../database.js';
import { migrateToLatest } from '../migrate.js';

/** An open, migrated test database and how to throw it away. */
export interface TestDatabase extends Database {
  cleanup(): Promise<void>;
}

/** One engine to run a suite against. */
export interface TestBackend {
  name: 'postgres' | 'pglite';
  open(options?: { pool?: PoolOptions }): Promise<TestDatabase>;
}

const explicitUrl = process.env.TEST_DATABASE_URL;
const postgresUrl = explicitUrl || 'postgres://postgres@127.0.0.1:5432/test';

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

const postgresUp = explicitUrl ? true : await reachable(postgresUrl);
if (!postgresUp) {
  console.warn(`PostgreSQL at ${postgresUrl} unreachable: PostgreSQL storage tests skipped`);
}

const postgres: TestBackend = {
  name: 'postgres',
  async open(options = {}) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const database = await createDatabase({ databaseUrl: postgresUrl, schema, pool: options.pool });
    await migrateToLatest(database.db);
    return {
      ...database,
      async cleanup() {
        await sql`drop schema ${sql.id(schema)} cascade`.execute(database.db);
        await database.close();
      },
    };
  },
};

const pglite: TestBackend = {
  name: 'pglite',
  async open() {
    const database = await createDatabase({});
    await migrateToLatest(database.db);
    return { ...database, cleanup: () => database.close() };
  },
};

/** The engines to run against: PostgreSQL (when reachable) and PGlite. */
export const backends: TestBackend[] = postgresUp ? [postgres, pglite] : [pglite];

/** A unique e-mail address for a test user. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.test`;
}
