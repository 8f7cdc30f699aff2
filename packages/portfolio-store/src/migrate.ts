import {
  type DatabaseIntrospector,
  type Kysely,
  type MigrationResult,
  Migrator,
  sql,
  type TableMetadata,
} from 'kysely';
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

/**
 * `db` as Kysely's `Migrator` should see it: with an introspection that lists the tables of
 * `schema` only. Kysely's own (`PostgresIntrospector.getTables`) lists every column of every
 * schema on the server and calls `has_schema_privilege(ns.nspname, 'USAGE')` for each schema the
 * catalog scan meets; a schema another session drops meanwhile fails that call with 3F000 naming
 * it (a test suite dropping its schema failed another suite's migration in CI; one session
 * creating and dropping schemas in a loop failed 72 of 1,776 such queries), and its cost grows
 * with every schema and table on the server, on each readiness probe too. The migrator reads only
 * whether its two bookkeeping tables exist in `schema`; every other use of `db` is unchanged.
 */
function scopedToSchema(db: Kysely<DB>, schema: string): Kysely<DB> {
  const tables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${schema} and c.relkind in ('r', 'v', 'p')`.execute(db);
    return rows.map((r) => ({ name: r.name, schema, isView: r.kind === 'v', columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getTables: tables,
    getMetadata: async () => ({ tables: await tables() }),
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      // methods run on the instance itself: Kysely keeps its state in private fields
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
    db: scopedToSchema(db, schema),
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
    db: scopedToSchema(db, schema),
    provider: staticMigrationProvider,
    migrationTableSchema: schema,
  });
  const migrations = await migrator.getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
