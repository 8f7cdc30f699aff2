import { createHash } from 'node:crypto';
import {
  buildTimeline,
  type LedgerTransaction,
  measurePeriod,
  type PeriodPerformance,
  PortfolioError,
  type ResolvedPeriod,
  type ReturnFigure,
  resolvePeriod,
  type Timeline,
  type Track,
  valueSeries,
} from '@svc/portfolio';
import { LRUCache } from 'lru-cache';
import { UseCaseError } from '../errors.js';
import { utcDay } from './decimal-text.js';
import { gatherPerformanceMarketData, type PerformanceMarketDeps } from './performance-inputs.js';
import {
  type HoldingPerformance,
  type PerformanceQuery,
  PerformanceQuery as PerformanceQuerySchema,
  type PortfolioPerformance,
} from './performance-schemas.js';
import { money as toMoney } from './position-records.js';

/** Timelines kept in memory (one per portfolio, ledger and day); each ~0.1–10 MB. */
const TIMELINE_CACHE_ENTRIES = 16;

/** What the performance flow needs besides the ledger. */
export interface PerformanceFlowDeps extends PerformanceMarketDeps {
  readonly now: () => Date;
}

/**
 * The performance flow behind `GET /api/portfolios/{id}/performance`, its per-holding twin, the
 * MCP tool `getPortfolioPerformance` and the advisor's tool of the same name.
 *
 * The daily timeline of a portfolio (`buildTimeline` of `@svc/portfolio`) is built once per
 * portfolio, ledger content and day (an LRU of {@link TIMELINE_CACHE_ENTRIES}): a request for
 * another period, a holding or a series reads it without replaying the ledger or fetching prices
 * again; a new transaction (another ledger fingerprint) or a new day builds it afresh.
 */
export function createPerformanceFlow(deps: PerformanceFlowDeps) {
  const timelines = new LRUCache<string, Promise<Built>>({ max: TIMELINE_CACHE_ENTRIES });

  const timelineOf = (
    portfolioId: string,
    ledger: readonly LedgerTransaction[],
    today: string,
  ): Promise<Built> => {
    const key = `${portfolioId} ${today} ${fingerprint(ledger)}`;
    let pending = timelines.get(key);
    if (pending === undefined) {
      pending = gatherPerformanceMarketData(deps, ledger, today).then((market) => ({
        timeline: buildTimeline({
          transactions: ledger,
          prices: market.prices,
          eurRates: market.eurRates,
          end: today,
        }),
        estimatedCloses: [...market.estimatedDays].map(([symbol, days]) => ({ symbol, days })),
      }));
      timelines.set(key, pending);
      pending.catch(() => timelines.delete(key));
    }
    return pending;
  };

  const prepare = async (
    portfolioId: string,
    ledger: readonly LedgerTransaction[],
    query: unknown,
  ) => {
    const parsed = PerformanceQuerySchema.safeParse(query ?? {});
    if (!parsed.success) {
      throw new UseCaseError('validation_failed', 'invalid performance query', {
        errors: parsed.error.issues.map((i) => ({
          path: i.path.map(String).join('.') || 'query',
          message: i.message,
        })),
      });
    }
    const now = deps.now();
    const { timeline, estimatedCloses } = await timelineOf(portfolioId, ledger, utcDay(now));
    const period = resolveChecked(parsed.data, timeline);
    const computedAt = now.toISOString();
    return { portfolioId, timeline, period, query: parsed.data, computedAt, estimatedCloses };
  };

  return {
    /** Figures of the portfolio and of each holding over the period asked (see {@link PerformanceQuery}). */
    async portfolio(
      portfolioId: string,
      ledger: readonly LedgerTransaction[],
      query: unknown,
    ): Promise<PortfolioPerformance> {
      const prepared = await prepare(portfolioId, ledger, query);
      const { timeline, period, query: q } = prepared;
      const figures = measurePeriod(timeline, timeline.portfolio, period);
      return {
        ...header(prepared, figures),
        ...publish(figures),
        holdings: [...timeline.holdings.values()]
          .map((h) => ({ track: h, figures: measurePeriod(timeline, h, period) }))
          .filter(
            ({ track, figures: f }) =>
              held(track, period.startIndex, period.endIndex) || f.netFlowsEur !== 0,
          )
          .map(({ track, figures: f }) => ({
            symbol: track.symbol,
            currency: track.currency,
            ...publish(f),
          })),
        ...seriesOf(timeline, timeline.portfolio, period, q),
      };
    },

    /**
     * Figures of one holding (by symbol; the first currency it is held in when several).
     * @throws UseCaseError `not_found` when the portfolio never held the symbol.
     */
    async holding(
      portfolioId: string,
      symbol: string,
      ledger: readonly LedgerTransaction[],
      query: unknown,
    ): Promise<HoldingPerformance> {
      const prepared = await prepare(portfolioId, ledger, query);
      const { timeline, period, query: q } = prepared;
      const wanted = symbol.toUpperCase();
      const track = [...timeline.holdings.values()].find((h) => h.symbol === wanted);
      if (!track)
        throw new UseCaseError('not_found', `portfolio ${portfolioId} never held ${wanted}`);
      const figures = measurePeriod(timeline, track, period);
      return {
        ...header(prepared, figures, track.symbol),
        symbol: track.symbol,
        holdingCurrency: track.currency,
        ...publish(figures),
        ...seriesOf(timeline, track, period, q),
      };
    },
  };
}

/** A timeline and the symbols whose closes were partly reconstructed (see `DailyCloses`). */
interface Built {
  readonly timeline: Timeline;
  readonly estimatedCloses: { symbol: string; days: number }[];
}

function resolveChecked(query: PerformanceQuery, timeline: Timeline) {
  try {
    return resolvePeriod(query, timeline);
  } catch (error) {
    if (!(error instanceof PortfolioError)) throw error;
    const path = /^to /.test(error.message)
      ? 'to'
      : /^from|custom/.test(error.message)
        ? 'from'
        : 'period';
    throw new UseCaseError('validation_failed', error.message, {
      cause: error,
      errors: [{ path, message: error.message }],
    });
  }
}

function header(
  prepared: {
    portfolioId: string;
    timeline: Timeline;
    period: ResolvedPeriod;
    computedAt: string;
    estimatedCloses: Built['estimatedCloses'];
  },
  figures: PeriodPerformance,
  symbol?: string,
) {
  const { timeline, computedAt } = prepared;
  return {
    portfolioId: prepared.portfolioId,
    currency: 'EUR' as const,
    period: prepared.period.period,
    from: figures.from,
    to: figures.to,
    days: figures.days,
    clampedToInception: figures.clampedToInception,
    cashFlowBasis: timeline.cashFlowBasis,
    estimatedCloses: prepared.estimatedCloses.filter(
      (e) => symbol === undefined || e.symbol === symbol,
    ),
    computedAt,
  };
}

/** Money as 2-decimal strings (half-even on the float's shortest decimal), returns rounded to 10 places. */
function publish(f: PeriodPerformance) {
  return {
    startValueEur: money(f.startValueEur),
    endValueEur: money(f.endValueEur),
    netFlowsEur: money(f.netFlowsEur),
    returns: {
      twr: figure(f.twr),
      twrAnnualised: f.twrAnnualised === null ? null : figure(f.twrAnnualised),
      twrLocal: figure(f.twrLocal),
      currencyEffect: figure(f.currencyEffect),
      mwr: figure(f.mwr),
    },
    income: { dividendsEur: money(f.dividendsEur), interestEur: null },
    costs: { feesEur: money(f.feesEur), withholdingTaxEur: null },
    stalePrices: f.stale,
  };
}

function figure(value: ReturnFigure): ReturnFigure {
  return value.status === 'ok' ? { ...value, value: Number(value.value.toFixed(10)) || 0 } : value;
}

/** A float amount as a 2-decimal string (half-even on its shortest decimal form); null when unknown. */
function money(value: number | null): string | null {
  return value === null || !Number.isFinite(value) ? null : toMoney(String(value));
}

function seriesOf(
  timeline: Timeline,
  track: Track,
  period: ReturnType<typeof resolvePeriod>,
  query: PerformanceQuery,
) {
  if (query.series === undefined || query.series === 'none') return {};
  return {
    series: valueSeries(timeline, track, period, query.series).map((p) => ({
      date: p.date,
      valueEur: money(p.valueEur),
      netInvestedEur: money(p.netInvestedEur),
    })),
  };
}

function held(track: Track, s: number, e: number): boolean {
  for (let i = Math.max(0, s); i <= e; i++) if ((track.valueEur[i] as number) !== 0) return true;
  return false;
}

/** A digest of the ledger's content: a recorded or imported transaction changes it. */
function fingerprint(ledger: readonly LedgerTransaction[]): string {
  const hash = createHash('sha256');
  for (const tx of ledger) hash.update(JSON.stringify(tx));
  return hash.digest('base64url');
}
