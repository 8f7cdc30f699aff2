import type {
  EvaluationCacheRepository,
  EvaluationEventsRepository,
  EvaluationHistoryRepository,
  EvaluationRecord,
} from '@svc/portfolio-store';
import type { ServedEvaluation } from '@svc/schemas';
import { UseCaseError } from '../errors.js';
import { tickerOf } from '../ticker.js';
import { createEvaluationChangesFeed } from './evaluation-changes.js';
import { diffEvaluations, historyItem } from './evaluation-diff.js';
import type {
  EvaluationDiff,
  EvaluationDiffQuery,
  EvaluationHistoryPage,
  EvaluationHistoryQuery,
} from './evaluation-history-schemas.js';
import { servedFromCache } from './evaluation-service.js';

/** What {@link createEvaluationHistoryService} reads. */
export interface EvaluationHistoryServiceDeps {
  /** The kept fresh evaluations (`createRepositories(db).evaluationHistory`). */
  readonly history: Pick<EvaluationHistoryRepository, 'list' | 'latest' | 'get'>;
  /** The shared evaluation cache, read only (never filled here: no quota is spent). */
  readonly cache: Pick<EvaluationCacheRepository, 'get'>;
  /** The `evaluation.changed` events (`createRepositories(db).evaluationEvents`), for `changes`. */
  readonly events: Pick<EvaluationEventsRepository, 'feed'>;
}

/** How many of a symbol's latest evaluations a diff given only `to` searches for the one before it. */
export const PREVIOUS_LOOKUP_LIMIT = 500;

/**
 * The flows over evaluations already made, shared by REST and MCP; none fetches fundamentals or
 * spends quota. The history is global, like the cache: it is about companies, records no user,
 * and any signed-in user (any token with `moat:read`) may read it.
 *
 * @example
 * const flows = createEvaluationHistoryService({
 *   history: repos.evaluationHistory,
 *   cache: repos.evaluations,
 *   events: repos.evaluationEvents,
 * });
 * const page = await flows.list({ symbol: 'AAPL', page: 1, limit: 20 });
 * const diff = await flows.diff({ symbol: 'AAPL' }); // latest against the one before
 */
export function createEvaluationHistoryService(deps: EvaluationHistoryServiceDeps) {
  async function record(symbol: string, id: string, field: string): Promise<EvaluationRecord> {
    const found = await deps.history.get(symbol, id);
    if (!found) {
      throw new UseCaseError('not_found', `no kept evaluation ${id} of ${symbol}`, {
        errors: [{ path: field, message: `not an evaluation of ${symbol}` }],
      });
    }
    return found;
  }

  return {
    /**
     * The `evaluation.changed` events made since an instant, oldest first (CONTRACT §7; see
     * `createEvaluationChangesFeed`).
     */
    changes: createEvaluationChangesFeed({ events: deps.events }),

    /**
     * A page of a symbol's kept evaluations, newest first (`symbol` normalised: `brk-b` is
     * `BRK.B`). An unknown symbol is an empty page.
     * @throws UseCaseError `validation_failed` for a malformed symbol.
     */
    async list(query: EvaluationHistoryQuery): Promise<EvaluationHistoryPage> {
      const symbol = tickerOf(query.symbol);
      const { items, total } = await deps.history.list(symbol, {
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return {
        symbol,
        items: items.map(historyItem),
        page: query.page,
        limit: query.limit,
        total,
        totalPages: Math.ceil(total / query.limit),
      };
    },

    /**
     * The diff of two kept evaluations of a symbol (see `diffEvaluations`): `from` and `to` by
     * id; `from` alone compares it with the latest; `to` alone compares it with the evaluation
     * kept just before it (looked up among the latest {@link PREVIOUS_LOOKUP_LIMIT}); neither, the
     * latest with the one before it.
     * @throws UseCaseError `not_found` for an id that is not one of the symbol's evaluations, or
     *   when there is no second evaluation to compare with.
     */
    async diff(query: EvaluationDiffQuery): Promise<EvaluationDiff> {
      const symbol = tickerOf(query.symbol);
      const none = () =>
        new UseCaseError(
          'not_found',
          `fewer than two evaluations of ${symbol} are kept: fetch a fresh one to compare`,
        );
      if (query.from !== undefined && query.to !== undefined) {
        const [from, to] = await Promise.all([
          record(symbol, query.from, 'from'),
          record(symbol, query.to, 'to'),
        ]);
        return diffEvaluations(from, to);
      }
      if (query.from !== undefined) {
        const [from, [latest]] = await Promise.all([
          record(symbol, query.from, 'from'),
          deps.history.latest(symbol, 1),
        ]);
        if (!latest) throw none();
        return diffEvaluations(from, latest);
      }
      if (query.to !== undefined) {
        const to = await record(symbol, query.to, 'to');
        const kept = await deps.history.latest(symbol, PREVIOUS_LOOKUP_LIMIT);
        const at = kept.findIndex((item) => item.id === to.id);
        const previous = at < 0 ? undefined : kept[at + 1];
        if (!previous) throw none();
        return diffEvaluations(previous, to);
      }
      const [to, from] = await deps.history.latest(symbol, 2);
      if (!to || !from) throw none();
      return diffEvaluations(from, to);
    },

    /**
     * The cached evaluation of a symbol as `GET /api/stock-evaluation` serves a cache hit, or
     * `not_found`: never fetched, never spends quota (MCP resources read through this).
     * @throws UseCaseError `not_found` when the symbol is not cached.
     */
    async cached(symbolText: string): Promise<ServedEvaluation> {
      const symbol = tickerOf(symbolText);
      const cached = await deps.cache.get(symbol);
      if (!cached) throw new UseCaseError('not_found', `${symbol} is not in the evaluation cache`);
      return servedFromCache(cached);
    },
  };
}

/** The history flows, see {@link createEvaluationHistoryService}. */
export type EvaluationHistoryService = ReturnType<typeof createEvaluationHistoryService>;
