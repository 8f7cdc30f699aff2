import { MarketDataError } from '../errors.js';
import type { FxProvider } from '../fx-rate.js';
import { parseEcbXml } from './ecb-parsers.js';
import { buildRateTable, type RateTable, rateTableProvider } from './rate-table.js';

/** The ECB's daily reference rates (published around 16:00 CET on TARGET business days). */
export const ECB_DAILY_XML_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/** Options of {@link createEcbHttpFxProvider}. */
export interface EcbHttpFxProviderOptions {
  /** Where to fetch the XML; default {@link ECB_DAILY_XML_URL} (any ECB XML format works). */
  readonly url?: string;
  /** `fetch` implementation; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
  /** Per-request timeout, milliseconds; default 5,000. */
  readonly timeoutMs?: number;
  /** How long a fetched document is reused, milliseconds; default 1 hour. */
  readonly ttlMs?: number;
  /** Clock for the cache, epoch milliseconds; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Live FX provider over the ECB daily XML (base EUR; cross rates through EUR), cached for
 * `ttlMs`. Concurrent calls share one request. When a refresh fails and an older document is
 * cached, the older rates are served (they carry their own `asOf`); without one the error is
 * thrown. The daily file holds one business day: `asOf` before it yields `null`.
 *
 * @throws {MarketDataError} from `getRate`: `invalid_argument`, `upstream_unavailable` (network
 *   error, timeout, non-2xx), `parse_failed` (not ECB XML).
 * @example
 * ```ts
 * const fx = createEcbHttpFxProvider({ ttlMs: 15 * 60_000 });
 * const usd = await fx.getRate('EUR', 'USD'); // { rate: 1.1252, asOf: '2025-05-09', ... }
 * ```
 */
export function createEcbHttpFxProvider(options: EcbHttpFxProviderOptions = {}): FxProvider {
  const url = options.url ?? ECB_DAILY_XML_URL;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const now = options.now ?? Date.now;
  let cached: { table: RateTable; fetchedAt: number } | null = null;
  let inFlight: Promise<RateTable> | null = null;

  const refresh = async (): Promise<RateTable> => {
    try {
      const table = await fetchTable(url, doFetch, timeoutMs);
      cached = { table, fetchedAt: now() };
      return table;
    } catch (error) {
      if (cached) return cached.table;
      throw error;
    } finally {
      inFlight = null;
    }
  };

  const current = (): Promise<RateTable> => {
    if (cached && now() - cached.fetchedAt < ttlMs) return Promise.resolve(cached.table);
    inFlight ??= refresh();
    return inFlight;
  };

  return rateTableProvider(current);
}

async function fetchTable(
  url: string,
  doFetch: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<RateTable> {
  let text: string;
  try {
    const response = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    throw new MarketDataError('upstream_unavailable', `ECB rates unavailable from ${url}`, {
      cause: error,
    });
  }
  return buildRateTable(parseEcbXml(text), `ecb:${url}`);
}
