import { type Kysely, sql } from 'kysely';

/**
 * Migration 0012: `portfolios.ledger_version` (bigint, not null, default 0), a counter bumped by
 * the database itself in the same transaction as every statement that inserts, updates or
 * deletes rows of `transactions` (three statement-level triggers over transition tables: one
 * bump per portfolio touched per statement, so an import of thousands of rows bumps once per
 * chunk, not per row). A reader that sees the same version sees the same ledger, whichever process
 * wrote it: the performance flow keys its cached daily timelines on it instead of reading and
 * digesting the whole ledger. `down` drops the triggers, the function and the column.
 */
export const portfolioLedgerVersion = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('portfolios')
      .addColumn('ledger_version', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`
      create function bump_ledger_version() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update portfolios set ledger_version = ledger_version + 1
            where id in (select portfolio_id from ledger_new);
        elsif tg_op = 'DELETE' then
          update portfolios set ledger_version = ledger_version + 1
            where id in (select portfolio_id from ledger_old);
        else
          update portfolios set ledger_version = ledger_version + 1
            where id in (select portfolio_id from ledger_old
                         union select portfolio_id from ledger_new);
        end if;
        return null;
      end $$
    `.execute(db);
    await sql`
      create trigger transactions_inserted after insert on transactions
        referencing new table as ledger_new
        for each statement execute function bump_ledger_version()
    `.execute(db);
    await sql`
      create trigger transactions_updated after update on transactions
        referencing old table as ledger_old new table as ledger_new
        for each statement execute function bump_ledger_version()
    `.execute(db);
    await sql`
      create trigger transactions_deleted after delete on transactions
        referencing old table as ledger_old
        for each statement execute function bump_ledger_version()
    `.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop trigger transactions_inserted on transactions`.execute(db);
    await sql`drop trigger transactions_updated on transactions`.execute(db);
    await sql`drop trigger transactions_deleted on transactions`.execute(db);
    await sql`drop function bump_ledger_version()`.execute(db);
    await db.schema.alterTable('portfolios').dropColumn('ledger_version').execute();
  },
};
