import { METHODOLOGY_VERSION } from '@svc/moat-scoring';
import { createRepositories, type Executor } from '@svc/portfolio-store';
import { type EvaluateCompanyDeps, evaluateCompany } from '../moat/evaluate-company.js';
import { keepEvaluation } from '../moat/keep-evaluation.js';

/** Default number of cached evaluations of an older methodology one pass computes again. */
export const DEFAULT_METHODOLOGY_BATCH = 20;

/** What {@link rescoreOlderMethodology} works with. */
export interface MethodologyRefreshDeps {
  /** Cached symbols scored by another methodology (`evaluations.staleSymbols`). */
  readonly staleSymbols: (version: string, limit: number) => Promise<string[]>;
  /** The evaluation's dependencies (fundamentals read fresh, quotes, splits, clock). */
  readonly evaluate: EvaluateCompanyDeps;
  /**
   * The database an evaluation computed again is kept in, one transaction each: the older row
   * locked, then `keepEvaluation` (history, change event with cause `methodology`, outbox, cache).
   */
  readonly db: Executor;
}

/** One cached evaluation the step acted on. */
export interface MethodologyReport {
  readonly symbol: string;
  /** `evaluated`: recomputed and kept; `skipped`: another process did it first; `failed`. */
  readonly outcome: 'evaluated' | 'skipped' | 'failed';
  readonly totalScore?: number;
  readonly previousVersion?: string | null;
  readonly error?: string;
}

/**
 * The refresh pass's methodology step (issue 39): computes again, with fresh fundamentals, up to
 * `limit` cached evaluations scored by another methodology than `METHODOLOGY_VERSION`, and keeps
 * each like any fresh evaluation (history row with trigger `fill-cache` — an operator's batch,
 * not a user's request — then the cache row, in one transaction; the change event, if any, names
 * the methodology as its cause from the versions it compares). A row another process already
 * recomputed is skipped (its row is locked and checked inside the transaction). A failure (no data, provider down)
 * leaves the old row; the next pass tries again. Sequential: SEC's budget is shared.
 *
 * @example
 * const done = await rescoreOlderMethodology(deps, { limit: 20 });
 */
export async function rescoreOlderMethodology(
  deps: MethodologyRefreshDeps,
  options: { limit?: number; signal?: AbortSignal } = {},
): Promise<MethodologyReport[]> {
  const symbols = await deps.staleSymbols(
    METHODOLOGY_VERSION,
    options.limit ?? DEFAULT_METHODOLOGY_BATCH,
  );
  const reports: MethodologyReport[] = [];
  for (const symbol of symbols) {
    options.signal?.throwIfAborted();
    let evaluation: Awaited<ReturnType<typeof evaluateCompany>>;
    try {
      evaluation = await evaluateCompany(symbol, deps.evaluate, {
        fresh: true,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      reports.push({
        symbol,
        outcome: 'failed',
        error: error instanceof Error ? error.message : String(error),
      });
      continue;
    }
    reports.push(
      await deps.db.transaction().execute(async (trx) => {
        const cache = createRepositories(trx).evaluations;
        const older = await cache.lockOlderMethodology(symbol, METHODOLOGY_VERSION);
        if (!older) return { symbol, outcome: 'skipped' as const };
        const { previousVersion } = older;
        await keepEvaluation(trx, {
          evaluation,
          trigger: 'fill-cache',
          evaluatedAt: deps.evaluate.now(),
        });
        return {
          symbol,
          outcome: 'evaluated' as const,
          totalScore: evaluation.totalScore,
          previousVersion,
        };
      }),
    );
  }
  return reports;
}
