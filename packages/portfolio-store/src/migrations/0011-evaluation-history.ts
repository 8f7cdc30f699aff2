import { type Kysely, sql } from 'kysely';

/**
 * Migration 0011: evaluations that remember.
 *
 * - `evaluation_history`: one row per fresh evaluation, append-only (the store only inserts and
 *   reads; it references no user, so no account deletion cascades into it). It keeps the evaluation as made, its
 *   headline columns, the change of the total score since the symbol's previous row
 *   (`score_change`, null for the first), the provenance it was built from (`provider`,
 *   `fiscal_years`, `filings` with accession numbers and filed dates) and what made it
 *   (`trigger`: `request` for `GET /api/stock-evaluation` and MCP, `fill-cache` for the CLI).
 *   Global like the cache: it is about companies, and carries no user id. Listed newest first
 *   per symbol through `evaluation_history_symbol_idx`; `seq` orders rows of one instant.
 * - `evaluation_cache.score_change`: the change of the total score since the previous cached
 *   evaluation of the symbol (null when there was none), for the screener's
 *   `minScoreChange`/`maxScoreChange` filters. No index: the filters are read along the sort
 *   index of the page (migration 0009), as the other range filters are.
 *
 * `down` drops both.
 */
export const evaluationHistory = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('evaluation_history')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('evaluation', 'jsonb', (c) => c.notNull())
      .addColumn('total_score', 'double precision', (c) => c.notNull())
      .addColumn('max_score', 'double precision', (c) => c.notNull())
      .addColumn('verdict', 'text', (c) => c.notNull())
      .addColumn('score_change', 'double precision')
      .addColumn('provider', 'text')
      .addColumn('fiscal_years', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
      .addColumn('filings', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('trigger', 'text', (c) =>
        c.notNull().check(sql`"trigger" in ('request', 'fill-cache')`),
      )
      .addColumn('evaluated_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await sql`create index evaluation_history_symbol_idx on evaluation_history (symbol, evaluated_at desc, seq desc)`.execute(
      db,
    );
    await db.schema
      .alterTable('evaluation_cache')
      .addColumn('score_change', 'double precision')
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('evaluation_cache').dropColumn('score_change').execute();
    await db.schema.dropTable('evaluation_history').ifExists().execute();
  },
};
