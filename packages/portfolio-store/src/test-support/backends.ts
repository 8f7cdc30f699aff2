/**
 * Test-only: this package's own suites read `TEST_DATABASE_URL` here and run on the engines of
 * `src/testing.ts` (published as `@svc/portfolio-store/testing`).
 */
import { Migrator } from 'kysely';
import { staticMigrationProvider } from '../migrations/index.js';
import { createTestBackends, type TestDatabase } from '../testing.js';

export { type TestDatabase, uniqueEmail } from '../testing.js';

/** The engines to run against: PostgreSQL (when named or reachable) and PGlite. */
export const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

/**
 * A migrator over this package's migrations in the test database's schema, for suites that take a
 * database back to an earlier migration, write rows as they were then, and migrate on.
 */
export function migratorOf(database: TestDatabase): Migrator {
  return new Migrator({
    db: database.db,
    provider: staticMigrationProvider,
    migrationTableSchema: database.schema ?? 'public',
  });
}
