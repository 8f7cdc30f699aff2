import type { FxProvider, PriceHistoryProvider } from '@svc/market-data';
import type { DailySeries, LedgerTransaction } from '@svc/portfolio';
import { daysBefore, utcDay } from './decimal-text.js';
import { tolerate } from './market-inputs.js';

/** Where the performance flow takes daily closes and EUR rates from. */
export interface PerformanceMarketDeps {
  /** Daily closes (offline CSV or the HTTP daily-CSV service); null: no prices, returns unavailable. */
  readonly history: PriceHistoryProvider | null;
  /** ECB rates; null: only EUR positions can be valued. */
  readonly fx: FxProvider | null;
}

/** Daily closes per symbol and EUR rates per currency for {@link buildTimeline} of `@svc/portfolio`. */
export interface PerformanceMarketData {
  readonly prices: Map<string, DailySeries>;
  readonly eurRates: Map<string, DailySeries>;
  /** Days of closes reconstructed from a total-return series, per symbol (only those with some). */
  readonly estimatedDays: Map<string, number>;
  /**
   * Symbols the price history has nothing for, valued at their own trade prices (issue 38): the
   * price of each buy and sell of the ledger, carried forward (stale) until the next one.
   */
  readonly tradePriced: Set<string>;
  /**
   * Of {@link tradePriced}, the symbols whose trades were all at a price of 0 (shares received at
   * zero cost, e.g. a stock distribution, and no close known): valued at 0, their last known
   * transaction price, so they add nothing to the value or the return (issue 38). Absent: none.
   */
  readonly zeroPriced?: Set<string>;
}

/**
 * What market data a ledger's timeline needs up to `end`: closes of every symbol bought or sold,
 * EUR rates of every currency it moves, from the day before its first transaction. Issue 30:
 * a timeline rebuilt after a ledger write reuses the market data of the one it replaces when
 * that covered these needs ({@link coversNeeds}): past closes and rates do not change with the
 * ledger.
 */
export interface MarketNeeds {
  /** First day, `YYYY-MM-DD`. */
  readonly from: string;
  readonly symbols: ReadonlySet<string>;
  readonly currencies: ReadonlySet<string>;
}

/** The {@link MarketNeeds} of `ledger` up to `end`. */
export function marketNeeds(ledger: readonly LedgerTransaction[], end: string): MarketNeeds {
  const firstMs = ledger.reduce(
    (min, tx) => Math.min(min, Date.parse(tx.executedAt)),
    Date.parse(`${end}T23:59:59Z`),
  );
  const symbols = new Set<string>();
  const currencies = new Set<string>();
  for (const tx of ledger) {
    currencies.add(tx.currency);
    if ((tx.type === 'buy' || tx.type === 'sell') && tx.symbol)
      symbols.add(tx.symbol.toUpperCase());
  }
  return { from: daysBefore(utcDay(new Date(firstMs)), 1), symbols, currencies };
}

/** Whether market data gathered for `have` serves `want` (same or later start, no new symbol or currency). */
export function coversNeeds(have: MarketNeeds, want: MarketNeeds): boolean {
  if (want.from < have.from) return false;
  for (const symbol of want.symbols) if (!have.symbols.has(symbol)) return false;
  for (const currency of want.currencies) if (!have.currencies.has(currency)) return false;
  return true;
}

/**
 * Gathers the closes of every symbol bought or sold in `ledger` and the EUR rate of every currency
 * involved, for each calendar day from the day before the first transaction (or from `since`,
 * when later: what extending a cached timeline needs) to `end`.
 *
 * - Closes: `history.getDailyCloses(symbol, { from, to: end })`; a symbol the provider does not
 *   know, or a `MarketDataError`, leaves it without a series (its days are then `missing_price`).
 * - Rates: `fx.getRate('EUR', currency, { asOf: day })` for each day (the file provider answers
 *   from memory); the publication day of each answer is kept, so a gap longer than the tolerance
 *   shows as missing, never as an old rate. A provider that fails leaves the currency without rates.
 */
export async function gatherPerformanceMarketData(
  deps: PerformanceMarketDeps,
  ledger: readonly LedgerTransaction[],
  end: string,
  since?: string,
): Promise<PerformanceMarketData> {
  const prices = new Map<string, DailySeries>();
  const eurRates = new Map<string, DailySeries>();
  const estimatedDays = new Map<string, number>();
  const tradePriced = new Set<string>();
  const firstMs = ledger.reduce(
    (min, tx) => Math.min(min, Date.parse(tx.executedAt)),
    Date.parse(`${end}T23:59:59Z`),
  );
  const first = daysBefore(utcDay(new Date(firstMs)), 1);
  const from = since !== undefined && since > first ? since : first;
  if (from > end) return { prices, eurRates, estimatedDays, tradePriced };
  const symbols = new Set<string>();
  const currencies = new Set<string>();
  for (const tx of ledger) {
    currencies.add(tx.currency);
    if ((tx.type === 'buy' || tx.type === 'sell') && tx.symbol)
      symbols.add(tx.symbol.toUpperCase());
  }
  for (const symbol of symbols) {
    const series =
      deps.history && (await tolerate(deps.history.getDailyCloses(symbol, { from, to: end })));
    if (!series) {
      // priced at its own trades later (`withTradePrices`); their currency needs its rates now
      if (deps.history) {
        for (const tx of ledger) {
          if (tx.symbol?.toUpperCase() === symbol && (tx.type === 'buy' || tx.type === 'sell')) {
            currencies.add(tx.currency);
          }
        }
      }
      continue;
    }
    prices.set(symbol, series);
    currencies.add(series.currency);
    if (series.estimatedDays > 0) estimatedDays.set(symbol, series.estimatedDays);
  }
  currencies.delete('EUR');
  for (const currency of currencies) {
    const series = deps.fx && (await rateSeries(deps.fx, currency, from, end));
    if (series) eurRates.set(currency, series);
  }
  return { prices, eurRates, estimatedDays, tradePriced };
}

/**
 * `market` with every symbol of `ledger`'s buys and sells that has no price series valued at its
 * own trade prices (see {@link tradePrices}), listed in `tradePriced`; the series are made from
 * `ledger` each time (an edit of a trade changes them), the rest of `market` is shared. Applied
 * only when a price history is configured (without one nothing is priced: `missing_price`).
 */
export function withTradePrices(
  market: PerformanceMarketData,
  ledger: readonly LedgerTransaction[],
): PerformanceMarketData {
  const prices = new Map(market.prices);
  const tradePriced = new Set<string>();
  const zeroPriced = new Set<string>();
  const symbols = new Set<string>();
  for (const tx of ledger) {
    if ((tx.type === 'buy' || tx.type === 'sell') && tx.symbol)
      symbols.add(tx.symbol.toUpperCase());
  }
  for (const symbol of symbols) {
    if (market.prices.has(symbol)) continue;
    const own = tradePrices(ledger, symbol);
    if (!own) continue;
    prices.set(symbol, own);
    tradePriced.add(symbol);
    if (own.zeroIsPrice === true) zeroPriced.add(symbol);
  }
  return { ...market, prices, tradePriced, zeroPriced };
}

/**
 * The prices `ledger`'s buys and sells of `symbol` were made at, as a daily series (the last
 * trade of a day wins, each price standing until the next trade, and after the last one as the
 * timeline carries any series' last value; trades in the currency of its first trade only; prices
 * of 0, such as shares received, skipped while any trade has a price); null without a trade.
 * What a holding nobody publishes closes for is worth as far as the ledger knows (Ghostfolio
 * values manual assets the same way).
 *
 * When every trade was at 0 (shares only ever received at zero cost, as Trading 212's "Stock
 * distribution" rows are imported), the series is 0 from the first of them (`zeroIsPrice`): the
 * holding is valued at its last known transaction price, nothing. That adds neither value nor
 * return, which is what leaving it out would do, and keeps it in the timeline instead of
 * refusing every figure with `missing_price` (issue 38); the answer names it (`note`).
 */
function tradePrices(ledger: readonly LedgerTransaction[], symbol: string): DailySeries | null {
  const all = ledger
    .filter(
      (tx) => (tx.type === 'buy' || tx.type === 'sell') && tx.symbol?.toUpperCase() === symbol,
    )
    .map((tx) => ({
      at: Date.parse(tx.executedAt),
      price: Number(tx.price ?? 0),
      currency: tx.currency,
    }))
    .filter((t) => Number.isFinite(t.at) && Number.isFinite(t.price) && t.price >= 0)
    .sort((a, b) => a.at - b.at);
  const priced = all.filter((t) => t.price > 0);
  if (priced.length === 0 && all.length > 0) {
    const first = all[0] as (typeof all)[number];
    return {
      currency: first.currency,
      dates: [utcDay(new Date(first.at))],
      values: [0],
      zeroIsPrice: true,
    };
  }
  const trades = priced;
  const currency = trades[0]?.currency;
  if (currency === undefined) return null;
  const dates: string[] = [];
  const values: number[] = [];
  for (const t of trades) {
    if (t.currency !== currency) continue;
    const day = utcDay(new Date(t.at));
    const last = dates.at(-1);
    if (last === day) {
      values[values.length - 1] = t.price;
      continue;
    }
    // every day between two trades at the earlier price: the ledger knows no other
    if (last !== undefined) {
      const carried = values.at(-1) as number;
      for (
        let ms = Date.parse(`${last}T00:00:00Z`) + DAY_MS;
        ms < Date.parse(`${day}T00:00:00Z`);
        ms += DAY_MS
      ) {
        dates.push(utcDay(new Date(ms)));
        values.push(carried);
      }
    }
    dates.push(day);
    values.push(t.price);
  }
  return { currency, dates, values };
}

const DAY_MS = 86_400_000;

async function rateSeries(
  fx: FxProvider,
  currency: string,
  from: string,
  to: string,
): Promise<DailySeries | null> {
  const dates: string[] = [];
  const values: number[] = [];
  // from a few days before, so that `from` itself gets the last publication before it
  const lastMs = Date.parse(`${to}T00:00:00Z`);
  for (let ms = Date.parse(`${daysBefore(from, 5)}T00:00:00Z`); ms <= lastMs; ms += DAY_MS) {
    const day = new Date(ms).toISOString().slice(0, 10);
    const rate = await tolerate(fx.getRate('EUR', currency, { asOf: day }));
    if (rate && rate.asOf !== dates.at(-1) && rate.asOf >= (dates.at(-1) ?? '')) {
      dates.push(rate.asOf);
      values.push(rate.rate);
    }
  }
  return dates.length === 0 ? null : { currency, dates, values };
}
