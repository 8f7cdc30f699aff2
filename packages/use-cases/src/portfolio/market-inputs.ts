import {
  type FxProvider,
  MarketDataError,
  type Quote as ProviderQuote,
  type QuoteProvider,
} from '@svc/market-data';
import type { DerivedPortfolio, Quote } from '@svc/portfolio';
import type { MarketDataRepository, NewFxRate, NewQuote } from '@svc/portfolio-store';
import { daysBefore, numberToDecimal } from './decimal-text.js';
import { coverageOf, rateDataNote } from './rate-coverage.js';

/**
 * How old (days before the valuation day) a quote or rate cached in the database may be to stand
 * in for a provider that is absent or fails: 7 days covers a long weekend plus TARGET holidays
 * with margin, while a price from last month is no longer "the stored value as of today".
 */
export const MAX_CACHED_MARKET_DATA_AGE_DAYS = 7;

/** Quotes fetched at once during a revaluation (keeps a live provider's rate limit in sight). */
const QUOTE_CONCURRENCY = 4;

/** What {@link gatherMarketInputs} reads from and writes to. */
export interface MarketInputsDeps {
  readonly quotes: QuoteProvider | null;
  readonly fx: FxProvider | null;
  /** The `quotes` / `fx_rates` tables: written on every fetch, read when a provider fails. */
  readonly marketData: MarketDataRepository;
}

/** Quotes per holding symbol and EUR rates per currency (ECB: units per 1 EUR), decimal strings. */
export interface MarketInputs {
  readonly quotes: Map<string, Quote>;
  readonly eurRates: Map<string, string>;
  /** The day each rate of `eurRates` was published for. */
  readonly eurRateDates: Map<string, string>;
  /** Per currency left without a rate: where the provider's rate data ends (see `rateDataNote`). */
  readonly eurRateNotes: Map<string, string>;
}

/**
 * How far (days) the ECB rate used for a transaction may lie before the transaction's day: the
 * rate of the day, or of the last publication before it (the convention of EU invoicing and of
 * Portfolio Performance; research note broker-import-anchors §6), over at most a long holiday.
 */
export const MAX_HISTORIC_RATE_GAP_DAYS = 7;

/**
 * The EUR rate (units per 1 EUR) of every currency on the day of every buy and sell of `ledger`,
 * for `deriveHoldings`' `eurRateOn`: the FX provider's rate on or before that day, no more than
 * {@link MAX_HISTORIC_RATE_GAP_DAYS} before it. Without a provider, or when it fails, the rates
 * cached in `fx_rates` are used under the same rule; a day without a rate gives `undefined` (the
 * holding's EUR cost is then null). Each (currency, day) is asked once.
 */
export async function historicEurRates(
  deps: MarketInputsDeps,
  ledger: readonly { type: string; currency: string; executedAt: string }[],
): Promise<(currency: string, day: string) => string | undefined> {
  const wanted = new Map<string, { currency: string; day: string }>();
  for (const tx of ledger) {
    if ((tx.type !== 'buy' && tx.type !== 'sell') || tx.currency === 'EUR') continue;
    const day = new Date(tx.executedAt).toISOString().slice(0, 10);
    wanted.set(`${tx.currency} ${day}`, { currency: tx.currency, day });
  }
  const rates = new Map<string, string>();
  for (const [key, { currency, day }] of wanted) {
    const fetched = deps.fx && (await tolerate(deps.fx.getRate('EUR', currency, { asOf: day })));
    if (fetched) {
      if (fetched.asOf >= daysBefore(day, MAX_HISTORIC_RATE_GAP_DAYS)) {
        rates.set(key, numberToDecimal(fetched.rate));
      }
      continue;
    }
    const cached = await deps.marketData.latestFxRate('EUR', currency, day);
    if (cached !== undefined && cached.date >= daysBefore(day, MAX_HISTORIC_RATE_GAP_DAYS)) {
      rates.set(key, cached.rate);
    }
  }
  return (currency, day) => rates.get(`${currency} ${day}`);
}

/**
 * Prices every holding of `derived` and finds the EUR rate of every currency involved, as of
 * `day` (`YYYY-MM-DD`, the valuation day).
 *
 * Each quote comes from the quote provider (`getQuote(symbol, { asOf: day })`) and is cached in
 * the `quotes` table; each rate from the FX provider (`getRate('EUR', currency, { asOf: day })`)
 * and is cached in `fx_rates`. When a provider is absent, answers nothing or fails with a
 * `MarketDataError`, the latest cached value no older than {@link MAX_CACHED_MARKET_DATA_AGE_DAYS}
 * is used; otherwise the symbol or currency is left out, and `valueHoldings` stores null values
 * for it (a currency with a note in `eurRateNotes` of where the provider's rates end, read from
 * memory: `FxProvider.coverage`). Never throws for missing market data.
 */
export async function gatherMarketInputs(
  deps: MarketInputsDeps,
  derived: DerivedPortfolio,
  day: string,
): Promise<MarketInputs> {
  const quotes = new Map<string, Quote>();
  const fetchedQuotes = new Map<string, NewQuote>();
  const symbols = [...new Set(derived.holdings.map((h) => h.symbol))];
  for (let start = 0; start < symbols.length; start += QUOTE_CONCURRENCY) {
    const batch = symbols.slice(start, start + QUOTE_CONCURRENCY);
    const found = await Promise.all(batch.map((s) => quoteFor(deps, s, day)));
    for (const [i, result] of found.entries()) {
      const symbol = batch[i];
      if (result === undefined || symbol === undefined) continue;
      quotes.set(symbol, result.quote);
      if (result.fetched) fetchedQuotes.set(symbol.toUpperCase(), result.fetched);
    }
  }
  // one statement each for the cache writes (one row per key: ON CONFLICT cannot touch a row twice)
  await deps.marketData.upsertQuotes([...fetchedQuotes.values()]);
  const eurRates = new Map<string, string>();
  const eurRateDates = new Map<string, string>();
  const fetchedRates: NewFxRate[] = [];
  const eurRateNotes = new Map<string, string>();
  for (const currency of currenciesOf(derived, quotes)) {
    const result = await eurRateFor(deps, currency, day);
    if (result === undefined) {
      const coverage = await coverageOf(deps.fx, currency);
      eurRateNotes.set(currency, rateDataNote(deps.fx, coverage, currency, day));
      continue;
    }
    eurRates.set(currency, result.rate);
    eurRateDates.set(currency, result.date);
    if (result.fetched) fetchedRates.push(result.fetched);
  }
  await deps.marketData.upsertFxRates(fetchedRates);
  return { quotes, eurRates, eurRateDates, eurRateNotes };
}

/** Every currency other than EUR that a holding, a cash balance or a quote is in, sorted. */
function currenciesOf(derived: DerivedPortfolio, quotes: Map<string, Quote>): string[] {
  const currencies = new Set([
    ...derived.holdings.map((h) => h.currency),
    ...derived.cash.map((c) => c.currency),
    ...[...quotes.values()].map((q) => q.currency),
  ]);
  currencies.delete('EUR');
  return [...currencies].sort();
}

/** A quote for the valuation, and the row to cache when it came from the provider. */
async function quoteFor(
  deps: MarketInputsDeps,
  symbol: string,
  day: string,
): Promise<{ quote: Quote; fetched?: NewQuote } | undefined> {
  const fetched = deps.quotes && (await tolerate(deps.quotes.getQuote(symbol, { asOf: day })));
  if (fetched) {
    const price = numberToDecimal(fetched.price);
    const quote = { price, currency: fetched.currency, asOf: instantOf(fetched) };
    return { quote, fetched: { symbol, ...quote, source: fetched.source } };
  }
  const cached = await deps.marketData.latestQuote(symbol, endOfDay(day));
  if (cached === undefined || cached.asOf.slice(0, 10) < daysBefore(day, MAX_AGE)) return;
  return { quote: { price: cached.price, currency: cached.currency, asOf: cached.asOf } };
}

/** An EUR rate (units per 1 EUR), and the row to cache when it came from the provider. */
async function eurRateFor(
  deps: MarketInputsDeps,
  currency: string,
  day: string,
): Promise<{ rate: string; date: string; fetched?: NewFxRate } | undefined> {
  const fetched = deps.fx && (await tolerate(deps.fx.getRate('EUR', currency, { asOf: day })));
  if (fetched) {
    const rate = numberToDecimal(fetched.rate);
    const row = { base: 'EUR', quote: currency, date: fetched.asOf, rate, source: fetched.source };
    return { rate, date: fetched.asOf, fetched: row };
  }
  const cached = await deps.marketData.latestFxRate('EUR', currency, day);
  if (cached === undefined || cached.date < daysBefore(day, MAX_AGE)) return;
  return { rate: cached.rate, date: cached.date };
}

const MAX_AGE = MAX_CACHED_MARKET_DATA_AGE_DAYS;

/** The provider's answer, or null when it failed with a `MarketDataError` (bad symbol, outage). */
export async function tolerate<T>(pending: Promise<T | null>): Promise<T | null> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof MarketDataError) return null;
    throw error;
  }
}

/** A quote's `asOf` as an instant: a trading day `YYYY-MM-DD` is read as 00:00 UTC. */
function instantOf(quote: ProviderQuote): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(quote.asOf) ? `${quote.asOf}T00:00:00.000Z` : quote.asOf;
}

function endOfDay(day: string): Date {
  return new Date(`${day}T23:59:59.999Z`);
}
