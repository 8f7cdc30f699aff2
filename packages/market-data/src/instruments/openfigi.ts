import type { Instrument, InstrumentKind } from '@svc/schemas';
import pRetry, { AbortError } from 'p-retry';
import { z } from 'zod';
import { MarketDataError } from '../errors.js';
import { EXCHANGES } from './listings.js';

/** What to identify: an ISIN, or a ticker (of a US listing unless `exchCode` says otherwise). */
export interface InstrumentQuery {
  readonly isin?: string;
  readonly ticker?: string;
  /** The currency the user traded it in: picks the listing among several. */
  readonly currency?: string;
}

/** Options of {@link createOpenFigiClient}. */
export interface OpenFigiOptions {
  /** API root; default `https://api.openfigi.com` (`OPENFIGI_URL`). Requests go to `/v3/mapping`. */
  readonly baseUrl?: string;
  /** `OPENFIGI_API_KEY`, sent as `X-OPENFIGI-APIKEY`; raises the limits. Never logged. */
  readonly apiKey?: string;
  /** Per-request timeout, milliseconds; default 10,000. */
  readonly timeoutMs?: number;
  /** Retries of a request after 429, 5xx, network errors and timeouts; default 2. */
  readonly retries?: number;
  /**
   * Least time between two requests, milliseconds. Default from OpenFIGI's documented limits:
   * 25 requests a minute without a key (2,400 ms), 25 per 6 seconds with one (240 ms).
   */
  readonly minIntervalMs?: number;
  /** `fetch` implementation; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
}

/** Jobs per mapping request OpenFIGI accepts: 10 without an API key, 100 with one. */
export const OPENFIGI_JOBS_PER_REQUEST = { withoutKey: 10, withKey: 100 } as const;

/**
 * One result of `POST /v3/mapping`, in the order of the jobs: `data` (the FIGI records, one per
 * listing), or `warning` (`No identifier found.`), or `error` (a malformed job).
 */
const FigiRecord = z.looseObject({
  figi: z.string().optional(),
  ticker: z.string().nullish(),
  name: z.string().nullish(),
  exchCode: z.string().nullish(),
  securityType: z.string().nullish(),
  securityType2: z.string().nullish(),
  marketSector: z.string().nullish(),
});
const MappingAnswer = z.array(
  z.looseObject({
    data: z.array(FigiRecord).optional(),
    warning: z.string().optional(),
    error: z.string().optional(),
  }),
);
type FigiRecord = z.infer<typeof FigiRecord>;

/**
 * OpenFIGI exchange codes → ISO 10383 MIC (Bloomberg's codes: `UN` NYSE, `UW`/`UQ`/`UR` Nasdaq
 * tiers, `UA` NYSE American, `UP` NYSE Arca, `GY` Xetra, `GR` Frankfurt, `NA` Euronext
 * Amsterdam, `FP` Euronext Paris, `BB` Euronext Brussels, `IM` Borsa Italiana, `SM` Madrid, `LN`
 * London, `SW`/`SE` SIX Swiss, `CT` Toronto). `US` is the composite US listing (no single MIC).
 */
const EXCH_TO_MIC: Readonly<Record<string, string>> = {
  UN: 'XNYS',
  UW: 'XNAS',
  UQ: 'XNAS',
  UR: 'XNAS',
  UA: 'XASE',
  UP: 'ARCX',
  GY: 'XETR',
  GR: 'XFRA',
  NA: 'XAMS',
  FP: 'XPAR',
  BB: 'XBRU',
  IM: 'XMIL',
  SM: 'XMAD',
  LN: 'XLON',
  SW: 'XSWX',
  SE: 'XSWX',
  CT: 'XTSE',
};

/** Exchanges tried first when an ISIN lists on several, most liquid European venues first. */
const PREFERRED = ['US', 'GY', 'NA', 'LN', 'FP', 'SW', 'SE', 'IM', 'SM', 'BB', 'GR', 'CT'];

/**
 * A client of OpenFIGI's mapping API (`POST {baseUrl}/v3/mapping`, documentation
 * https://www.openfigi.com/api/documentation): ISINs (`ID_ISIN`) and tickers (`TICKER` with
 * `exchCode: "US"`) to the listing's ticker, exchange and kind. Requests are batched to the
 * documented jobs per request ({@link OPENFIGI_JOBS_PER_REQUEST}) and spaced to its requests per
 * window (`minIntervalMs`); 429 and 5xx are retried with backoff (p-retry).
 *
 * `map` answers one entry per query, in order: the {@link Instrument} (resolution `openfigi`) of
 * the listing chosen, or `null` when OpenFIGI found nothing (`warning`/`error` for the job).
 * Listing choice: among the {@link PREFERRED} exchanges, one trading in the query's currency
 * (the US composite listing, `exchCode: US`, counts as USD; its MIC is the US exchange that lists
 * it, when the answer has one), else the US composite listing, else the first preferred one,
 * else the first record. Kind:
 * `marketSector` Corp/Govt/Muni/Mtge → bond, Curncy/M-Mkt → cash; security types naming a
 * fund, ETP or ETF → fund; other equity → share; anything else → other.
 *
 * @throws {MarketDataError} `upstream_unavailable` when the service fails after the retries or
 *   refuses the request, `parse_failed` when the answer is not the documented shape.
 */
export function createOpenFigiClient(options: OpenFigiOptions = {}) {
  const base = (options.baseUrl ?? 'https://api.openfigi.com').replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const perRequest = options.apiKey
    ? OPENFIGI_JOBS_PER_REQUEST.withKey
    : OPENFIGI_JOBS_PER_REQUEST.withoutKey;
  const interval = options.minIntervalMs ?? (options.apiKey ? 240 : 2_400);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (options.apiKey) headers['x-openfigi-apikey'] = options.apiKey;
  let nextAt = 0;
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs `task` (one HTTP request) after the previous one and at least `interval` after its start. */
  const paced = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      const wait = nextAt - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      nextAt = Date.now() + interval;
      return task();
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const post = async (jobs: object[]): Promise<z.infer<typeof MappingAnswer>> => {
    const attempt = () =>
      paced(async () => {
        const response = await doFetch(`${base}/v3/mapping`, {
          method: 'POST',
          headers,
          body: JSON.stringify(jobs),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        if (response.status === 429 || response.status >= 500) {
          throw new Error(`OpenFIGI answered HTTP ${response.status}`);
        }
        if (!response.ok) {
          throw new AbortError(
            new MarketDataError(
              'upstream_unavailable',
              `OpenFIGI answered HTTP ${response.status}`,
            ),
          );
        }
        const parsed = MappingAnswer.safeParse(await response.json().catch(() => undefined));
        if (!parsed.success || parsed.data.length !== jobs.length) {
          throw new AbortError(
            new MarketDataError(
              'parse_failed',
              'OpenFIGI answered something else than one result per job',
            ),
          );
        }
        return parsed.data;
      });
    try {
      return await pRetry(attempt, {
        retries: options.retries ?? 2,
        minTimeout: interval,
        factor: 2,
      });
    } catch (error) {
      if (error instanceof MarketDataError) throw error;
      throw new MarketDataError('upstream_unavailable', 'OpenFIGI could not be reached', {
        cause: error,
      });
    }
  };

  return {
    name: 'openfigi',
    /** Jobs per request this client sends (10, or 100 with an API key). */
    jobsPerRequest: perRequest,
    async map(queries: readonly InstrumentQuery[]): Promise<(Instrument | null)[]> {
      const out: (Instrument | null)[] = [];
      for (let start = 0; start < queries.length; start += perRequest) {
        const chunk = queries.slice(start, start + perRequest);
        const jobs = chunk.map((q) =>
          q.isin
            ? { idType: 'ID_ISIN', idValue: q.isin }
            : { idType: 'TICKER', idValue: q.ticker ?? '', exchCode: 'US' },
        );
        const answers = await post(jobs);
        answers.forEach((answer, i) => {
          const query = chunk[i] as InstrumentQuery;
          out.push(answer.data?.length ? toInstrument(answer.data, query) : null);
        });
      }
      return out;
    },
  };
}

/** An OpenFIGI mapping client (see {@link createOpenFigiClient}). */
export type OpenFigiClient = ReturnType<typeof createOpenFigiClient>;

function toInstrument(records: readonly FigiRecord[], query: InstrumentQuery): Instrument | null {
  const withTicker = records.filter((r) => r.ticker);
  if (withTicker.length === 0) return null;
  const chosen = chooseListing(withTicker, query.currency);
  const exch = chosen.exchCode ?? '';
  const mic =
    exch === 'US' ? usMic(withTicker.filter((r) => r.ticker === chosen.ticker)) : EXCH_TO_MIC[exch];
  const currency =
    exch === 'US' ? 'USD' : ((mic && EXCHANGES[mic]?.currency) ?? query.currency ?? 'USD');
  const name = chosen.name?.trim();
  return {
    ...(query.isin ? { isin: query.isin } : {}),
    ticker: (chosen.ticker as string).replaceAll('/', '-').toUpperCase(),
    ...(mic ? { mic } : {}),
    currency,
    ...(name ? { name: name.slice(0, 200) } : {}),
    kind: kindOf(chosen),
    resolution: 'openfigi',
  };
}

function chooseListing(records: readonly FigiRecord[], currency?: string): FigiRecord {
  const ranked = PREFERRED.flatMap((code) => records.filter((r) => r.exchCode === code));
  const currencyOf = (r: FigiRecord) =>
    r.exchCode === 'US' ? 'USD' : EXCHANGES[EXCH_TO_MIC[r.exchCode ?? ''] ?? '']?.currency;
  const inCurrency = currency ? ranked.find((r) => currencyOf(r) === currency) : undefined;
  const us = ranked.find((r) => r.exchCode === 'US');
  return inCurrency ?? us ?? ranked[0] ?? (records[0] as FigiRecord);
}

/** The MIC of the US exchange among a composite's listings: Nasdaq tiers, NYSE, NYSE American, Arca. */
function usMic(records: readonly FigiRecord[]): string | undefined {
  for (const code of ['UW', 'UQ', 'UR', 'UN', 'UA', 'UP']) {
    if (records.some((r) => r.exchCode === code)) return EXCH_TO_MIC[code];
  }
  return undefined;
}

function kindOf(record: FigiRecord): InstrumentKind {
  const sector = (record.marketSector ?? '').toLowerCase();
  const type = `${record.securityType ?? ''} ${record.securityType2 ?? ''}`.toLowerCase();
  if (['corp', 'govt', 'muni', 'mtge'].includes(sector)) return 'bond';
  if (sector === 'curncy' || sector === 'm-mkt') return 'cash';
  if (/fund|etp|etf|unit trust/.test(type)) return 'fund';
  if (sector === 'equity') return 'share';
  return 'other';
}
