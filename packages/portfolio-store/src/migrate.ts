import { type Kysely, type MigrationResult, Migrator, sql } from 'kysely';
import type { DB } from './db-types.js';
import { StoreError } from './errors.js';
import { staticMigrationProvider } from './migrations/index.js';

/** Outcome of {@link migrateToLatest}: the names of the migrations this call applied. */
export interface MigrationReport {
  /** Migrations applied now, in order; empty when the schema was already current. */
  applied: string[];
  /** The schema that holds the tables and Kysely's migration bookkeeping. */
  schema: string;
}

async function currentSchema(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema)
    throw new StoreError('migration_failed', 'no schema is selected (empty search_path)');
  return schema;
}

function appliedNames(results: MigrationResult[] | undefined): string[] {
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Brings the schema up to the latest migration with Kysely's `Migrator` over the statically
 * imported migrations. Idempotent: a second call applies nothing. Safe to run from several
 * processes at once (Kysely takes a PostgreSQL advisory lock). The bookkeeping tables
 * (`kysely_migration`, `kysely_migration_lock`) live in the current schema.
 *
 * @throws {StoreError} `migration_failed` with the database error as `cause`.
 * @example
 * ```ts
 * const { applied } = await migrateToLatest(database.db);
 * ```
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationReport> {
  const schema = await currentSchema(db);
  const migrator = new Migrator({
    db,
    provider: staticMigrationProvider,
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new StoreError('migration_failed', `migration ${failed} failed`, { cause: error });
  }
  return { applied: appliedNames(results), schema };
}

/**
 * The migrations of {@link MIGRATIONS} not yet applied to the current schema, in order (empty
 * when the schema is current). Reads Kysely's bookkeeping only, so it is cheap enough for a
 * readiness probe; a schema never migrated lists every migration.
 *
 * @throws whatever the database raises when it cannot be reached (see `isDatabaseUnavailable`).
 * @example
 * ```ts
 * const pending = await pendingMigrations(database.db);
 * if (pending.length > 0) reply.code(503);
 * ```
 */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  const schema = await currentSchema(db);
  const migrator = new Migrator({
    db,
    provider: staticMigrationProvider,
    migrationTableSchema: schema,
  });
  const migrations = await migrator.getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
