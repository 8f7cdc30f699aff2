import type { CachedEvaluation, EvaluationCacheRepository } from '@svc/portfolio-store';
import { QuotaError, type QuotaService } from '@svc/quota';
import type { Plan, ServedEvaluation } from '@svc/schemas';
import { guardQuotaSpending, type TokenCall } from '../accounts/token-call.js';
import { freezeAnswer } from '../frozen.js';
import { tickerOf } from '../ticker.js';
import {
  type CompanyEvaluation,
  type EvaluateCompanyDeps,
  evaluateCompany,
} from './evaluate-company.js';
import { createAsOfEvaluations, isCurrentMethodology } from './evaluation-as-of.js';
import type { EvaluationKeeper } from './keep-evaluation.js';

/** The signed-in user a flow acts for. */
export interface Actor {
  readonly id: string;
  readonly plan: Plan;
}

/**
 * A cached evaluation as every surface serves a cache hit: the evaluation with `_cached: true`
 * and `_cachedAt` (the `ServedEvaluation` of `@svc/schemas`). The one place that shape is built
 * from a cache row.
 */
export function servedFromCache(cached: CachedEvaluation): ServedEvaluation {
  return { ...cached.evaluation, _cached: true, _cachedAt: cached.cachedAt };
}

/** What {@link createEvaluationService} needs; created once by the app. */
export interface EvaluationServiceDeps extends EvaluateCompanyDeps {
  /**
   * The shared evaluation cache (one row per symbol), read; `getMany` reads several rows at once
   * (else one `get` each).
   */
  readonly cache: Pick<EvaluationCacheRepository, 'get'> &
    Partial<Pick<EvaluationCacheRepository, 'getMany'>>;
  /** Quotas counted in the database; `stock_evaluation` is consumed by every fetch. */
  readonly quotas: Pick<QuotaService, 'withQuota'>;
  /**
   * Keeps every fresh evaluation (trigger `request`): history, change event, outbox and cache row
   * in one unit of work (`keepEvaluation` over the database).
   */
  readonly keep: EvaluationKeeper;
  /**
   * Where evaluations as of a past day are cached, apart from the latest ones (issue 39); none
   * given, a request with `asOf` is computed each time (tests of the latest cache alone).
   */
  readonly asOfCache?: Pick<EvaluationCacheRepository, 'getAsOf' | 'upsertAsOf'>;
}

/** A request for an evaluation (REST `GET /api/stock-evaluation`, MCP `getMoatEvaluation`). */
export interface EvaluationRequest {
  /** Ticker symbol as the client sent it (`TickerSymbol`); normalised here, once per request. */
  readonly symbol: string;
  /** `true` bypasses the cache and fetches new fundamentals (consumes `stock_evaluation`). */
  readonly fresh: boolean;
  readonly actor: Actor;
  /**
   * The personal-access-token call this request serves (an MCP tool call), if any: spending
   * `stock_evaluation` then needs its `moat:fresh` scope and is counted for its audit row
   * (`guardQuotaSpending`).
   */
  readonly tokenCall?: TokenCall | undefined;
  /**
   * Point in time, `YYYY-MM-DD` (`AsOfDate`): the evaluation on the figures filed by then,
   * cached apart from the latest one (see `createAsOfEvaluations`).
   */
  readonly asOf?: string | undefined;
}

/**
 * The evaluation flow with cache and quota, shared by the REST API and the MCP server
 * (CONTRACT §3):
 *
 * - a cached evaluation is served to any signed-in user without consuming quota;
 * - a cache miss, or `fresh: true`, fetches fundamentals through the server's provider, evaluates,
 *   keeps the result (`keep`: history, change event, cache) and consumes one `stock_evaluation` unit; a fetch that fails
 *   (no data, provider down) gives its unit back;
 * - concurrent requests for the same symbol share one fetch (per process): a request that finds a
 *   fetch already under way waits for it and, when it did not ask for `fresh`, is served like a
 *   cache hit without consuming quota (a `fresh` request still consumes its own unit);
 * - each request pays, or is refused, on its own counter: when the request that led a fetch is
 *   refused its unit, the requests waiting on it are not refused with it (nor told its usage);
 *   they join the next fetch, or fetch on their own unit;
 * - a cached evaluation of an older methodology (`methodologyVersion`) is computed again on read,
 *   free, and kept; the stored one is served if that fails;
 * - a cached evaluation reconciled otherwise than the server is configured now
 *   (`RECONCILE_PROVIDER` set, changed or turned off since; `_reconciliation` says how it was
 *   made) is served as it is: the refresh pass's methodology step computes it again
 *   (`rescoreOlderMethodology`, change event cause `methodology`), no request waits for that;
 * - with `asOf`, the evaluation as of that day, cached apart (`createAsOfEvaluations`).
 *
 * @throws UseCaseError `validation_failed` (malformed symbol, `tickerOf`); FundamentalsError
 *   `insufficient_data`, `upstream_unavailable`; MoatScoringError `insufficient_data`; QuotaError `quota_exceeded`.
 */
export function createEvaluationService(deps: EvaluationServiceDeps) {
  const inFlight = new Map<string, Promise<ServedEvaluation>>();
  const asOfEvaluations = createAsOfEvaluations({
    ...deps,
    cache: deps.asOfCache ?? { getAsOf: async () => undefined, upsertAsOf: async () => {} },
  });
  // Evaluations stored so far: a cache read that a store overlapped may have missed its row.
  let stored = 0;

  async function fetchAndStore(symbol: string): Promise<ServedEvaluation> {
    const evaluation: CompanyEvaluation = await evaluateCompany(symbol, deps);
    const cachedAt = deps.now();
    await deps.keep({ evaluation, trigger: 'request', evaluatedAt: cachedAt });
    stored += 1;
    return { ...evaluation, _cached: false, _cachedAt: cachedAt.toISOString() };
  }

  /**
   * The served shape of a cache row, built and frozen once per row object (`freezeAnswer`): the
   * memo in front of the cache hands out the same row until it expires or is replaced, so a
   * cached evaluation is not copied (a spread of some 30 keys) on every request, and what the
   * surfaces derive from it (REST bytes, MCP text and schema check) is made once per object.
   */
  const servedRows = new WeakMap<CachedEvaluation, ServedEvaluation>();
  const fromCache = (cached: CachedEvaluation): ServedEvaluation => {
    const known = servedRows.get(cached);
    if (known !== undefined) return known;
    const served = freezeAnswer(servedFromCache(cached));
    servedRows.set(cached, served);
    return served;
  };

  /** Registers `work` synchronously as the fetch in flight for `symbol`, until it settles. */
  function register(symbol: string, work: Promise<ServedEvaluation>): Promise<ServedEvaluation> {
    const entry = work.finally(() => {
      if (inFlight.get(symbol) === entry) inFlight.delete(symbol);
    });
    inFlight.set(symbol, entry);
    return entry;
  }

  /** Starts a fetch under the actor's quota and registers it as the one in flight. */
  const lead = (symbol: string, actor: Actor, quotas: EvaluationServiceDeps['quotas']) =>
    // The shared fetch is not tied to one caller's AbortSignal: others may be waiting for it.
    register(
      symbol,
      quotas.withQuota(actor.id, actor.plan, 'stock_evaluation', () => fetchAndStore(symbol)),
    );

  /** Starts a fetch that a request has already paid for, and registers it as the one in flight. */
  const paidFetch = (symbol: string) => register(symbol, fetchAndStore(symbol));

  /**
   * Joins the fetch in flight for `symbol`, or starts one with `start` when none is (checked and
   * registered in the same turn of the event loop). A fetch in flight may belong to a request whose
   * own quota was refused: that refusal is its leader's, never this request's (issue 10: it carried
   * another user's counters), so this request then joins the next fetch or starts its own.
   */
  async function joinOrStart(
    symbol: string,
    start: () => Promise<ServedEvaluation>,
  ): Promise<ServedEvaluation> {
    for (;;) {
      const running = inFlight.get(symbol);
      if (!running) return start();
      try {
        return await running;
      } catch (error) {
        // A settled fetch has left `inFlight` before its waiters resume, so the loop moves on.
        if (!(error instanceof QuotaError)) throw error;
      }
    }
  }

  /**
   * A cached evaluation of an older methodology, computed again without quota (the method
   * changed, not the request) and kept like any fresh one; the stored one is served when that
   * fails (provider down). Not for another reconciliation setting: see the rules above.
   */
  const rescore = (symbol: string, cached: CachedEvaluation): Promise<ServedEvaluation> =>
    joinOrStart(symbol, () => paidFetch(symbol)).catch(() => fromCache(cached));

  return {
    /** Serves an evaluation per the rules above. */
    async getEvaluation(request: EvaluationRequest): Promise<ServedEvaluation> {
      const symbol = tickerOf(request.symbol);
      const { actor } = request;
      const quotas = guardQuotaSpending(deps.quotas, request.tokenCall);
      if (request.asOf !== undefined) {
        const { asOf, fresh } = request;
        return asOfEvaluations.get({ symbol, asOf, fresh, actor, quotas });
      }
      if (request.fresh) {
        if (!inFlight.has(symbol)) return lead(symbol, actor, quotas);
        // Pays its own unit first; then shares the running fetch, or fetches on that unit.
        return quotas.withQuota(actor.id, actor.plan, 'stock_evaluation', () =>
          joinOrStart(symbol, () => paidFetch(symbol)),
        );
      }
      const storedBefore = stored;
      const cached = await deps.cache.get(symbol);
      if (cached) {
        return isCurrentMethodology(cached.evaluation)
          ? fromCache(cached)
          : rescore(symbol, cached);
      }
      if (!inFlight.has(symbol) && stored !== storedBefore) {
        // A fetch finished (and left `inFlight`) while the cache was read: the read may have
        // begun before its row was committed, so look once more instead of fetching again.
        const again = await deps.cache.get(symbol);
        if (again) return fromCache(again);
      }
      // A cache miss waits, for free, on a fetch under way; with none, it leads one on its quota.
      return joinOrStart(symbol, () => lead(symbol, actor, quotas));
    },

    /**
     * What can be served of `symbol` without a new fetch and without quota: the cached
     * evaluation, else the result of a fetch already under way (waited for, free, as
     * {@link getEvaluation} waits), else `null` (also when that fetch fails). For callers that
     * must not spend the user's quota unasked (the advisor's `getMoatEvaluation`).
     */
    async served(symbolText: string): Promise<ServedEvaluation | null> {
      const symbol = tickerOf(symbolText);
      const cached = await deps.cache.get(symbol);
      if (cached) return fromCache(cached);
      const running = inFlight.get(symbol);
      return running === undefined ? null : running.catch(() => null);
    },

    /**
     * The cached evaluations of `tickers` (normalised, as `tickerOf` gives them), by ticker; a
     * ticker without a cache row is absent. Never fetches, never waits and spends no quota: the
     * read of the portfolio X-ray (one `getMany` of the cache, its memo first).
     */
    async cachedMany(tickers: readonly string[]): Promise<Map<string, ServedEvaluation>> {
      const found = new Map<string, ServedEvaluation>();
      if (tickers.length === 0) return found;
      const rows = deps.cache.getMany
        ? await deps.cache.getMany(tickers)
        : await Promise.all(tickers.map((t) => deps.cache.get(t)));
      for (const row of rows) if (row) found.set(row.symbol, fromCache(row));
      return found;
    },
  };
}

/** The evaluation flow, see {@link createEvaluationService}. */
export type EvaluationService = ReturnType<typeof createEvaluationService>;
