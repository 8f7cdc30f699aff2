import type { MoatEvaluation } from '@svc/schemas';
import { sql } from 'kysely';
import type { EvaluationTrigger } from '../db-types.js';
import { toStoreError } from '../errors.js';
import { type Executor, iso, isUuid } from './shared.js';

/** The filing that caused a re-evaluation (trigger `filing`), as the history row keeps it. */
export interface CauseFiling {
  accession: string;
  form: string;
  /** YYYY-MM-DD. */
  filed: string;
}

/** A filing an evaluation was built from (the `_filings` provenance of an evaluation). */
export interface HistoryFiling {
  form: string;
  accession: string;
  /** YYYY-MM-DD. */
  filed: string;
  fiscalYears: number[];
}

/** An evaluation as the history keeps it, with its provenance fields read from it. */
export type HistoryEvaluation = MoatEvaluation & {
  _fiscalYears?: number[];
  _provider?: string;
  _filings?: HistoryFiling[];
};

/** One kept evaluation without the evaluation itself (a history list item). */
export interface EvaluationRecordSummary {
  id: string;
  symbol: string;
  totalScore: number;
  maxScore: number;
  verdict: string;
  /** Total score minus the symbol's previous kept evaluation's; null for the first. */
  scoreChange: number | null;
  /** Fundamentals provider (`sec-edgar`, `snapshot`, `simfin`), when the evaluation said. */
  provider: string | null;
  /** Fiscal years scored, oldest first. */
  fiscalYears: number[];
  /** Filings behind the figures, newest first. */
  filings: HistoryFiling[];
  trigger: EvaluationTrigger;
  /** The filing that caused a `filing` evaluation (its accession, form, filed date); else null. */
  cause: CauseFiling | null;
  /** ISO-8601. */
  evaluatedAt: string;
}

/** One kept evaluation with the evaluation as it was made. */
export interface EvaluationRecord extends EvaluationRecordSummary {
  evaluation: HistoryEvaluation;
}

/** A kept evaluation to write (see {@link insertKeptEvaluation}). */
export interface NewKeptEvaluation {
  /** The evaluation as made (symbol upper-cased by the caller). */
  evaluation: HistoryEvaluation;
  /** Total score minus the symbol's previous kept evaluation's; null for the first. */
  scoreChange: number | null;
  /** What made the evaluation. */
  trigger: EvaluationTrigger;
  /** When it was made (the cache's `cachedAt` of the same evaluation). */
  evaluatedAt: Date;
  /** The filing that caused it (trigger `filing`). */
  cause?: CauseFiling | undefined;
}

/** A page of a symbol's history, newest first. */
export interface EvaluationHistoryPage {
  items: EvaluationRecordSummary[];
  total: number;
}

const SUMMARY_COLUMNS = [
  'id',
  'symbol',
  'total_score',
  'max_score',
  'verdict',
  'score_change',
  'provider',
  'fiscal_years',
  'filings',
  'trigger',
  'cause',
  'evaluated_at',
] as const;

interface SummaryRow {
  id: string;
  symbol: string;
  total_score: number;
  max_score: number;
  verdict: string;
  score_change: number | null;
  provider: string | null;
  fiscal_years: number[];
  filings: Record<string, unknown>[];
  trigger: EvaluationTrigger;
  cause: Record<string, unknown> | null;
  evaluated_at: Date;
}

function toSummary(row: SummaryRow): EvaluationRecordSummary {
  return {
    id: row.id,
    symbol: row.symbol,
    totalScore: row.total_score,
    maxScore: row.max_score,
    verdict: row.verdict,
    scoreChange: row.score_change,
    provider: row.provider,
    fiscalYears: row.fiscal_years,
    filings: row.filings as unknown as HistoryFiling[],
    trigger: row.trigger,
    cause: (row.cause as unknown as CauseFiling | null) ?? null,
    evaluatedAt: iso(row.evaluated_at),
  };
}

/** The evaluation without the serving fields (`_cached`, `_cachedAt`), as it was made. */
function asMade(evaluation: HistoryEvaluation): Record<string, unknown> {
  const { _cached, _cachedAt, ...made } = evaluation as HistoryEvaluation & {
    _cached?: unknown;
    _cachedAt?: unknown;
  };
  return made;
}

/**
 * SQL: serialises the keeping of `symbol`'s evaluations until `trx` ends (a transaction-scoped
 * advisory lock), so that each is compared with the one kept just before it.
 */
export async function lockEvaluationSymbol(trx: Executor, symbol: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`evaluation_history:${symbol}`}))`.execute(trx);
}

/** SQL: the latest kept evaluation of `symbol` (upper case) with the evaluation, or undefined. */
export async function latestKeptEvaluation(
  trx: Executor,
  symbol: string,
): Promise<EvaluationRecord | undefined> {
  const row = await trx
    .selectFrom('evaluation_history')
    .where('symbol', '=', symbol)
    .select([...SUMMARY_COLUMNS, 'evaluation'])
    .orderBy('evaluated_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { ...toSummary(row), evaluation: row.evaluation as HistoryEvaluation };
}

/**
 * SQL: appends one kept evaluation (migration 0011) with its provenance fields read from it; the
 * serving fields (`_cached`, `_cachedAt`) are not kept.
 * @throws {StoreError} `invalid_input` for a value the database rejects.
 */
export async function insertKeptEvaluation(
  trx: Executor,
  kept: NewKeptEvaluation,
): Promise<EvaluationRecordSummary> {
  const { evaluation } = kept;
  const row = await trx
    .insertInto('evaluation_history')
    .values({
      symbol: evaluation.symbol,
      evaluation: JSON.stringify(asMade(evaluation)),
      total_score: evaluation.totalScore,
      max_score: evaluation.maxScore,
      verdict: evaluation.verdict,
      score_change: kept.scoreChange,
      provider: evaluation._provider ?? null,
      fiscal_years: evaluation._fiscalYears ?? [],
      filings: JSON.stringify(evaluation._filings ?? []),
      trigger: kept.trigger,
      evaluated_at: kept.evaluatedAt,
      cause: kept.cause ? JSON.stringify(kept.cause) : null,
    })
    .returning(SUMMARY_COLUMNS)
    .executeTakeFirstOrThrow()
    .catch((error: unknown) => {
      throw toStoreError(error, 'evaluation');
    });
  return toSummary(row);
}

/**
 * Creates the evaluation-history repository over `db`: every fresh evaluation of a symbol, kept
 * append-only with the filings and fiscal years it was built from (migration 0011), read here;
 * written by `keepEvaluation` of `@svc/use-cases` (see {@link insertKeptEvaluation}). Shared data,
 * like the evaluation cache: it is about companies and records no user.
 */
export function createEvaluationHistoryRepository(db: Executor) {
  const rows = (symbol: string) =>
    db.selectFrom('evaluation_history').where('symbol', '=', symbol.toUpperCase());

  return {
    /** A page of a symbol's kept evaluations (case-insensitive), newest first, and their count. */
    async list(
      symbol: string,
      page: { limit: number; offset: number },
    ): Promise<EvaluationHistoryPage> {
      const [items, counted] = await Promise.all([
        rows(symbol)
          .select(SUMMARY_COLUMNS)
          .orderBy('evaluated_at', 'desc')
          .orderBy('seq', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        rows(symbol)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items: items.map(toSummary), total: Number(counted.n) };
    },

    /** The `count` latest kept evaluations of a symbol with their evaluations, newest first. */
    async latest(symbol: string, count: number): Promise<EvaluationRecord[]> {
      const found = await rows(symbol)
        .select([...SUMMARY_COLUMNS, 'evaluation'])
        .orderBy('evaluated_at', 'desc')
        .orderBy('seq', 'desc')
        .limit(count)
        .execute();
      return found.map((row) => ({
        ...toSummary(row),
        evaluation: row.evaluation as HistoryEvaluation,
      }));
    },

    /** One kept evaluation of a symbol by id; undefined for another symbol's or a malformed id. */
    async get(symbol: string, id: string): Promise<EvaluationRecord | undefined> {
      if (!isUuid(id)) return undefined;
      const row = await rows(symbol)
        .where('id', '=', id)
        .select([...SUMMARY_COLUMNS, 'evaluation'])
        .executeTakeFirst();
      return row && { ...toSummary(row), evaluation: row.evaluation as HistoryEvaluation };
    },
  };
}

/** The evaluation-history repository (see {@link createEvaluationHistoryRepository}). */
export type EvaluationHistoryRepository = ReturnType<typeof createEvaluationHistoryRepository>;
