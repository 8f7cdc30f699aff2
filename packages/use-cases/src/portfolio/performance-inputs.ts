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
  const firstMs = ledger.reduce(
    (min, tx) => Math.min(min, Date.parse(tx.executedAt)),
    Date.parse(`${end}T23:59:59Z`),
  );
  const first = daysBefore(utcDay(new Date(firstMs)), 1);
  const from = since !== undefined && since > first ? since : first;
  if (from > end) return { prices, eurRates, estimatedDays };
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
    if (!series) continue;
    prices.set(symbol, series);
    currencies.add(series.currency);
    if (series.estimatedDays > 0) estimatedDays.set(symbol, series.estimatedDays);
  }
  currencies.delete('EUR');
  for (const currency of currencies) {
    const series = deps.fx && (await rateSeries(deps.fx, currency, from, end));
    if (series) eurRates.set(currency, series);
  }
  return { prices, eurRates, estimatedDays };
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
