import { METHODOLOGY_VERSION } from '@svc/moat-scoring';
import { type CurrentScoring, createRepositories, type Executor } from '@svc/portfolio-store';
import { type EvaluateCompanyDeps, evaluateCompany } from '../moat/evaluate-company.js';
import { keepEvaluation } from '../moat/keep-evaluation.js';

/**
 * Default number of cached evaluations one pass computes again (of an older methodology, or
 * reconciled otherwise than the server is configured now).
 */
export const DEFAULT_METHODOLOGY_BATCH = 20;

/** What {@link rescoreOlderMethodology} works with. */
export interface MethodologyRefreshDeps {
  /**
   * Cached symbols not scored the way the server scores now: another methodology, or another
   * reconciliation setting (`evaluations.staleSymbols`).
   */
  readonly staleSymbols: (current: CurrentScoring, limit: number) => Promise<string[]>;
  /**
   * The evaluation's dependencies (fundamentals read fresh, quotes, splits, clock); `reconcile`
   * (its `name`, or none) is the reconciliation setting a cached row is compared with.
   */
  readonly evaluate: EvaluateCompanyDeps;
  /**
   * The database an evaluation computed again is kept in, one transaction each: the stale row
   * locked (`lockStale`), then `keepEvaluation` (history, change event with cause `methodology`,
   * outbox, cache).
   */
  readonly db: Executor;
}

/** One cached evaluation the step acted on. */
export interface MethodologyReport {
  readonly symbol: string;
  /** `evaluated`: recomputed and kept; `skipped`: another process did it first; `failed`. */
  readonly outcome: 'evaluated' | 'skipped' | 'failed';
  readonly totalScore?: number;
  /** The recomputed row's `methodologyVersion` (`null`: none recorded). */
  readonly previousVersion?: string | null;
  /** The second provider the recomputed row was reconciled with (`null`: none). */
  readonly previousReconcileProvider?: string | null;
  readonly error?: string;
}

/**
 * The refresh pass's methodology step (issue 39): computes again, with fresh fundamentals, up to
 * `limit` cached evaluations not scored the way the server scores now — by another methodology
 * than `METHODOLOGY_VERSION`, or reconciled otherwise than `RECONCILE_PROVIDER` says (set, changed
 * or turned off since; `isCurrentEvaluation`, the read path serves such a row as it is) — and keeps
 * each like any fresh evaluation (history row with trigger `fill-cache` — an operator's batch,
 * not a user's request — then the cache row, in one transaction; the change event, if any, names
 * the methodology as its cause: `evaluationChange` compares the versions and second providers). A row another process already
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
  const current: CurrentScoring = {
    methodologyVersion: METHODOLOGY_VERSION,
    reconcileProvider: deps.evaluate.reconcile?.name ?? null,
  };
  const symbols = await deps.staleSymbols(current, options.limit ?? DEFAULT_METHODOLOGY_BATCH);
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
        const stale = await cache.lockStale(symbol, current);
        if (!stale) return { symbol, outcome: 'skipped' as const };
        await keepEvaluation(trx, {
          evaluation,
          trigger: 'fill-cache',
          evaluatedAt: deps.evaluate.now(),
        });
        return {
          symbol,
          outcome: 'evaluated' as const,
          totalScore: evaluation.totalScore,
          ...stale,
        };
      }),
    );
  }
  return reports;
}
