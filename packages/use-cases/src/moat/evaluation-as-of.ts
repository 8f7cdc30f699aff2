import { METHODOLOGY_VERSION } from '@svc/moat-scoring';
import type { CachedEvaluation, EvaluationCacheRepository } from '@svc/portfolio-store';
import { QuotaError, type QuotaService } from '@svc/quota';
import type { MoatEvaluation, ServedEvaluation } from '@svc/schemas';
import { freezeAnswer } from '../frozen.js';
import { type EvaluateCompanyDeps, evaluateCompany } from './evaluate-company.js';
import { reconciledWith } from './evaluation-diff.js';

/**
 * Whether a stored evaluation was scored by the current methodology (`METHODOLOGY_VERSION` of
 * `@svc/moat-scoring`); one stored before versions were recorded was not.
 */
export function isCurrentMethodology(evaluation: Pick<MoatEvaluation, 'methodologyVersion'>) {
  return evaluation.methodologyVersion === METHODOLOGY_VERSION;
}

/**
 * Whether a stored evaluation was made the way the server scores now: by the current methodology
 * ({@link isCurrentMethodology}) and reconciled as the server is configured — with the same second
 * provider (`reconciledWith`, `_reconciliation.provider`), or with none when `reconcile` is null.
 * A row whose second provider was asked but `unavailable` is current (asking again would not
 * change it; a `fresh` request or a new filing does). The one rule of what is stale, mirrored in
 * SQL by `evaluations.staleSymbols` / `lockStale` for the refresh pass's methodology step, which
 * computes stale rows of the latest cache again (`rescoreOlderMethodology`); the latest read path
 * serves a row of another reconciliation setting as it is (its `_reconciliation` says how it was
 * made) and leaves it to that step. The as-of cache, which no pass sweeps, computes a stale row
 * again on read (`createAsOfEvaluations`).
 */
export function isCurrentEvaluation(
  evaluation: Pick<MoatEvaluation, 'methodologyVersion'> & { readonly _reconciliation?: unknown },
  reconcile: { readonly name: string } | null | undefined,
): boolean {
  return (
    isCurrentMethodology(evaluation) && reconciledWith(evaluation) === (reconcile?.name ?? null)
  );
}

/** What {@link createAsOfEvaluations} needs. */
export interface AsOfEvaluationsDeps extends EvaluateCompanyDeps {
  /** The as-of cache: one evaluation per (symbol, day), apart from the latest ones. */
  readonly cache: Pick<EvaluationCacheRepository, 'getAsOf' | 'upsertAsOf'>;
}

/** A request for an evaluation as of a day. */
export interface AsOfRequest {
  /** Normalised ticker (`tickerOf`). */
  readonly symbol: string;
  /** `YYYY-MM-DD`, validated by the surface (`AsOfDate`). */
  readonly asOf: string;
  /** Compute again even when cached (consumes a unit). */
  readonly fresh: boolean;
  readonly actor: { readonly id: string; readonly plan: Parameters<QuotaService['withQuota']>[1] };
  /** The quota service the request spends on (guarded for token calls). */
  readonly quotas: Pick<QuotaService, 'withQuota'>;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Evaluations as of a past day (issue 39, CONTRACT §9 "As of a date"): the fundamentals filed by
 * then, the close on or before it, scored and cached apart from the latest evaluation (key symbol
 * and day). A cached one is served free, like the latest; a miss, or `fresh`, computes it under
 * one `stock_evaluation` unit; concurrent requests for one symbol and day share one computation
 * (a waiter is served free; a refusal of the leader's quota is not the waiter's). A cached one
 * not made the way the server scores now ({@link isCurrentEvaluation}: an older methodology,
 * another reconciliation setting) is computed again on read without quota (the method changed,
 * not the request; no refresh pass sweeps this cache); if that fails, the stored one is served. Never kept in the evaluation history nor
 * shown by the screener: a past date is a question, not the company's current state.
 *
 * A day after today (UTC) reads as today.
 *
 * @throws FundamentalsError `insufficient_history` (too few years filed by then), `insufficient_data`,
 *   `upstream_unavailable`; QuotaError `quota_exceeded`.
 */
export function createAsOfEvaluations(deps: AsOfEvaluationsDeps) {
  const inFlight = new Map<string, Promise<ServedEvaluation>>();

  async function compute(symbol: string, asOf: string): Promise<ServedEvaluation> {
    const evaluation = await evaluateCompany(symbol, deps, { asOf });
    const cachedAt = deps.now();
    await deps.cache.upsertAsOf(evaluation, asOf, cachedAt);
    return { ...evaluation, _cached: false, _cachedAt: cachedAt.toISOString() };
  }

  function register(key: string, work: Promise<ServedEvaluation>): Promise<ServedEvaluation> {
    const entry = work.finally(() => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    });
    inFlight.set(key, entry);
    return entry;
  }

  /** Joins the computation in flight for `key`, or starts one with `start`. */
  async function joinOrStart(
    key: string,
    start: () => Promise<ServedEvaluation>,
  ): Promise<ServedEvaluation> {
    for (;;) {
      const running = inFlight.get(key);
      if (!running) return start();
      try {
        return await running;
      } catch (error) {
        if (!(error instanceof QuotaError)) throw error;
      }
    }
  }

  const served = (cached: CachedEvaluation): ServedEvaluation =>
    freezeAnswer({ ...cached.evaluation, _cached: true, _cachedAt: cached.cachedAt });

  return {
    /** Serves the evaluation of `request.symbol` as of `request.asOf` per the rules above. */
    async get(request: AsOfRequest): Promise<ServedEvaluation> {
      const { symbol, actor, quotas } = request;
      // A day in the future reads as today: nothing can have been filed after today, so the
      // figures known "as of" a later day are today's (and the answer's `asOf` says today). The
      // schema of a date cannot say "not in the future", so the server does not refuse it.
      const today = dayOf(deps.now());
      // biome-ignore lint/complexity/useMathMinMax: ISO days compared as strings (Math.min gives NaN)
      const asOf = request.asOf > today ? today : request.asOf;
      const key = `${symbol}@${asOf}`;
      const lead = () =>
        register(
          key,
          quotas.withQuota(actor.id, actor.plan, 'stock_evaluation', () => compute(symbol, asOf)),
        );
      if (request.fresh) return lead();
      const cached = await deps.cache.getAsOf(symbol, asOf);
      if (cached && isCurrentEvaluation(cached.evaluation, deps.reconcile)) return served(cached);
      if (cached) {
        return joinOrStart(key, () => register(key, compute(symbol, asOf))).catch(() =>
          served(cached),
        );
      }
      return joinOrStart(key, lead);
    },
  };
}
