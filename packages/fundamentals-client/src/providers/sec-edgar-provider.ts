import type { CompanyProfile, Fundamentals } from '@svc/schemas';
import { parseCompanyFacts } from '../companyfacts/parse-company-facts.js';
import { FundamentalsError } from '../errors.js';
import { normaliseSymbol } from '../symbol.js';
import { createJsonClient, type FetchLike, type JsonClient } from './http-json.js';
import { createLoadCache, memoiseAsync } from './memoise.js';
import { DEFAULT_MIN_YEARS, requireMinYears } from './min-years.js';
import { type FundamentalsProvider, type GetFundamentalsOptions, memoKey } from './provider.js';
import { parseCompanyTickers, parseSubmissions } from './sec-documents.js';

/** SEC's fair-access ceiling: no more than 10 requests per second per user. */
export const SEC_MAX_REQUESTS_PER_SECOND = 10;

/** Options of {@link createSecEdgarProvider}. */
export interface SecEdgarProviderOptions {
  /**
   * User-Agent sent with every request. SEC requires a company or person name and a contact
   * email, e.g. `"Acme Research admin@acme.example"` (https://www.sec.gov/os/accessing-edgar-data).
   */
  readonly userAgent: string;
  /** Data API origin (`SEC_DATA_URL`). Default `https://data.sec.gov`. */
  readonly baseUrl?: string;
  /**
   * Web origin (`SEC_WWW_URL`), for the ticker map `/files/company_tickers.json`. Default
   * `https://www.sec.gov`.
   */
  readonly wwwUrl?: string;
  /** Ticker map. Default `{wwwUrl}/files/company_tickers.json`. */
  readonly tickersUrl?: string;
  /** Awaited before every request: a budget shared across processes (see `JsonClientOptions`). */
  readonly acquire?: (signal?: AbortSignal) => Promise<void>;
  /** `fetch` implementation. Default the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Requests per second, retries included; at most (and by default) 10. */
  readonly maxRequestsPerSecond?: number;
  /** Per-request timeout, milliseconds. Default 15,000. */
  readonly timeoutMs?: number;
  /** Retries on 429/5xx/network errors/timeouts. Default 3. */
  readonly retries?: number;
  /** First retry delay, milliseconds (doubles per retry, randomised ×1–2). Default 500. */
  readonly retryMinTimeoutMs?: number;
  /** Fewer usable fiscal years than this is `insufficient_data`. Default 3. */
  readonly minYears?: number;
  /** Parsed companies kept in memory. Default 64. */
  readonly cacheSize?: number;
  /** How long a parsed company and the ticker map stay cached, milliseconds. Default 6 hours. */
  readonly cacheTtlMs?: number;
  /** Clock for `retrievedAt` and cache expiry. Default `() => new Date()`. */
  readonly now?: () => Date;
}

const CONTACT = /[^\s@]+@[^\s@]+\.[^\s@]+/;

/**
 * A {@link FundamentalsProvider} over SEC EDGAR's live JSON APIs: ticker → CIK through SEC's
 * `company_tickers.json` (cached), `/api/xbrl/companyfacts/CIK##########.json` parsed with
 * `parseCompanyFacts`, and SIC code / fiscal year end from `/submissions/CIK##########.json`
 * (optional: the profile stays without SIC if that document fails). Requests carry the configured
 * User-Agent, are throttled to `maxRequestsPerSecond`, time out after `timeoutMs`, and are
 * retried with exponential backoff on 429, 5xx and network errors. With `asOf` the same
 * document is read as of that date (`parseCompanyFacts` option `asOf`), cached under its own key.
 *
 * @throws {FundamentalsError} `invalid_config` at construction when `userAgent` has no contact
 *   email or `maxRequestsPerSecond` is not in 1–10. From `getFundamentals`: `invalid_symbol`,
 *   `insufficient_data` (unknown ticker, 404, too few years), `insufficient_history` (too few years
 *   filed by `asOf`), `upstream_unavailable`,
 *   `parse_failed`.
 * @example
 * ```ts
 * const sec = createSecEdgarProvider({ userAgent: 'Acme Research admin@acme.example' });
 * const f = await sec.getFundamentals('MSFT', { signal: AbortSignal.timeout(30_000) });
 * ```
 */
export function createSecEdgarProvider(options: SecEdgarProviderOptions): FundamentalsProvider {
  const config = validate(options);
  const get = createJsonClient(config);
  const now = options.now ?? (() => new Date());
  const ttlMs = options.cacheTtlMs ?? 6 * 3_600_000;
  const nowMs = () => now().getTime();
  const cache = createLoadCache<Fundamentals>({
    maxEntries: options.cacheSize ?? 64,
    ttlMs,
    now: nowMs,
  });
  const tickerCache = createLoadCache<Map<string, string>>({
    maxEntries: 1,
    ttlMs,
    now: nowMs,
  });
  const minYears = options.minYears ?? DEFAULT_MIN_YEARS;
  const tickers = (signal?: AbortSignal) =>
    memoiseAsync(tickerCache, 'tickers', () => loadTickers(get, config.tickersUrl, signal));
  return {
    name: 'sec-edgar',
    async getFundamentals(ticker: string, callOptions?: GetFundamentalsOptions) {
      const symbol = normaliseSymbol(ticker);
      const signal = callOptions?.signal;
      const asOf = callOptions?.asOf;
      const key = memoKey(symbol, asOf);
      if (callOptions?.fresh) cache.delete(key);
      const f = await memoiseAsync(cache, key, async () => {
        const cik = (await tickers(signal)).get(symbol);
        if (!cik) throw new FundamentalsError('insufficient_data', `Unknown ticker ${symbol}`);
        return loadCompany(get, config.baseUrl, { ticker: symbol, cik, asOf }, now, signal);
      });
      return requireMinYears(f, minYears);
    },
  };
}

function validate(options: SecEdgarProviderOptions) {
  if (typeof options.userAgent !== 'string' || !CONTACT.test(options.userAgent)) {
    throw new FundamentalsError(
      'invalid_config',
      'sec-edgar provider: userAgent must name you and give a contact email (SEC fair-access policy), e.g. "Acme Research admin@acme.example"',
    );
  }
  const rate = options.maxRequestsPerSecond ?? SEC_MAX_REQUESTS_PER_SECOND;
  if (!Number.isInteger(rate) || rate < 1 || rate > SEC_MAX_REQUESTS_PER_SECOND) {
    throw new FundamentalsError(
      'invalid_config',
      `sec-edgar provider: maxRequestsPerSecond must be an integer 1–${SEC_MAX_REQUESTS_PER_SECOND} (SEC fair-access policy), got ${rate}`,
    );
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const www = (options.wwwUrl ?? 'https://www.sec.gov').replace(/\/+$/, '');
  return {
    ...(options.acquire ? { acquire: options.acquire } : {}),
    userAgent: options.userAgent,
    fetch: fetchImpl,
    maxRequestsPerSecond: rate,
    timeoutMs: options.timeoutMs ?? 15_000,
    retries: options.retries ?? 3,
    retryMinTimeoutMs: options.retryMinTimeoutMs ?? 500,
    baseUrl: (options.baseUrl ?? 'https://data.sec.gov').replace(/\/+$/, ''),
    tickersUrl: options.tickersUrl ?? `${www}/files/company_tickers.json`,
  };
}

async function loadTickers(get: JsonClient, url: string, signal?: AbortSignal) {
  const result = await get(url, signal);
  if (!result.found) throw new FundamentalsError('upstream_unavailable', `${url} answered 404`);
  return parseCompanyTickers(result.json);
}

async function loadCompany(
  get: JsonClient,
  baseUrl: string,
  company: { ticker: string; cik: string; asOf: string | undefined },
  now: () => Date,
  signal?: AbortSignal,
): Promise<Fundamentals> {
  const { ticker, cik, asOf } = company;
  const [facts, profile] = await Promise.all([
    get(`${baseUrl}/api/xbrl/companyfacts/CIK${cik}.json`, signal),
    loadProfile(get, `${baseUrl}/submissions/CIK${cik}.json`, signal),
  ]);
  if (!facts.found) {
    throw new FundamentalsError(
      'insufficient_data',
      `SEC has no XBRL companyfacts for ${ticker} (CIK ${cik})`,
    );
  }
  return parseCompanyFacts(facts.json, {
    ticker,
    profile,
    provider: 'sec-edgar',
    retrievedAt: now().toISOString(),
    ...(asOf === undefined ? {} : { asOf }),
  });
}

/** Submissions enrich the profile (SIC, fiscal year end); their failure is not fatal. */
async function loadProfile(get: JsonClient, url: string, signal?: AbortSignal) {
  try {
    const result = await get(url, signal);
    return result.found ? parseSubmissions(result.json) : ({} as Partial<CompanyProfile>);
  } catch (error) {
    if (signal?.aborted) throw error;
    return {} as Partial<CompanyProfile>;
  }
}
