import { type Kysely, sql } from 'kysely';

/**
 * Migration 0014: the journal of every portfolio's ledger (issue 30, CONTRACT §6).
 *
 * - `portfolio_changes`: one row per write to a portfolio's `transactions` (a recorded
 *   transaction, an edit, a delete, an import, a revert): `kind` (`record`, `edit`, `delete`,
 *   `import`, `revert`), `source` (`rest`, `advisor`, `account-import`), `at`, a human `summary`,
 *   `reverts` (the change a revert took back) and `reverted_by` (the revert that took this one
 *   back, at most one), `transaction_count` (how many transactions it touched). `seq` (an identity) orders the changes of one instant; the list reads
 *   them newest first by it.
 * - `portfolio_change_rows`: for each transaction a change touched, its row before and after
 *   (`to_jsonb` of the whole `transactions` row, id included; null when it did not exist before,
 *   or no longer exists after), so that any change can be reverted exactly: a deleted row comes
 *   back with its id, an edit gets its old values, an import's rows (and only those) go.
 *
 * Changes go with their portfolio and their user (`on delete cascade`). `down` drops both tables.
 */
export const portfolioChanges = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('portfolio_changes')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('seq', 'bigint', (c) => c.notNull().generatedAlwaysAsIdentity())
      .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('portfolio_id', 'uuid', (c) =>
        c.notNull().references('portfolios.id').onDelete('cascade'),
      )
      .addColumn('kind', 'text', (c) =>
        c.notNull().check(sql`kind in ('record', 'edit', 'delete', 'import', 'revert')`),
      )
      .addColumn('source', 'text', (c) =>
        c.notNull().check(sql`source in ('rest', 'advisor', 'account-import')`),
      )
      .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('transaction_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reverts', 'uuid', (c) => c.references('portfolio_changes.id').onDelete('cascade'))
      .addColumn('reverted_by', 'uuid', (c) =>
        c.references('portfolio_changes.id').onDelete('set null'),
      )
      .execute();
    await db.schema
      .createIndex('portfolio_changes_portfolio_seq')
      .on('portfolio_changes')
      .columns(['portfolio_id', 'seq desc'])
      .execute();
    await db.schema
      .createIndex('portfolio_changes_user')
      .on('portfolio_changes')
      .column('user_id')
      .execute();
    await db.schema
      .createTable('portfolio_change_rows')
      .addColumn('change_id', 'uuid', (c) =>
        c.notNull().references('portfolio_changes.id').onDelete('cascade'),
      )
      .addColumn('transaction_id', 'uuid', (c) => c.notNull())
      .addColumn('before', 'jsonb')
      .addColumn('after', 'jsonb')
      .addPrimaryKeyConstraint('portfolio_change_rows_pkey', ['change_id', 'transaction_id'])
      .execute();
    await db.schema
      .createIndex('portfolio_change_rows_transaction')
      .on('portfolio_change_rows')
      .column('transaction_id')
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('portfolio_change_rows').execute();
    await db.schema.dropTable('portfolio_changes').execute();
  },
};
