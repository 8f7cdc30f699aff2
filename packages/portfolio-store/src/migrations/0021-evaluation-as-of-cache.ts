import { type Kysely, sql } from 'kysely';

/**
 * Migration 0021: evaluations as of a date (issue 39), cached apart from the latest ones.
 *
 * - `evaluation_as_of_cache`: one row per (symbol, as-of day): the evaluation scored on the
 *   figures filed by that day, and when it was stored. Shared like `evaluation_cache` (about
 *   companies, no user id) but never read by the screener, the refresh pass or the history: a
 *   past date is a question, not the company's current state.
 * - `evaluation_cache_methodology_idx`: the cached evaluations by `methodologyVersion` (an
 *   expression index on the JSON field), so that the refresh pass finds those scored by an older
 *   methodology without reading every row.
 *
 * `down` drops both.
 */
export const evaluationAsOfCache = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('evaluation_as_of_cache')
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('as_of', 'date', (c) => c.notNull())
      .addColumn('evaluation', 'jsonb', (c) => c.notNull())
      .addColumn('cached_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('evaluation_as_of_cache_pkey', ['symbol', 'as_of'])
      .execute();
    await sql`create index evaluation_cache_methodology_idx on evaluation_cache ((evaluation->>'methodologyVersion'))`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop index if exists evaluation_cache_methodology_idx`.execute(db);
    await db.schema.dropTable('evaluation_as_of_cache').ifExists().execute();
  },
};
