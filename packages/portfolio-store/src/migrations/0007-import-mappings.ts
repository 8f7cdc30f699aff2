import { type Kysely, sql } from 'kysely';

/**
 * Migration 0007: `import_mappings`, the column mappings a user confirmed for broker files that
 * no built-in format reads, one per header set (`header_key`: `headerSetKey` of `@svc/portfolio`,
 * the SHA-256 of the sorted, lower-cased header names), so the next file with the same columns
 * imports without sending the mapping again. `headers` keeps the names for display. Rows go with
 * their user (`on delete cascade`). `down` drops the table.
 */
export const importMappings = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('import_mappings')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('header_key', 'text', (c) => c.notNull())
      .addColumn('headers', 'jsonb', (c) => c.notNull())
      .addColumn('mapping', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('import_mappings_user_header_unique', ['user_id', 'header_key'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('import_mappings').execute();
  },
};
