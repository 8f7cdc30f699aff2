import { strFromU8, unzipSync } from 'fflate';
import pRetry, { AbortError } from 'p-retry';
import { MarketDataError } from '../errors.js';
import type { FxCoverage, FxProvider, FxRate, FxRateOptions } from '../fx-rate.js';
import { assertOptionalIsoDate, normaliseCurrency } from '../validation.js';
import { parseEcbCsv, parseEcbXml } from './ecb-parsers.js';
import { buildRateTable, coverageOf, lookupRate, type RateTable } from './rate-table.js';

/** The ECB's daily reference rates (published around 16:00 CET on TARGET business days). */
export const ECB_DAILY_XML_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';
/** The ECB's reference rates of the last 90 days (XML, same layout as the daily file). */
export const ECB_HIST_90D_XML_URL =
  'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml';
/** Every ECB reference rate since 1999-01-04: a zip holding `eurofxref-hist.csv`. */
export const ECB_HIST_ZIP_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip';

/** Options of {@link createEcbHttpFxProvider}. */
export interface EcbHttpFxProviderOptions {
  /** Where to fetch the latest rates; default {@link ECB_DAILY_XML_URL} (any ECB XML works). */
  readonly url?: string;
  /**
   * The recent history, for days before the latest: default {@link ECB_HIST_90D_XML_URL}; null:
   * none (a day before the latest document's yields `null`, as the daily file alone answers).
   */
  readonly recentUrl?: string | null;
  /**
   * The full history, for days older than the recent history: default {@link ECB_HIST_ZIP_URL}
   * (a zip of `eurofxref-hist.csv`; a plain ECB CSV or XML answer is read as well); null: none.
   */
  readonly historyUrl?: string | null;
  /** `fetch` implementation; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
  /** Per-request timeout, milliseconds; default 5,000 (the latest), 30,000 (the histories). */
  readonly timeoutMs?: number;
  /** Retries of a timeout, network error, 429 or 5xx (exponential backoff); default 2. */
  readonly retries?: number;
  /** First retry delay, milliseconds (doubling); default 200. */
  readonly minRetryDelayMs?: number;
  /** How long the latest and the recent documents are reused, milliseconds; default 1 hour. */
  readonly ttlMs?: number;
  /** Clock for the cache, epoch milliseconds; default `Date.now`. */
  readonly now?: () => number;
}

/** A fetched document kept in memory; concurrent fetches share one request. */
interface CachedDocument {
  /**
   * The table, fetched when absent or older than `maxAgeMs` (on a failed fetch, the one fetched
   * before, if any).
   */
  get(maxAgeMs: number): Promise<RateTable>;
  /** The table fetched last, whatever its age; `null` before the first fetch. Never fetches. */
  peek(): RateTable | null;
}

/**
 * Live FX provider over the ECB's reference rates (base EUR; cross rates through EUR), with their
 * history for days in the past:
 * - no `asOf`, or `asOf` on or after the latest publication: the daily XML (`url`);
 * - an earlier `asOf` within the last 90 days: the 90-day XML (`recentUrl`);
 * - older: the full history zip (`historyUrl`, ~0.6 MB, every business day since 1999), fetched
 *   on first need and kept in memory: past rates do not change. It is fetched again only when a
 *   day asked falls after its last day and before the recent history's first (a process running
 *   for months).
 * The latest and recent documents are reused for `ttlMs`. Every fetch has a timeout and is
 * retried (p-retry, exponential backoff) on a timeout, network error, 429 or 5xx; a failed refresh
 * serves the document fetched before (its rates carry their own `asOf`). As with the file
 * provider, a day without rates (weekend, TARGET holiday) uses the last business day before it.
 *
 * @throws {MarketDataError} from `getRate`: `invalid_argument`, `upstream_unavailable` (network
 *   error, timeout, non-2xx after the retries), `parse_failed` (not an ECB document).
 * @example
 * ```ts
 * const fx = createEcbHttpFxProvider({ ttlMs: 15 * 60_000 });
 * await fx.getRate('EUR', 'USD'); // { rate: 1.1252, asOf: '2025-05-09', ... } (the daily XML)
 * await fx.getRate('EUR', 'USD', { asOf: '2016-06-24' }); // { rate: 1.1066, ... } (the zip)
 * ```
 */
export function createEcbHttpFxProvider(options: EcbHttpFxProviderOptions = {}): FxProvider {
  const ttlMs = options.ttlMs ?? 3_600_000;
  const now = options.now ?? Date.now;
  const document = (url: string, timeoutMs: number) =>
    cachedDocument(() => fetchTable(url, options, timeoutMs), now);
  const latest = document(options.url ?? ECB_DAILY_XML_URL, options.timeoutMs ?? 5_000);
  const recentUrl = options.recentUrl === undefined ? ECB_HIST_90D_XML_URL : options.recentUrl;
  const historyUrl = options.historyUrl === undefined ? ECB_HIST_ZIP_URL : options.historyUrl;
  const historyTimeout = options.timeoutMs ?? 30_000;
  const recent = recentUrl === null ? null : document(recentUrl, historyTimeout);
  const full = historyUrl === null ? null : document(historyUrl, historyTimeout);

  const tableFor = async (asOf: string | undefined): Promise<RateTable> => {
    const daily = await latest.get(ttlMs);
    if (asOf === undefined || asOf >= firstDay(daily)) return daily;
    const last90 = recent === null ? daily : await recent.get(ttlMs);
    if (asOf >= firstDay(last90) || full === null) return last90;
    const all = await full.get(Number.POSITIVE_INFINITY);
    // a day between the full history's end and the recent history's start: the zip is old
    return asOf > lastDay(all) ? full.get(ttlMs) : all;
  };

  return {
    async getRate(
      from: string,
      to: string,
      rateOptions: FxRateOptions = {},
    ): Promise<FxRate | null> {
      const base = normaliseCurrency(from);
      const quote = normaliseCurrency(to);
      assertOptionalIsoDate(rateOptions.asOf, 'asOf');
      return lookupRate(await tableFor(rateOptions.asOf), base, quote, rateOptions.asOf);
    },
    // from the documents already downloaded: a message about missing rates costs no request
    async coverage(currency: string): Promise<FxCoverage | null> {
      const held = [latest, recent, full].flatMap((d) => d?.peek() ?? []);
      return coverageOf(held, normaliseCurrency(currency));
    },
  };
}

function firstDay(table: RateTable): string {
  return table.days[0]?.date ?? '9999-12-31';
}

function lastDay(table: RateTable): string {
  return table.days.at(-1)?.date ?? '0000-01-01';
}

function cachedDocument(load: () => Promise<RateTable>, now: () => number): CachedDocument {
  let cached: { table: RateTable; fetchedAt: number } | null = null;
  let inFlight: Promise<RateTable> | null = null;
  const fetchNow = (): Promise<RateTable> => {
    inFlight ??= load()
      .then((table) => {
        cached = { table, fetchedAt: now() };
        return table;
      })
      .catch((error: unknown) => {
        if (cached) return cached.table;
        throw error;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  return {
    peek: () => cached?.table ?? null,
    get: (maxAgeMs) =>
      cached !== null && now() - cached.fetchedAt < maxAgeMs
        ? Promise.resolve(cached.table)
        : fetchNow(),
  };
}

async function fetchTable(
  url: string,
  options: EcbHttpFxProviderOptions,
  timeoutMs: number,
): Promise<RateTable> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const attempt = async (): Promise<Uint8Array> => {
    const response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 429 || response.status >= 500) {
      throw new Error(`HTTP ${response.status}`);
    }
    if (!response.ok) throw new AbortError(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  let bytes: Uint8Array;
  try {
    bytes = await pRetry(attempt, {
      retries: options.retries ?? 2,
      minTimeout: options.minRetryDelayMs ?? 200,
      factor: 2,
    });
  } catch (error) {
    throw new MarketDataError('upstream_unavailable', `ECB rates unavailable from ${url}`, {
      cause: error,
    });
  }
  const text = documentText(bytes, url);
  const days = text.trimStart().startsWith('<') ? parseEcbXml(text) : parseEcbCsv(text);
  return buildRateTable(days, `ecb:${url}`);
}

/** The text of an answer: the first CSV or XML member of a zip (`PK` magic), else the bytes. */
function documentText(bytes: Uint8Array, url: string): string {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) return strFromU8(bytes);
  let members: Record<string, Uint8Array>;
  try {
    members = unzipSync(bytes, { filter: (file) => /\.(csv|xml)$/i.test(file.name) });
  } catch (error) {
    throw new MarketDataError('parse_failed', `malformed zip from ${url}`, { cause: error });
  }
  const member = Object.values(members)[0];
  if (member === undefined) {
    throw new MarketDataError('parse_failed', `no CSV or XML file in the zip from ${url}`);
  }
  return strFromU8(member);
}
