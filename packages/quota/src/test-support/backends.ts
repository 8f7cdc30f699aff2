/**
 * Test-only: PostgreSQL (`TEST_DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/test`,
 * a fresh schema per test file) and in-memory PGlite, both migrated. When the variable is unset
 * and the default server is unreachable, the PostgreSQL runs are skipped with a warning.
 */
import { randomBytes } from 'node:crypto';
import { createDatabase, type Database, migrateToLatest } from '@svc/portfolio-store';
import { sql } from 'kysely';
import pg from 'pg';

/** An open, migrated test database; `connectAgain` opens another pool on the same schema. */
export interface TestDatabase extends Database {
  connectAgain(pool: { max: number }): Promise<Database>;
  cleanup(): Promise<void>;
}

/** One engine to run a suite against. */
export interface TestBackend {
  name: 'postgres' | 'pglite';
  open(pool?: { max: number }): Promise<TestDatabase>;
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
if (!postgresUp)
  console.warn(`PostgreSQL at ${postgresUrl} unreachable: PostgreSQL quota tests skipped`);

const postgres: TestBackend = {
  name: 'postgres',
  async open(pool) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const database = await createDatabase({ databaseUrl: postgresUrl, schema, pool });
    await migrateToLatest(database.db);
    return {
      ...database,
      connectAgain: (again) => createDatabase({ databaseUrl: postgresUrl, schema, pool: again }),
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
    return {
      ...database,
      connectAgain: async () => ({ ...database, close: async () => undefined }),
      cleanup: () => database.close(),
    };
  },
};

/** The engines to run against: PostgreSQL (when reachable) and PGlite. */
export const backends: TestBackend[] = postgresUp ? [postgres, pglite] : [pglite];
