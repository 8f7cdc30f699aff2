import { type Kysely, sql } from 'kysely';

/**
 * Migration 0019: instruments (issue 38, CONTRACT §9).
 *
 * - `transactions.instrument` (jsonb, null): the instrument the transaction refers to, as
 *   resolved when it was written (`Instrument` of `@svc/schemas`: ISIN, ticker, MIC, currency,
 *   name, kind, CIK, resolution). Null on rows written before this migration until the service's
 *   start-up pass (`resolvePendingInstruments` of `@svc/use-cases`) resolves them; nothing is
 *   dropped or rewritten here, so no row is lost.
 * - `holdings.instrument` (jsonb, null): the instrument of a derived holding, written by the
 *   revaluation.
 * - `instrument_resolutions`: the identifier services' answers (OpenFIGI), global because they
 *   are public reference data, keyed `isin:<ISIN>` or `ticker:<TICKER>`; `instrument` null records
 *   that the service knew nothing (a negative answer, kept shorter).
 * - The journal's row snapshots (`portfolio_change_rows.before/after`, `to_jsonb` of whole
 *   `transactions` rows, migration 0014) get the new key with null, so a revert of a change made
 *   before this migration still finds its rows as it left them.
 *
 * `down` drops the table and the columns and takes the key out of the snapshots.
 */
export const instruments = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table transactions add column instrument jsonb`.execute(db);
    await sql`alter table holdings add column instrument jsonb`.execute(db);
    for (const side of ['before', 'after'] as const) {
      await sql`
        update portfolio_change_rows set ${sql.id(side)} = ${sql.id(side)} || '{"instrument": null}'::jsonb
        where ${sql.id(side)} is not null and not (${sql.id(side)} ? 'instrument')
      `.execute(db);
    }
    await sql`
      create index transactions_instrument_pending on transactions (portfolio_id)
      where symbol is not null and instrument is null
    `.execute(db);
    await sql`
      create table instrument_resolutions (
        key text primary key,
        instrument jsonb,
        source text not null,
        resolved_at timestamptz not null default now()
      )
    `.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop table instrument_resolutions`.execute(db);
    await sql`drop index transactions_instrument_pending`.execute(db);
    for (const side of ['before', 'after'] as const) {
      await sql`
        update portfolio_change_rows set ${sql.id(side)} = ${sql.id(side)} - 'instrument'
        where ${sql.id(side)} is not null
      `.execute(db);
    }
    await sql`alter table holdings drop column instrument`.execute(db);
    await sql`alter table transactions drop column instrument`.execute(db);
  },
};
