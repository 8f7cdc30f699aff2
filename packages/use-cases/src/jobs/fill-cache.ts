import { createRepositories, type Executor } from '@svc/portfolio-store';
import { normaliseTicker } from '@svc/schemas';
import { type EvaluateCompanyDeps, evaluateCompany } from '../moat/evaluate-company.js';
import { keepEvaluation } from '../moat/keep-evaluation.js';

/** Default number of companies evaluated at the same time by {@link fillEvaluationCache}. */
export const DEFAULT_FILL_CONCURRENCY = 4;

/** A ticker {@link fillEvaluationCache} could not evaluate or store, with the error's code. */
export interface FillCacheFailure {
  readonly ticker: string;
  /**
   * The error's string `code` (`insufficient_data`, `invalid_symbol`, `upstream_unavailable`,
   * `parse_failed` from FundamentalsError / MoatScoringError; StoreError codes), else `internal`.
   */
  readonly code: string;
  readonly message: string;
}

/** One finished ticker, reported to {@link FillCacheOptions.onProgress}. */
export interface FillCacheProgress {
  readonly ticker: string;
  /** Tickers finished so far, this one included (1-based). */
  readonly done: number;
  readonly total: number;
  /** Undefined when the ticker was evaluated and stored. */
  readonly failure?: FillCacheFailure;
}

/** Options of {@link fillEvaluationCache}. */
export interface FillCacheOptions {
  /** Tickers to evaluate; duplicates (`BF.B` / `bf-b`) are evaluated once. */
  readonly tickers: readonly string[];
  /** The evaluation's dependencies: fundamentals provider, quotes, splits and clock. */
  readonly evaluate: EvaluateCompanyDeps;
  /**
   * The database each evaluation is kept in (`keepEvaluation`, trigger `fill-cache`: history,
   * change event, outbox and cache row in one transaction): a batch evaluation is a fresh
   * evaluation like a user's, so the history, the change feed, the webhooks and the screener see it.
   */
  readonly db: Executor;
  /** Refresh the cache's planner statistics at the end (`analyze`). Default true. */
  readonly analyze?: boolean;
  /** Evaluations in flight at once, an integer ≥ 1. Default {@link DEFAULT_FILL_CONCURRENCY}. */
  readonly concurrency?: number;
  /** Called after each ticker, success or failure. */
  readonly onProgress?: (progress: FillCacheProgress) => void;
  /** Stops taking new tickers; the call then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** What {@link fillEvaluationCache} did. */
export interface FillCacheSummary {
  /** Tickers evaluated and stored in the cache. */
  readonly evaluated: number;
  /** Tickers that failed, in input order. */
  readonly failed: FillCacheFailure[];
}

/**
 * Fills the shared evaluation cache (the screener's rows) for a list of tickers: each is
 * evaluated with `evaluateCompany` (fundamentals, price, valuation, moat score) and upserted with
 * its market capitalisation (`_marketCap`, reporting currency, as a decimal string) and
 * `cachedAt = evaluate.now()`. At most `concurrency` evaluations run at once. A ticker that fails
 * (unknown, too few years, provider error, database error) is recorded in `failed` and the run
 * goes on. No quota is consumed: this is an operator's batch, not a user's request. Each
 * evaluation is kept by `keepEvaluation` (trigger `fill-cache`): history, event, outbox, cache.
 *
 * @throws RangeError when `concurrency` is not an integer ≥ 1; the abort reason when `signal`
 *   fires. Per-ticker errors never throw.
 * @example
 * const summary = await fillEvaluationCache({
 *   tickers: await provider.listTickers(),
 *   evaluate: { fundamentals: provider, quotes, splitsOf, now: () => new Date() },
 *   db: database.db,
 * });
 * summary.evaluated; // e.g. 30
 */
export async function fillEvaluationCache(options: FillCacheOptions): Promise<FillCacheSummary> {
  const concurrency = options.concurrency ?? DEFAULT_FILL_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be an integer ≥ 1, got ${concurrency}`);
  }
  const tickers = distinct(options.tickers);
  const failures = new Map<number, FillCacheFailure>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < tickers.length) {
      options.signal?.throwIfAborted();
      const index = next++;
      const ticker = tickers[index] as string;
      const failure = await evaluateAndStore(ticker, options);
      if (failure) failures.set(index, failure);
      done += 1;
      options.onProgress?.({
        ticker,
        done,
        total: tickers.length,
        ...(failure ? { failure } : {}),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tickers.length) }, worker));
  // Fresh planner statistics for the screener after a bulk fill (see analyze()).
  if (tickers.length > 0 && options.analyze !== false) {
    await createRepositories(options.db).evaluations.analyze();
  }
  const failed = [...failures.entries()].sort(([a], [b]) => a - b).map(([, f]) => f);
  return { evaluated: tickers.length - failed.length, failed };
}

async function evaluateAndStore(
  ticker: string,
  options: FillCacheOptions,
): Promise<FillCacheFailure | undefined> {
  try {
    const evaluation = await evaluateCompany(ticker, options.evaluate, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
    await keepEvaluation(options.db, {
      evaluation,
      trigger: 'fill-cache',
      evaluatedAt: options.evaluate.now(),
    });
    return undefined;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { ticker, code: codeOf(error), message: messageOf(error) };
  }
}

/** Tickers in input order without duplicates, compared in their normalised spelling. */
function distinct(tickers: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const ticker of tickers) {
    // a malformed ticker stays as given: evaluateCompany reports it as invalid_symbol
    const key = normaliseTicker(ticker) ?? ticker;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ticker);
  }
  return out;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' ? code : 'internal';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
