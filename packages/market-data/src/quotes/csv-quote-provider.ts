import type { DailyCloses, DailyClosesOptions, PriceHistoryProvider } from '../price-history.js';
import type { Quote, QuoteOptions, QuoteProvider } from '../quote.js';
import { assertOptionalIsoDate, normaliseCurrency, quoteSymbolOf } from '../validation.js';
import { assertRange } from './history-range.js';
import { type PriceSeriesSource, readPriceSeries } from './price-files.js';
import {
  dailyCloses,
  dividendAnchors,
  latestDate,
  quoteOnOrBefore,
  type SymbolHistory,
} from './price-history.js';
import { KNOWN_SPLITS, type StockSplit } from './splits.js';

/**
 * The folders of the shared price data set (`/work/shared/data/prices`, see its SOURCES.md):
 * two unadjusted Yahoo series and the total-return adjusted close used only to fill their gaps.
 * The Stooq and SimFin samples are not used: Stooq is split- and dividend-adjusted (no better
 * than the Yahoo adjusted series for 6 of the 30 tickers), SimFin covers AAPL 2007–2020 only,
 * which the Yahoo unadjusted series already covers.
 */
export const DEFAULT_PRICE_SERIES: readonly PriceSeriesSource[] = [
  { folder: 'yahoo_daily_2025-02_2026-02', kind: 'unadjusted' },
  { folder: 'yahoo_daily_2000_2024-03', kind: 'unadjusted' },
  { folder: 'yahoo_adjclose_ipo_2026-08', kind: 'total-return' },
];

/** Options of {@link createCsvQuoteProvider}. */
export interface CsvQuoteProviderOptions {
  /** The prices folder (holding the series folders), e.g. `<shared>/data/prices`. */
  readonly dir: string;
  /** Series folders to read; default {@link DEFAULT_PRICE_SERIES}. */
  readonly series?: readonly PriceSeriesSource[];
  /** Split table; default {@link KNOWN_SPLITS}. */
  readonly splits?: readonly StockSplit[];
  /** Currency of every price in the files; default `USD`. */
  readonly currency?: string;
  /** Provider name (prefix of `Quote.source`); default `yahoo-csv`. */
  readonly name?: string;
}

/**
 * A {@link QuoteProvider} over CSV files that also tells which splits it applies and serves the
 * daily history ({@link PriceHistoryProvider}).
 */
export interface CsvQuoteProvider extends QuoteProvider, PriceHistoryProvider {
  /** The splits applied to `symbol`, oldest first. */
  getSplits(symbol: string): readonly StockSplit[];
}

/**
 * Offline, split-aware quote provider over daily price CSVs.
 *
 * `getQuote(symbol, { asOf })` returns the close on or before `asOf` (default: the latest day of
 * any series) **on the share basis of that trading day** (`splitBasisAsOf = asOf`): a close from
 * a file adjusted to a later split basis is multiplied back by the splits in between, so that
 * AAPL on 2020-08-28 is 499.23 (not the 4:1-adjusted 124.81) and NVDA on 2024-06-07 is ≈ 1,209.
 * Unadjusted closes are preferred; days that only the total-return series covers are
 * un-adjusted (see `quoteOnOrBefore`) and flagged `adjustment: 'dividends-estimated'`.
 * Files are read lazily per symbol and cached in memory (a failed load is retried next call).
 *
 * @throws {MarketDataError} from `getQuote`: `invalid_symbol`, `invalid_argument` (bad `asOf`),
 *   `upstream_unavailable` (unreadable file), `parse_failed` (malformed CSV).
 * @example
 * ```ts
 * const quotes = createCsvQuoteProvider({ dir: '/work/shared/data/prices' });
 * await quotes.getQuote('AAPL', { asOf: '2020-08-28' });
 * // { symbol: 'AAPL', price: 499.23, currency: 'USD', asOf: '2020-08-28',
 * //   source: 'yahoo-csv:yahoo_daily_2000_2024-03', splitBasisAsOf: '2020-08-28', adjustment: 'none' }
 * ```
 */
export function createCsvQuoteProvider(options: CsvQuoteProviderOptions): CsvQuoteProvider {
  const series = options.series ?? DEFAULT_PRICE_SERIES;
  const splits = options.splits ?? KNOWN_SPLITS;
  const currency = normaliseCurrency(options.currency ?? 'USD');
  const name = options.name ?? 'yahoo-csv';
  const cache = new Map<string, Promise<SymbolHistory | null>>();

  const splitsOf = (symbol: string) =>
    splits.filter((s) => s.symbol === symbol).sort((a, b) => (a.date < b.date ? -1 : 1));

  const load = (symbol: string, signal?: AbortSignal): Promise<SymbolHistory | null> => {
    const cached = cache.get(symbol);
    if (cached) return cached;
    const pending = loadHistory(options.dir, series, symbol, splitsOf(symbol), signal);
    cache.set(symbol, pending);
    pending.catch(() => cache.delete(symbol));
    return pending;
  };

  return {
    name,
    getSplits: (symbol) => splitsOf(quoteSymbolOf(symbol)),
    async getQuote(symbol: string, quoteOptions: QuoteOptions = {}): Promise<Quote | null> {
      const normalised = quoteSymbolOf(symbol);
      assertOptionalIsoDate(quoteOptions.asOf, 'asOf');
      const history = await load(normalised.replaceAll('.', '-'), quoteOptions.signal);
      if (history === null) return null;
      const asOf = quoteOptions.asOf ?? latestDate(history);
      return asOf === null ? null : quoteOnOrBefore(history, asOf, { currency, name });
    },
    /**
     * Every trading day's close from the last one before `from` to `to`, each as `getQuote`
     * gives it for that day (own-day share basis; days only the total-return series covers are
     * reconstructed and counted in `estimatedDays`). Served from the files cached in memory.
     */
    async getDailyCloses(symbol: string, range: DailyClosesOptions): Promise<DailyCloses | null> {
      const normalised = quoteSymbolOf(symbol);
      assertRange(range.from, range.to);
      const history = await load(normalised.replaceAll('.', '-'), range.signal);
      if (history === null) return null;
      return dailyCloses(history, range, { currency, name });
    },
  };
}

async function loadHistory(
  dir: string,
  sources: readonly PriceSeriesSource[],
  symbol: string,
  splits: readonly StockSplit[],
  signal?: AbortSignal,
): Promise<SymbolHistory | null> {
  const loaded = await Promise.all(sources.map((s) => readPriceSeries(dir, s, symbol, signal)));
  const present = loaded.filter((s) => s !== null);
  if (present.length === 0) return null;
  const unadjusted = present.filter((s) => s.source.kind === 'unadjusted');
  const totalReturn = present.find((s) => s.source.kind === 'total-return') ?? null;
  return {
    symbol,
    unadjusted,
    totalReturn,
    splits,
    anchors: dividendAnchors(unadjusted, totalReturn, splits),
  };
}
