import {
  buildTimeline,
  extendTimeline,
  type LedgerTransaction,
  measurePeriod,
  type PeriodPerformance,
  PortfolioError,
  type ResolvedPeriod,
  type ReturnFigure,
  resolvePeriod,
  resumeDataFrom,
  type Timeline,
  type Track,
  valueSeries,
} from '@svc/portfolio';
import { LRUCache } from 'lru-cache';
import { UseCaseError } from '../errors.js';
import { utcDay } from './decimal-text.js';
import {
  coversNeeds,
  gatherPerformanceMarketData,
  type MarketNeeds,
  marketNeeds,
  type PerformanceMarketData,
  type PerformanceMarketDeps,
  withTradePrices,
} from './performance-inputs.js';
import {
  type HoldingPerformance,
  type PerformanceQuery,
  PerformanceQuery as PerformanceQuerySchema,
  type PortfolioPerformance,
} from './performance-schemas.js';
import { money as toMoney } from './position-records.js';
import { explainMissingRates } from './rate-coverage.js';

/**
 * Default bound of the timeline cache, bytes (estimated: 8 doubles per day per holding and for the
 * portfolio, plus the ledger kept for the next day's extension). 10 years × 50 holdings is ~15 MB.
 */
const TIMELINE_CACHE_BYTES = 96 * 1024 * 1024;

/** What the performance flow needs besides the ledger. */
export interface PerformanceFlowDeps extends PerformanceMarketDeps {
  readonly now: () => Date;
  /** Bound of the timeline cache in (estimated) bytes; default 96 MiB. */
  readonly cacheBytes?: number;
}

/**
 * A portfolio's ledger as the flow reads it: the store's ledger version (`portfolios.ledger_version`,
 * bumped in the transaction of every ledger write, whichever process made it) and a reader of the
 * ledger, called only when no timeline of that version is cached. The version must be read before
 * the ledger, so that the ledger read is never older than the version it is cached under.
 */
export interface LedgerSource {
  readonly version: string;
  read(): Promise<readonly LedgerTransaction[]>;
  /**
   * The ledger at {@link version} made from `ledger`, the ledger at version `from`, by applying
   * what the writes between them changed (the journal of issue 30); undefined when that cannot
   * be told (then {@link read} is used).
   */
  patch?(
    from: string,
    ledger: readonly LedgerTransaction[],
  ): Promise<LedgerTransaction[] | undefined>;
  /**
   * Whether the ledger is still at {@link version} (read again after {@link read}): only then is
   * the ledger read exactly the one of that version (a write between the two reads makes it
   * newer), and only an exact ledger is patched.
   */
  stillAt?(): Promise<boolean>;
}

/**
 * A cached timeline: of which ledger version, to which day, the ledger (to extend it), and the
 * market data it was built from with what that covers (to rebuild it after a ledger write
 * without gathering closes and rates again).
 */
interface CacheEntry extends Built {
  readonly version: string;
  readonly day: string;
  readonly ledger: readonly LedgerTransaction[];
  readonly market: PerformanceMarketData;
  readonly covered: MarketNeeds;
  /** The ledger is exactly the one of `version` (see `LedgerSource.stillAt`): it may be patched. */
  readonly exact: boolean;
}

/**
 * The performance flow behind `GET /api/portfolios/{id}/performance`, its per-holding twin, the
 * MCP tool `getPortfolioPerformance` and the advisor's tool of the same name.
 *
 * The daily timeline of a portfolio (`buildTimeline` of `@svc/portfolio`) is cached per portfolio
 * (an LRU bounded by `cacheBytes`) with the ledger version and the day it was built for:
 * - a repeat request (same version, same day) costs one indexed read of the version and the
 *   measurement: no ledger read, no price fetch, no replay;
 * - the next day's request (same version) extends it (`extendTimeline`): closes and rates are
 *   fetched from a few days before its checkpoint, and only the last days are walked;
 * - any ledger write (another version, from this process or another) walks it afresh from the
 *   new ledger; the closes and rates gathered for the replaced timeline are reused when they
 *   cover the new ledger (no new symbol or currency, no earlier first day: an edit, a delete, a
 *   revert), and the ledger it held is patched from the journal when the journal accounts for
 *   every write since (`LedgerSource.patch`), so an edit deep in the past costs the walk alone
 *   (issue 30).
 */
export function createPerformanceFlow(deps: PerformanceFlowDeps) {
  const timelines = new LRUCache<string, CacheEntry>({
    maxSize: deps.cacheBytes ?? TIMELINE_CACHE_BYTES,
    sizeCalculation: (entry) =>
      Math.max(1, entry.timeline.length * (entry.timeline.holdings.size + 1) * 8 * 8) +
      entry.ledger.length * 400 +
      marketBytes(entry.market),
  });
  const building = new Map<string, Promise<Built>>();

  const build = async (
    portfolioId: string,
    source: LedgerSource,
    today: string,
  ): Promise<CacheEntry> => {
    const cached = timelines.get(portfolioId);
    if (cached && cached.version === source.version && cached.day < today) {
      const from = resumeDataFrom(cached.timeline);
      if (from !== null) {
        const market = await gatherPerformanceMarketData(deps, cached.ledger, today, from);
        const priced = deps.history ? withTradePrices(market, cached.ledger) : market;
        const timeline = extendTimeline(cached.timeline, {
          transactions: cached.ledger,
          prices: priced.prices,
          eurRates: priced.eurRates,
          end: today,
        });
        // the extended timeline's market data is the new days' only: nothing to reuse after it
        if (timeline) {
          const newer = lastPriceDay(market);
          const dataThrough =
            newer !== undefined && (cached.dataThrough === undefined || newer > cached.dataThrough)
              ? newer
              : cached.dataThrough;
          return { ...cached, timeline, day: today, covered: NOTHING, dataThrough };
        }
      }
    }
    let ledger: readonly LedgerTransaction[];
    let exact: boolean;
    const patched =
      cached && cached.version !== source.version && cached.exact
        ? await source.patch?.(cached.version, cached.ledger)
        : undefined;
    if (cached?.version === source.version) {
      ({ ledger, exact } = cached);
    } else if (patched !== undefined) {
      [ledger, exact] = [patched, true];
    } else {
      ledger = await source.read();
      exact = (await source.stillAt?.()) ?? false;
    }
    const needs = marketNeeds(ledger, today);
    // After a ledger write (a new version, same day): the closes and rates gathered for the
    // replaced timeline serve the new one when they cover it, so only the walk is redone.
    const reused = cached && cached.day === today && coversNeeds(cached.covered, needs);
    const market = reused ? cached.market : await gatherPerformanceMarketData(deps, ledger, today);
    // issue 38: holdings the price history has nothing for are valued at their own trades (made
    // from this ledger each time; the market data kept for reuse is the history's alone)
    const priced = deps.history ? withTradePrices(market, ledger) : market;
    return {
      version: source.version,
      day: today,
      ledger,
      market,
      covered: reused ? cached.covered : needs,
      exact,
      timeline: buildTimeline({
        transactions: ledger,
        prices: priced.prices,
        eurRates: priced.eurRates,
        end: today,
      }),
      estimatedCloses: [...market.estimatedDays].map(([symbol, days]) => ({ symbol, days })),
      dataThrough: lastPriceDay(market),
      valuedAtTradePrices: [...priced.tradePriced].sort(),
      valuedAtZero: [...(priced.zeroPriced ?? [])].sort(),
    };
  };

  const timelineOf = (portfolioId: string, source: LedgerSource, today: string): Promise<Built> => {
    const cached = timelines.get(portfolioId);
    if (cached && cached.version === source.version && cached.day === today) {
      return Promise.resolve(cached);
    }
    const key = `${portfolioId} ${source.version} ${today}`;
    let pending = building.get(key);
    if (pending === undefined) {
      pending = build(portfolioId, source, today)
        .then((entry) => {
          const current = timelines.get(portfolioId);
          if (!current || isNewer(entry, current)) timelines.set(portfolioId, entry);
          return entry;
        })
        .finally(() => building.delete(key));
      building.set(key, pending);
    }
    return pending;
  };

  const prepare = async (portfolioId: string, ledger: LedgerSource, query: unknown) => {
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
    const today = utcDay(now);
    const built = await timelineOf(portfolioId, ledger, today);
    const { timeline, estimatedCloses, valuedAtTradePrices = [], valuedAtZero = [] } = built;
    // issue 38: a period that ends after the price data is answered up to its last day
    const asked = parsed.data.to ?? today;
    const through = built.dataThrough;
    // (a day after today stays a validation_failed of the period)
    const clamp =
      through !== undefined &&
      asked > through &&
      asked <= today &&
      !wholeHistoryBefore(parsed.data, through);
    const effective = clamp ? { ...parsed.data, to: through } : parsed.data;
    const period = resolveChecked(effective, timeline);
    const computedAt = now.toISOString();
    return {
      portfolioId,
      timeline,
      period,
      query: effective,
      computedAt,
      estimatedCloses,
      valuedAtTradePrices,
      valuedAtZero,
      ...(clamp
        ? {
            dataThrough: through,
            clampNote: `the price data ends on ${through}: the figures run to that day, not to ${asked}`,
          }
        : {}),
    };
  };

  return {
    /** Figures of the portfolio and of each holding over the period asked (see {@link PerformanceQuery}). */
    async portfolio(
      portfolioId: string,
      ledger: LedgerSource,
      query: unknown,
    ): Promise<PortfolioPerformance> {
      const prepared = await prepare(portfolioId, ledger, query);
      const { timeline, period, query: q } = prepared;
      const tracks = [...timeline.holdings.values()];
      const [figures, ...perHolding] = await explainMissingRates(deps.fx, [
        measurePeriod(timeline, timeline.portfolio, period),
        ...tracks.map((h) => measurePeriod(timeline, h, period)),
      ]);
      if (figures === undefined) throw new Error('unreachable: the portfolio has figures');
      return {
        ...header(prepared, figures),
        ...publish(figures),
        holdings: tracks
          .map((h, i) => ({ track: h, figures: perHolding[i] as PeriodPerformance }))
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
      ledger: LedgerSource,
      query: unknown,
    ): Promise<HoldingPerformance> {
      const prepared = await prepare(portfolioId, ledger, query);
      const { timeline, period, query: q } = prepared;
      const wanted = symbol.toUpperCase();
      const track = [...timeline.holdings.values()].find((h) => h.symbol === wanted);
      if (!track)
        throw new UseCaseError('not_found', `portfolio ${portfolioId} never held ${wanted}`);
      const [figures] = await explainMissingRates(deps.fx, [
        measurePeriod(timeline, track, period),
      ]);
      if (figures === undefined) throw new Error('unreachable: the holding has figures');
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
  /** The last day any price series of the ledger reaches; undefined without one. */
  readonly dataThrough?: string | undefined;
  /** Symbols without a price history, valued at their own trade prices. */
  readonly valuedAtTradePrices?: readonly string[];
  /** Of those, the symbols only ever traded at 0 (shares received at zero cost): valued at 0. */
  readonly valuedAtZero?: readonly string[];
}

/** The last day any close of `market` is from (the latest of the series' ends). */
function lastPriceDay(market: PerformanceMarketData): string | undefined {
  let last: string | undefined;
  for (const [symbol, series] of market.prices) {
    if (market.tradePriced.has(symbol)) continue;
    const end = series.dates.at(-1);
    if (end !== undefined && (last === undefined || end > last)) last = end;
  }
  return last;
}

/** A custom period that starts after the data ends cannot be moved before it: left as asked. */
function wholeHistoryBefore(query: PerformanceQuery, through: string): boolean {
  return query.from !== undefined && query.from > through;
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
    valuedAtTradePrices: readonly string[];
    valuedAtZero: readonly string[];
    dataThrough?: string | undefined;
    clampNote?: string;
  },
  figures: PeriodPerformance,
  symbol?: string,
) {
  const { timeline, computedAt } = prepared;
  const mine = (s: string) => symbol === undefined || s === symbol;
  const tradePriced = prepared.valuedAtTradePrices.filter(mine);
  const zero = new Set(prepared.valuedAtZero.filter(mine));
  const notes = [
    prepared.clampNote,
    unpricedNote(
      tradePriced.filter((s) => !zero.has(s)),
      [...zero],
    ),
  ].filter((n): n is string => n !== undefined);
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
    ...(prepared.dataThrough && prepared.clampNote ? { dataThrough: prepared.dataThrough } : {}),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    ...(prepared.valuedAtTradePrices.length > 0 ? { valuedAtTradePrices: tradePriced } : {}),
  };
}

/**
 * The note naming the holdings the price history has no closes for and how they were valued
 * (issue 38); undefined when there are none. `atTrades`: valued at their own trade prices;
 * `atZero`: only ever received at zero cost, valued at 0.
 */
function unpricedNote(atTrades: readonly string[], atZero: readonly string[]): string | undefined {
  const parts: string[] = [];
  if (atTrades.length > 0) {
    parts.push(
      `no closes for ${atTrades.join(', ')}: valued at the prices of ${atTrades.length === 1 ? 'its' : 'their'} own buys and sells, carried forward (stale)`,
    );
  }
  if (atZero.length > 0) {
    const one = atZero.length === 1;
    parts.push(
      `no closes and no trade price above 0 for ${atZero.join(', ')} (shares received at zero cost): valued at 0, ${one ? 'its' : 'their'} last known transaction price, so ${one ? 'it adds' : 'they add'} nothing to the value or the returns`,
    );
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
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
    costs: { feesEur: money(f.feesEur), withholdingTaxEur: money(f.withholdingTaxEur) },
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

/** Estimated bytes of gathered market data: a day's date text and close, ~64 bytes. */
function marketBytes(market: PerformanceMarketData): number {
  let days = 0;
  for (const series of market.prices.values()) days += series.dates.length;
  for (const series of market.eurRates.values()) days += series.dates.length;
  return days * 64;
}

/** Covers no market data (a timeline extended by a day keeps only the new days' data). */
const NOTHING: MarketNeeds = { from: '9999-12-31', symbols: new Set(), currencies: new Set() };

/** Whether `a` is of a later ledger version than `b`, or of the same and a later or equal day. */
function isNewer(a: CacheEntry, b: CacheEntry): boolean {
  const [va, vb] = [BigInt(a.version), BigInt(b.version)];
  return va > vb || (va === vb && a.day >= b.day);
}
