import type { MoatEvaluation } from '@svc/schemas';
import { sql } from 'kysely';
import { toStoreError } from '../errors.js';
import { type Executor, iso } from './shared.js';

/** A cached evaluation with the instant it was stored. */
export interface CachedEvaluation {
  symbol: string;
  /** The evaluation exactly as stored (without `_cached` / `_cachedAt`: the caller adds them). */
  evaluation: MoatEvaluation;
  /** Market capitalisation in USD; decimal string. */
  marketCap: string | null;
  /** ISO-8601. */
  cachedAt: string;
}

/** Options of {@link EvaluationCacheRepository.upsert}. */
export interface UpsertEvaluationOptions {
  /** Market capitalisation in USD, a decimal string; not part of the evaluation itself. */
  marketCap?: string | null;
  /** When the evaluation was made; default the database's `now()`. */
  cachedAt?: Date;
}

/**
 * SQL: stores the evaluation of a symbol (upper-cased) in `db` (a transaction or not), replacing
 * the previous one, with the screener columns taken from it: total and max score, verdict, sector,
 * industry, company name, `valuation.peRatio`, the number of `dataQuality` flags and their distinct codes; `score_change` becomes the new total minus the
 * replaced one, rounded to 6 decimals (float noise of the totals), null for a symbol's first
 * evaluation.
 * @throws {StoreError} `invalid_input` for a value the database rejects.
 */
export async function upsertCachedEvaluation(
  db: Executor,
  evaluation: MoatEvaluation,
  options: UpsertEvaluationOptions = {},
): Promise<void> {
  const row = {
    symbol: evaluation.symbol.toUpperCase(),
    evaluation: JSON.stringify(evaluation),
    total_score: evaluation.totalScore,
    max_score: evaluation.maxScore,
    verdict: evaluation.verdict,
    sector: evaluation.sector ?? null,
    industry: evaluation.industry ?? null,
    company_name: evaluation.companyName,
    pe_ratio: evaluation.valuation?.peRatio ?? null,
    data_quality_flags: evaluation.dataQuality?.length ?? 0,
    data_quality_codes: JSON.stringify(
      [...new Set((evaluation.dataQuality ?? []).map((flag) => flag.code))].sort(),
    ),
    market_cap: options.marketCap ?? null,
    cached_at: options.cachedAt ?? sql<Date>`now()`,
  };
  const { symbol: _symbol, ...update } = row;
  await db
    .insertInto('evaluation_cache')
    .values(row)
    .onConflict((oc) =>
      oc.column('symbol').doUpdateSet({
        ...update,
        // The change since the evaluation this one replaces (the screener's score-change filters).
        score_change: sql<number>`round((excluded.total_score - evaluation_cache.total_score)::numeric, 6)::double precision`,
      }),
    )
    .execute()
    .catch((error: unknown) => {
      throw toStoreError(error, 'evaluation');
    });
}

/**
 * How the server scores now, what a cached evaluation is compared with to tell whether the refresh
 * pass must compute it again (`staleSymbols`, `lockStale`).
 */
export interface CurrentScoring {
  /** `METHODOLOGY_VERSION` of `@svc/moat-scoring`. */
  readonly methodologyVersion: string;
  /** The second provider's name (`RECONCILE_PROVIDER`: `simfin`, `sec-edgar`, `snapshot`), or null when off. */
  readonly reconcileProvider: string | null;
}

/** A cached row that `lockStale` locked: what it was made with (`null`: none recorded). */
export interface StaleRow {
  /** Its `methodologyVersion`. */
  readonly previousVersion: string | null;
  /** Its `_reconciliation.provider`. */
  readonly previousReconcileProvider: string | null;
}

/** SQL: the cached evaluation was scored by another methodology or reconciled otherwise. */
const notCurrent = (current: CurrentScoring) =>
  sql<boolean>`((evaluation->>'methodologyVersion') is distinct from ${current.methodologyVersion} or (evaluation->'_reconciliation'->>'provider') is distinct from ${current.reconcileProvider})`;

/** Creates the evaluation-cache repository over `db` (shared data: one row per symbol). */
export function createEvaluationCacheRepository(db: Executor) {
  return {
    /**
     * Stores the evaluation of a symbol alone (see {@link upsertCachedEvaluation}); a fresh
     * evaluation is kept with its history by `keepEvaluation` of `@svc/use-cases` instead.
     * @throws {StoreError} `invalid_input` for a value the database rejects.
     */
    upsert: (evaluation: MoatEvaluation, options: UpsertEvaluationOptions = {}): Promise<void> =>
      upsertCachedEvaluation(db, evaluation, options),

    /** The cached evaluation of a symbol (case-insensitive), or undefined. */
    async get(symbol: string): Promise<CachedEvaluation | undefined> {
      const row = await db
        .selectFrom('evaluation_cache')
        .select(['symbol', 'evaluation', 'market_cap', 'cached_at'])
        .where('symbol', '=', symbol.toUpperCase())
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        symbol: row.symbol,
        evaluation: row.evaluation as MoatEvaluation,
        marketCap: row.market_cap,
        cachedAt: iso(row.cached_at),
      };
    },

    /**
     * The cached evaluations of several symbols (case-insensitive) in one statement, in no
     * particular order; a symbol without a row is absent.
     */
    async getMany(symbols: readonly string[]): Promise<CachedEvaluation[]> {
      if (symbols.length === 0) return [];
      const rows = await db
        .selectFrom('evaluation_cache')
        .select(['symbol', 'evaluation', 'market_cap', 'cached_at'])
        .where(
          'symbol',
          'in',
          symbols.map((s) => s.toUpperCase()),
        )
        .execute();
      return rows.map((row) => ({
        symbol: row.symbol,
        evaluation: row.evaluation as MoatEvaluation,
        marketCap: row.market_cap,
        cachedAt: iso(row.cached_at),
      }));
    },

    /** Every cached symbol (upper case), in order: what the refresh pass watches. */
    async symbols(): Promise<string[]> {
      const rows = await db
        .selectFrom('evaluation_cache')
        .select('symbol')
        .orderBy('symbol')
        .execute();
      return rows.map((r) => r.symbol);
    },

    /**
     * Refreshes the planner statistics of the cache (`ANALYZE evaluation_cache`), so that the
     * screener's statement picks its sort index (migration 0009) right after a bulk fill rather
     * than when autovacuum next analyzes the table (PostgreSQL's default: after 10% of the rows
     * plus 50 changed, checked every minute). Cheap: a sample of at most 30,000 rows.
     */
    async analyze(): Promise<void> {
      await sql`analyze evaluation_cache`.execute(db);
    },

    /**
     * The cached symbols (upper case, in order) whose evaluation was not made the way the server
     * scores now (`current`): scored by another methodology (its `methodologyVersion` differs or
     * is absent), or reconciled with another second provider (`_reconciliation.provider`; absent
     * or null: none) than `current.reconcileProvider`. What the refresh pass's methodology step
     * recomputes (issue 39). At most `limit` of them.
     */
    async staleSymbols(current: CurrentScoring, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('evaluation_cache')
        .select('symbol')
        .where(notCurrent(current))
        .orderBy('symbol')
        .limit(limit)
        .execute();
      return rows.map((r) => r.symbol);
    },

    /**
     * Inside a transaction: locks the cached row of `symbol` (`for update`) when its evaluation
     * was not made the way the server scores now (`current`, as {@link staleSymbols} tells), and
     * answers its methodology version and second provider (`null`: none recorded); `undefined`
     * when the row is current or absent. A second transaction asking for the same row waits for
     * the first to commit and then finds it current: one recomputation.
     */
    async lockStale(symbol: string, current: CurrentScoring): Promise<StaleRow | undefined> {
      const row = await db
        .selectFrom('evaluation_cache')
        .select([
          sql<string | null>`evaluation->>'methodologyVersion'`.as('version'),
          sql<string | null>`evaluation->'_reconciliation'->>'provider'`.as('reconcile_provider'),
        ])
        .where('symbol', '=', symbol.toUpperCase())
        .where(notCurrent(current))
        .forUpdate()
        .executeTakeFirst();
      return row
        ? { previousVersion: row.version, previousReconcileProvider: row.reconcile_provider }
        : undefined;
    },

    /**
     * Stores the evaluation of a symbol as of a day (`YYYY-MM-DD`), apart from the latest one
     * (`evaluation_as_of_cache`, issue 39), replacing the previous one of that symbol and day.
     * @throws {StoreError} `invalid_input` for a value the database rejects (not a date).
     */
    async upsertAsOf(evaluation: MoatEvaluation, asOf: string, cachedAt: Date): Promise<void> {
      const row = {
        symbol: evaluation.symbol.toUpperCase(),
        as_of: asOf,
        evaluation: JSON.stringify(evaluation),
        cached_at: cachedAt,
      };
      await db
        .insertInto('evaluation_as_of_cache')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['symbol', 'as_of'])
            .doUpdateSet({ evaluation: row.evaluation, cached_at: row.cached_at }),
        )
        .execute()
        .catch((error: unknown) => {
          throw toStoreError(error, 'evaluation');
        });
    },

    /** The evaluation of a symbol (case-insensitive) as of a day (`YYYY-MM-DD`), or undefined. */
    async getAsOf(symbol: string, asOf: string): Promise<CachedEvaluation | undefined> {
      const row = await db
        .selectFrom('evaluation_as_of_cache')
        .select(['symbol', 'evaluation', 'cached_at'])
        .where('symbol', '=', symbol.toUpperCase())
        .where('as_of', '=', asOf)
        .executeTakeFirst()
        .catch((error: unknown) => {
          throw toStoreError(error, 'evaluation');
        });
      if (!row) return undefined;
      return {
        symbol: row.symbol,
        evaluation: row.evaluation as MoatEvaluation,
        marketCap: null,
        cachedAt: iso(row.cached_at),
      };
    },

    /** Removes a symbol from the cache. Answers whether it was cached. */
    async delete(symbol: string): Promise<boolean> {
      const result = await db
        .deleteFrom('evaluation_cache')
        .where('symbol', '=', symbol.toUpperCase())
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

/** The evaluation-cache repository (see {@link createEvaluationCacheRepository}). */
export type EvaluationCacheRepository = ReturnType<typeof createEvaluationCacheRepository>;
