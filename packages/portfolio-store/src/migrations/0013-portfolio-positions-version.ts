import { type Kysely, sql } from 'kysely';

/** The derived tables whose rows a portfolio's positions version covers. */
const POSITION_TABLES = ['holdings', 'cash_positions'] as const;

/**
 * Migration 0013: `portfolios.positions_version` (bigint, not null, default 0), a counter bumped
 * by the database itself in the same transaction as every statement that inserts, updates or
 * deletes rows of `holdings` or `cash_positions`: the derived positions and the EUR values,
 * weights and instants a revaluation stored in them. Three statement-level triggers per table
 * over transition tables, as migration 0012 does for `transactions`: one bump per portfolio
 * touched per statement (a revaluation, which deletes and re-inserts both tables, bumps four
 * times in one transaction). A reader that sees the same version sees the same holdings and cash
 * rows, whichever process or statement (raw SQL included) wrote them: the holdings and cash
 * reads of `@svc/use-cases` key their memo of finished answers on it. `down` drops the
 * triggers, the function and the column.
 */
export const portfolioPositionsVersion = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('portfolios')
      .addColumn('positions_version', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`
      create function bump_positions_version() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update portfolios set positions_version = positions_version + 1
            where id in (select portfolio_id from positions_new);
        elsif tg_op = 'DELETE' then
          update portfolios set positions_version = positions_version + 1
            where id in (select portfolio_id from positions_old);
        else
          update portfolios set positions_version = positions_version + 1
            where id in (select portfolio_id from positions_old
                         union select portfolio_id from positions_new);
        end if;
        return null;
      end $$
    `.execute(db);
    for (const table of POSITION_TABLES) {
      await sql`
        create trigger ${sql.id(`${table}_inserted`)} after insert on ${sql.table(table)}
          referencing new table as positions_new
          for each statement execute function bump_positions_version()
      `.execute(db);
      await sql`
        create trigger ${sql.id(`${table}_updated`)} after update on ${sql.table(table)}
          referencing old table as positions_old new table as positions_new
          for each statement execute function bump_positions_version()
      `.execute(db);
      await sql`
        create trigger ${sql.id(`${table}_deleted`)} after delete on ${sql.table(table)}
          referencing old table as positions_old
          for each statement execute function bump_positions_version()
      `.execute(db);
    }
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of POSITION_TABLES) {
      for (const event of ['inserted', 'updated', 'deleted']) {
        await sql`drop trigger ${sql.id(`${table}_${event}`)} on ${sql.table(table)}`.execute(db);
      }
    }
    await sql`drop function bump_positions_version()`.execute(db);
    await db.schema.alterTable('portfolios').dropColumn('positions_version').execute();
  },
};
