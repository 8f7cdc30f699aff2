import {
  type FxProvider,
  MarketDataError,
  type Quote as ProviderQuote,
  type QuoteProvider,
} from '@svc/market-data';
import { LRUCache } from 'lru-cache';
import { UseCaseError } from '../errors.js';
import { tickerOf } from '../ticker.js';
import { divideToScale, numberToDecimal, utcDay } from './decimal-text.js';
import type { QuoteResult } from './schemas.js';

/** Default time a quote is served from memory, ms (CONTRACT §4: "cached briefly"). */
export const DEFAULT_QUOTE_TTL_MS = 60_000;
/** Default number of symbols kept in memory (least recently used evicted first). */
export const DEFAULT_QUOTE_CACHE_ENTRIES = 1_000;

/** Dependencies and settings of {@link createQuoteService}. */
export interface QuoteServiceDeps {
  /** Where prices come from; null: every symbol answers `not_found`. */
  readonly quotes: QuoteProvider | null;
  /** ECB reference rates for `priceEur`; null: `priceEur` is null for non-EUR prices. */
  readonly fx: FxProvider | null;
  /** The clock: the day asked of the provider and the cache's time. */
  readonly now: () => Date;
  /** How long an answer is served from memory, ms; default {@link DEFAULT_QUOTE_TTL_MS}. */
  readonly ttlMs?: number;
  /** Bound of the cache, symbols; default {@link DEFAULT_QUOTE_CACHE_ENTRIES}. */
  readonly maxEntries?: number;
}

/**
 * The quote flow of `GET /api/quote?symbol=` and its MCP twin.
 *
 * `getQuote(symbol)` validates and normalises the symbol (`tickerOf`: the one rule of
 * `@svc/schemas`, upper case, `.` → `-`), asks the provider for the close on or before
 * today (`now()`, UTC), and converts it: `priceEur = price ÷ (currency per EUR)` at the ECB
 * reference rate of the quote's own day, rounded half-even to 10 places (the scale of `Holding`).
 * Answers are cached in memory for `ttlMs` per symbol in an LRU of `maxEntries`; concurrent misses
 * for one symbol share one provider call. Unknown symbols are not cached.
 *
 * When the FX provider has no rate or fails, the quote is still served with `priceEur: null`.
 *
 * @throws UseCaseError `validation_failed` (path `symbol`) for a symbol that is not a
 *   `TickerSymbol`; `not_found` when the provider has no price for it, cannot key one by it, or
 *   there is no provider. MarketDataError
 *   `upstream_unavailable` / `parse_failed` when the quote provider fails (not cached).
 * @example
 * ```ts
 * const quotes = createQuoteService({
 *   quotes: createCsvQuoteProvider({ dir: pricesDir }),
 *   fx: createEcbFileFxProvider({ file: ecbHistCsv }),
 *   now: () => new Date('2024-03-01T22:00:00Z'),
 * });
 * await quotes.getQuote('aapl');
 * // { symbol: 'AAPL', price: '179.66', currency: 'USD', asOf: '2024-03-01',
 * //   source: 'yahoo-csv:yahoo_daily_2000_2024-03', priceEur: '166.1518542495' }
 * ```
 */
export function createQuoteService(deps: QuoteServiceDeps) {
  const cache = new LRUCache<string, QuoteResult>({
    max: deps.maxEntries ?? DEFAULT_QUOTE_CACHE_ENTRIES,
    ttl: deps.ttlMs ?? DEFAULT_QUOTE_TTL_MS,
    ttlResolution: 0,
    perf: { now: () => deps.now().getTime() },
    fetchMethod: (symbol) => fetchQuote(deps, symbol),
  });

  return {
    /** The quote of `symbol`; see {@link createQuoteService}. */
    async getQuote(symbol: string): Promise<QuoteResult> {
      const normalised = tickerOf(symbol);
      const quote = await cache.fetch(normalised);
      if (quote === undefined) throw new UseCaseError('not_found', `no quote for ${normalised}`);
      return quote;
    },
  };
}

/** The quote flow; see {@link createQuoteService}. */
export type QuoteService = ReturnType<typeof createQuoteService>;

async function fetchQuote(
  deps: QuoteServiceDeps,
  symbol: string,
): Promise<QuoteResult | undefined> {
  if (deps.quotes === null) return undefined;
  const quote = await deps.quotes
    .getQuote(symbol, { asOf: utcDay(deps.now()) })
    .catch((error: unknown) => {
      // A valid ticker the providers cannot key a price by (`-X`): they have no quote for it.
      if (error instanceof MarketDataError && error.code === 'invalid_symbol') return null;
      throw error;
    });
  if (quote === null) return undefined;
  const price = numberToDecimal(quote.price);
  return {
    symbol: quote.symbol,
    price,
    currency: quote.currency,
    asOf: quote.asOf,
    source: quote.source,
    priceEur: await priceInEur(deps.fx, quote, price),
  };
}

async function priceInEur(
  fx: FxProvider | null,
  quote: ProviderQuote,
  price: string,
): Promise<string | null> {
  if (quote.currency === 'EUR') return price;
  if (fx === null) return null;
  const day = quote.asOf.slice(0, 10);
  const rate = await fx.getRate('EUR', quote.currency, { asOf: day }).catch((error: unknown) => {
    if (error instanceof MarketDataError) return null;
    throw error;
  });
  return rate === null ? null : divideToScale(price, numberToDecimal(rate.rate));
}
