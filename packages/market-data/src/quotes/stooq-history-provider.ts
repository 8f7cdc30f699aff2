import { parse } from 'csv-parse/sync';
import pRetry, { AbortError } from 'p-retry';
import { MarketDataError } from '../errors.js';
import { EXCHANGE_BY_YAHOO_SUFFIX } from '../instruments/listings.js';
import type { DailyCloses, DailyClosesOptions, PriceHistoryProvider } from '../price-history.js';
import { normaliseCurrency, quoteSymbolOf } from '../validation.js';
import { assertRange, sliceRange } from './history-range.js';
import type { PriceRow } from './price-files.js';

/**
 * Stooq's keyless daily CSV download (`Date,Open,High,Low,Close,Volume`, one row per trading day,
 * closes split- and dividend-adjusted by Stooq as of the download): `{listing}` is replaced by
 * Stooq's lower-case listing symbol ({@link stooqListing}: `aapl.us`, `sap.de`, `asml.nl`).
 */
export const STOOQ_DAILY_CSV_URL = 'https://stooq.com/q/d/l/?s={listing}&i=d';

/**
 * Stooq's listing of a quote symbol as the service spells listings (Yahoo-style suffixes,
 * `listingSymbol`): a known exchange suffix becomes Stooq's (`SAP.DE` → `sap.de`, `ASML.AS` →
 * `asml.nl`, `NESN.SW` → `nesn.ch`) with that exchange's currency; a bare ticker is a US listing
 * (`AAPL` → `aapl.us`, currency `undefined`: the provider's default). London listings (`.L`)
 * give `null`: Stooq's `.uk` closes mix pence and pounds by listing and say neither, so they are
 * not asked rather than read 100 times off. Source: Stooq's symbol pages (`.us`, `.de`, `.uk`, …).
 */
export function stooqListing(
  symbol: string,
): { readonly listing: string; readonly currency: string | undefined } | null {
  const upper = symbol.toUpperCase();
  const match = /^(.+)(\.[A-Z]{1,3})$/.exec(upper);
  const exchange = match ? EXCHANGE_BY_YAHOO_SUFFIX.get(match[2] as string) : undefined;
  if (match && exchange) {
    if (exchange.stooq === '.uk') return null;
    return { listing: `${match[1]}${exchange.stooq}`.toLowerCase(), currency: exchange.currency };
  }
  return { listing: `${upper}.us`.toLowerCase(), currency: undefined };
}

/** Options of {@link createStooqHistoryProvider}. */
export interface StooqHistoryProviderOptions {
  /**
   * URL template with `{listing}` (Stooq's listing, {@link stooqListing}) and/or `{symbol}` (the
   * lower-case symbol as asked); default {@link STOOQ_DAILY_CSV_URL}.
   */
  readonly urlTemplate?: string;
  /** Currency of the closes of a bare (US) symbol; default `USD`. Other listings: their exchange's. */
  readonly currency?: string;
  /** Per-attempt timeout, milliseconds; default 5,000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt on network errors, timeouts, 429 and 5xx; default 2. */
  readonly retries?: number;
  /** First backoff delay, milliseconds (doubles each retry); default 200. */
  readonly minRetryDelayMs?: number;
  /** How long a download answers requests that reach its own day, milliseconds; default 1 h. */
  readonly ttlMs?: number;
  /** Symbols kept in memory (least recently used dropped first); default 200. */
  readonly maxSymbols?: number;
  /** Clock, epoch milliseconds; default `Date.now`. */
  readonly now?: () => number;
  /** Provider name, the `source` of the closes; default `stooq`. */
  readonly name?: string;
  /** `fetch` implementation; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
}

interface Cached {
  /** null: the service knows no such symbol (kept `ttlMs` only). */
  readonly rows: readonly PriceRow[] | null;
  /** UTC day of the download: closes before it are final. */
  readonly day: string;
  readonly at: number;
}

/**
 * Daily price history over HTTP from a service answering Stooq's CSV formats: the download
 * (`Date,…,Close,…`, ISO days) or the bulk files (`<TICKER>,<PER>,<DATE>,…,<CLOSE>,…`, days
 * `YYYYMMDD`). One GET per symbol fetches its whole history; `No data` (Stooq's answer for an
 * unknown ticker), an empty body or 404 give `null`.
 *
 * - **Cache of past days**: past closes do not change, so a download answers every later request
 *   whose `to` lies before the day it was made, for ever; a request reaching that day or later
 *   downloads again once `ttlMs` has passed. Concurrent requests for a symbol share one download;
 *   at most `maxSymbols` symbols are kept (least recently used dropped).
 * - **Timeouts and retries**: each attempt is aborted after `timeoutMs`; network errors,
 *   timeouts, 429 and 5xx are retried `retries` times with exponential backoff (p-retry), then
 *   give `upstream_unavailable`; other 4xx give `upstream_unavailable` at once.
 *
 * @throws {MarketDataError} from `getDailyCloses`: `invalid_symbol`, `invalid_argument`,
 *   `upstream_unavailable`, `parse_failed` (a body that is not a price CSV).
 * @example
 * ```ts
 * const history = createStooqHistoryProvider({ urlTemplate: 'https://prices.example/{symbol}.csv' });
 * await history.getDailyCloses('AAPL', { from: '2024-01-02', to: '2024-12-31' });
 * // { symbol: 'AAPL', currency: 'USD', source: 'stooq', dates: ['2023-12-29', …], values: [192.28, …], estimatedDays: 0 }
 * ```
 */
export function createStooqHistoryProvider(
  options: StooqHistoryProviderOptions = {},
): PriceHistoryProvider {
  const template = options.urlTemplate ?? STOOQ_DAILY_CSV_URL;
  const currency = normaliseCurrency(options.currency ?? 'USD');
  const name = options.name ?? 'stooq';
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const maxSymbols = options.maxSymbols ?? 200;
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Flight>();

  const download = async (symbol: string, signal?: AbortSignal): Promise<Cached> => {
    const listing = stooqListing(symbol)?.listing ?? '';
    const url = template
      .replaceAll('{symbol}', encodeURIComponent(symbol.toLowerCase()))
      .replaceAll('{listing}', encodeURIComponent(listing));
    const text = await fetchWithRetries(url, options, signal);
    const rows = text === null ? null : parseStooqCsv(text, url);
    const at = now();
    const entry = { rows, day: new Date(at).toISOString().slice(0, 10), at };
    cache.delete(symbol);
    cache.set(symbol, entry);
    if (cache.size > maxSymbols) cache.delete(cache.keys().next().value as string);
    return entry;
  };

  const current = (symbol: string, to: string, signal?: AbortSignal): Promise<Cached> => {
    const cached = cache.get(symbol);
    const fresh = cached !== undefined && now() - cached.at < ttlMs;
    if (cached !== undefined && (fresh || (cached.rows !== null && to < cached.day))) {
      cache.delete(symbol); // most recently used last
      cache.set(symbol, cached);
      return Promise.resolve(cached);
    }
    let flight = inFlight.get(symbol);
    // the shared download has a signal of its own: one caller giving up does not fail the
    // others; it is aborted only when every caller waiting on it has given up (a caller that
    // comes after that starts a download of its own)
    if (flight === undefined || flight.controller.signal.aborted) {
      const controller = new AbortController();
      const started: Flight = {
        promise: download(symbol, controller.signal).finally(() => {
          if (inFlight.get(symbol) === started) inFlight.delete(symbol);
        }),
        controller,
        waiting: 0,
      };
      flight = started;
      inFlight.set(symbol, flight);
    }
    return waitFor(flight, signal);
  };

  return {
    name,
    async getDailyCloses(symbol: string, range: DailyClosesOptions): Promise<DailyCloses | null> {
      const normalised = quoteSymbolOf(symbol);
      assertRange(range.from, range.to);
      const listing = stooqListing(normalised);
      if (listing === null) return null;
      const entry = await current(normalised, range.to, range.signal);
      if (entry.rows === null) return null;
      const rows = sliceRange(entry.rows, range.from, range.to);
      return {
        symbol: normalised,
        currency: listing.currency ?? currency,
        source: name,
        dates: rows.map((r) => r.date),
        values: rows.map((r) => r.close),
        estimatedDays: 0,
      };
    },
  };
}

/** A download shared by the concurrent requests of one symbol. */
interface Flight {
  readonly promise: Promise<Cached>;
  readonly controller: AbortController;
  /** Callers waiting on it that may still give up (those without a signal never do). */
  waiting: number;
}

/**
 * The shared download's answer for one caller: when the caller's `signal` aborts first, that
 * caller alone gets `upstream_unavailable` at once, and the download is aborted once no caller
 * is left waiting on it. A caller without a signal keeps the download going.
 */
function waitFor(flight: Flight, signal: AbortSignal | undefined): Promise<Cached> {
  const aborted = () =>
    new MarketDataError('upstream_unavailable', 'price history request aborted by its caller', {
      cause: signal?.reason,
    });
  if (signal === undefined) {
    flight.waiting = Number.POSITIVE_INFINITY;
    return flight.promise;
  }
  if (signal.aborted) return Promise.reject(aborted());
  flight.waiting += 1;
  return new Promise<Cached>((resolve, reject) => {
    const onAbort = () => {
      flight.waiting -= 1;
      if (flight.waiting <= 0) flight.controller.abort(signal.reason);
      reject(aborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    flight.promise.then(
      (entry) => {
        signal.removeEventListener('abort', onAbort);
        resolve(entry);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

async function fetchWithRetries(
  url: string,
  options: StooqHistoryProviderOptions,
  signal?: AbortSignal,
): Promise<string | null> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const attempt = async (): Promise<string | null> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await doFetch(url, {
      headers: { accept: 'text/csv, text/plain' },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (response.status === 404) return null;
    if (response.status === 429 || response.status >= 500) {
      throw new Error(`price history answered HTTP ${response.status}`);
    }
    if (!response.ok) {
      throw new AbortError(
        new MarketDataError(
          'upstream_unavailable',
          `price history answered HTTP ${response.status}`,
        ),
      );
    }
    const text = await response.text();
    return /^\s*(no data)?\s*$/i.test(text) ? null : text;
  };
  try {
    return await pRetry(attempt, {
      retries: options.retries ?? 2,
      minTimeout: options.minRetryDelayMs ?? 200,
      factor: 2,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof MarketDataError) throw error;
    throw new MarketDataError(
      'upstream_unavailable',
      `price history unavailable (${hostOf(url)})`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Parses a Stooq CSV, the download (`Date`, `Close` columns, ISO days) or the bulk layout
 * (`<DATE>` as `YYYYMMDD`, `<CLOSE>`), into rows sorted by day; rows without a positive close are
 * skipped.
 *
 * @throws {MarketDataError} `parse_failed` when the text is not such a CSV.
 */
export function parseStooqCsv(text: string, name: string): PriceRow[] {
  const header = (text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '')
    .split(',')
    .map((c) => c.trim());
  const layout = header.includes('<DATE>') && header.includes('<CLOSE>');
  if (!layout && !(header.includes('Date') && header.includes('Close'))) {
    throw new MarketDataError(
      'parse_failed',
      `no date and close columns in the answer of ${hostOf(name)}`,
    );
  }
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw new MarketDataError('parse_failed', `malformed CSV from ${hostOf(name)}`, {
      cause: error,
    });
  }
  const first = records[0];
  const dateKey = first && ('Date' in first ? 'Date' : '<DATE>' in first ? '<DATE>' : undefined);
  const closeKey =
    first && ('Close' in first ? 'Close' : '<CLOSE>' in first ? '<CLOSE>' : undefined);
  if (first && (dateKey === undefined || closeKey === undefined)) {
    throw new MarketDataError(
      'parse_failed',
      `no date and close columns in the answer of ${hostOf(name)}`,
    );
  }
  const rows: PriceRow[] = [];
  for (const record of records) {
    const raw = record[dateKey as string] ?? '';
    const date = /^\d{8}$/.test(raw)
      ? `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6)}`
      : raw;
    const close = Number(record[closeKey as string]);
    if (/^\d{4}-\d{2}-\d{2}$/.test(date) && close > 0) rows.push({ date, close });
  }
  return rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
