import pRetry, { AbortError } from 'p-retry';
import { z } from 'zod';
import { MarketDataError } from '../errors.js';
import type { Quote, QuoteOptions, QuoteProvider } from '../quote.js';
import { assertOptionalIsoDate, quoteSymbolOf } from '../validation.js';

/** Options of {@link createHttpQuoteProvider}. */
export interface HttpQuoteProviderOptions {
  /** API root, e.g. `https://quotes.example.com/v1`; requests go to `{baseUrl}/quote`. */
  readonly baseUrl: string;
  /** API key sent in `apiKeyHeader`; omitted when unset. Never logged or put in messages. */
  readonly apiKey?: string;
  /** Header carrying the key; default `x-api-key`. */
  readonly apiKeyHeader?: string;
  /** Per-attempt timeout, milliseconds; default 5,000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt on network errors, timeouts, 429 and 5xx; default 2. */
  readonly retries?: number;
  /** First backoff delay, milliseconds (doubles each retry); default 200. */
  readonly minRetryDelayMs?: number;
  /** Provider name, the default `Quote.source`; default `http`. */
  readonly name?: string;
  /** `fetch` implementation; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * The JSON a quote API answers with (`GET {baseUrl}/quote?symbol=AAPL[&asOf=YYYY-MM-DD]`):
 * `{ symbol, price, currency, asOf, source? }`, the {@link Quote} shape. 404 means "no quote".
 */
export const HttpQuoteResponse = z
  .object({
    symbol: z.string().min(1),
    price: z.number().finite().positive(),
    currency: z.string().regex(/^[A-Za-z]{3}$/),
    asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    source: z.string().min(1).optional(),
  })
  .meta({ id: 'HttpQuoteResponse' });

/**
 * Live quote provider for a simple JSON API.
 *
 * Protocol: `GET {baseUrl}/quote?symbol=<SYMBOL>[&asOf=<YYYY-MM-DD>]` with
 * `accept: application/json` and the API key header. 200 → a {@link HttpQuoteResponse};
 * 404 → `null`; 400/422 → `invalid_symbol`; other 4xx → `upstream_unavailable` at once;
 * 429, 5xx, network errors and timeouts are retried (p-retry, exponential backoff) and then
 * give `upstream_unavailable`. Quotes are taken as actual closes on their own day's share basis.
 *
 * @throws {MarketDataError} from `getQuote`: `invalid_symbol`, `invalid_argument`,
 *   `upstream_unavailable`, `parse_failed` (body not JSON or not the schema).
 * @example
 * ```ts
 * const quotes = createHttpQuoteProvider({ baseUrl: 'https://quotes.example.com/v1', apiKey });
 * await quotes.getQuote('AAPL'); // { symbol: 'AAPL', price: 264.18, currency: 'USD', asOf: '2026-02-27', source: 'http' }
 * ```
 */
export function createHttpQuoteProvider(options: HttpQuoteProviderOptions): QuoteProvider {
  const name = options.name ?? 'http';
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey) headers[options.apiKeyHeader ?? 'x-api-key'] = options.apiKey;
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;

  return {
    name,
    async getQuote(symbol: string, quoteOptions: QuoteOptions = {}): Promise<Quote | null> {
      const normalised = quoteSymbolOf(symbol);
      assertOptionalIsoDate(quoteOptions.asOf, 'asOf');
      const url = new URL('quote', base);
      url.searchParams.set('symbol', normalised);
      if (quoteOptions.asOf) url.searchParams.set('asOf', quoteOptions.asOf);
      const attempt = () =>
        fetchOnce(doFetch, url, headers, options.timeoutMs ?? 5_000, quoteOptions.signal);
      let body: unknown;
      try {
        body = await pRetry(attempt, {
          retries: options.retries ?? 2,
          minTimeout: options.minRetryDelayMs ?? 200,
          factor: 2,
          signal: quoteOptions.signal,
        });
      } catch (error) {
        if (error instanceof MarketDataError) throw error;
        throw new MarketDataError('upstream_unavailable', `quote API failed for ${normalised}`, {
          cause: error,
        });
      }
      return body === null ? null : toQuote(body, name);
    },
  };
}

async function fetchOnce(
  doFetch: typeof globalThis.fetch,
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await doFetch(url, {
    headers,
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (response.status === 404) return null;
  if (response.status === 400 || response.status === 422) {
    throw new AbortError(new MarketDataError('invalid_symbol', `quote API rejected the symbol`));
  }
  if (response.status === 429 || response.status >= 500) {
    throw new Error(`quote API answered HTTP ${response.status}`);
  }
  if (!response.ok) {
    throw new AbortError(
      new MarketDataError('upstream_unavailable', `quote API answered HTTP ${response.status}`),
    );
  }
  try {
    return await response.json();
  } catch (error) {
    throw new AbortError(
      new MarketDataError('parse_failed', 'quote API answered invalid JSON', { cause: error }),
    );
  }
}

function toQuote(body: unknown, name: string): Quote {
  const parsed = HttpQuoteResponse.safeParse(body);
  if (!parsed.success) {
    throw new MarketDataError('parse_failed', 'quote API answer does not match the schema', {
      cause: parsed.error,
    });
  }
  const { source, ...rest } = parsed.data;
  return {
    ...rest,
    symbol: rest.symbol.toUpperCase(),
    currency: rest.currency.toUpperCase(),
    source: source ?? name,
    splitBasisAsOf: rest.asOf,
    adjustment: 'none',
  };
}
