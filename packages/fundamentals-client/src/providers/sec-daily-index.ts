import { FundamentalsError } from '../errors.js';
import {
  createJsonClient,
  createTextClient,
  type FetchLike,
  type JsonClientOptions,
} from './http-json.js';
import { padCik, parseCompanyTickers } from './sec-documents.js';
import { SEC_MAX_REQUESTS_PER_SECOND } from './sec-edgar-provider.js';

/** The annual report forms the refresh pass acts on. */
export const ANNUAL_FORMS = ['10-K', '10-K/A', '20-F', '40-F'] as const;

/** One line of SEC's daily form index. */
export interface DailyIndexEntry {
  /** Form type as filed, e.g. `10-K`, `10-K/A`, `SC 13G`. */
  readonly form: string;
  readonly company: string;
  /** CIK, zero-padded to 10 digits. */
  readonly cik: string;
  /** YYYY-MM-DD. */
  readonly filed: string;
  /** Accession number, e.g. `0000320193-25-000079`. */
  readonly accession: string;
}

const LINE = /^(\S.*?)\s{2,}(.*?)\s+(\d{1,10})\s+(\d{8})\s+(\S+)\s*$/;

export { padCik };

/**
 * Parses a daily form index (`form.YYYYMMDD.idx`): the fixed-width lines after the dashed rule,
 * each a form type, company name, CIK, date filed (YYYYMMDD) and file name, whose base name is
 * the accession number. Lines that do not read as such are skipped.
 *
 * @throws FundamentalsError `parse_failed` when the text has no dashed rule (not an index).
 */
export function parseFormIndex(text: string): DailyIndexEntry[] {
  const lines = text.split(/\r?\n/);
  const rule = lines.findIndex((line) => /^-{20,}\s*$/.test(line));
  if (rule < 0) throw new FundamentalsError('parse_failed', 'Not an SEC daily form index');
  const out: DailyIndexEntry[] = [];
  for (const line of lines.slice(rule + 1)) {
    const m = LINE.exec(line);
    if (!m) continue;
    const [, form, company, cik, date, file] = m as unknown as string[];
    const base =
      (file as string)
        .split('/')
        .at(-1)
        ?.replace(/\.txt$/, '') ?? '';
    if (!/^\d{10}-\d{2}-\d{6}$/.test(base)) continue;
    const d = date as string;
    out.push({
      form: (form as string).trim(),
      company: (company as string).trim(),
      cik: padCik(cik as string),
      filed: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`,
      accession: base,
    });
  }
  return out;
}

/** The daily form index's URL of a day (YYYY-MM-DD) under `wwwUrl`. */
export function dailyIndexUrl(wwwUrl: string, day: string): string {
  const [y, m, d] = day.split('-');
  const quarter = Math.floor((Number(m) - 1) / 3) + 1;
  return `${wwwUrl.replace(/\/+$/, '')}/Archives/edgar/daily-index/${y}/QTR${quarter}/form.${y}${m}${d}.idx`;
}

/** A filing of a company's submissions document (`filings.recent`). */
export interface SubmittedFiling {
  readonly accession: string;
  readonly form: string;
  /** YYYY-MM-DD. */
  readonly filed: string;
}

/** Options of {@link createSecFilingsClient}. */
export interface SecFilingsClientOptions {
  /** User-Agent SEC requires: a name and a contact email. */
  readonly userAgent: string;
  /** `SEC_WWW_URL`: the daily index and the ticker map. Default `https://www.sec.gov`. */
  readonly wwwUrl?: string;
  /** `SEC_DATA_URL`: submissions. Default `https://data.sec.gov`. */
  readonly dataUrl?: string;
  readonly fetch?: FetchLike;
  /** A budget shared with other processes, awaited before every request. */
  readonly acquire?: JsonClientOptions['acquire'];
  /** Requests per second in this process, at most 10. Default 10. */
  readonly maxRequestsPerSecond?: number;
  readonly timeoutMs?: number;
  readonly retries?: number;
  readonly retryMinTimeoutMs?: number;
}

/**
 * SEC's filing feeds for the refresh pass: the daily form index of a day (a 404 or 403 means it
 * is not published yet: `{ found: false, status }`), the ticker map (`company_tickers.json`) and
 * a company's recent filings (`/submissions/CIK##########.json`). Polite as the provider: the
 * User-Agent, ≤ 10 requests a second, retries with backoff on 429/5xx/timeouts, and the shared
 * budget when given.
 *
 * @example
 * const sec = createSecFilingsClient({ userAgent: 'Acme admin@acme.example' });
 * const day = await sec.dailyIndex('2025-10-31');
 * if (day.found) day.entries.filter((e) => e.form === '10-K');
 */
export function createSecFilingsClient(options: SecFilingsClientOptions) {
  if (!/[^\s@]+@[^\s@]+\.[^\s@]+/.test(options.userAgent)) {
    throw new FundamentalsError(
      'invalid_config',
      'SEC requests need a User-Agent with a contact email (SEC_USER_AGENT)',
    );
  }
  const www = (options.wwwUrl ?? 'https://www.sec.gov').replace(/\/+$/, '');
  const data = (options.dataUrl ?? 'https://data.sec.gov').replace(/\/+$/, '');
  const common: JsonClientOptions = {
    userAgent: options.userAgent,
    fetch: options.fetch ?? globalThis.fetch,
    maxRequestsPerSecond: Math.min(
      options.maxRequestsPerSecond ?? SEC_MAX_REQUESTS_PER_SECOND,
      SEC_MAX_REQUESTS_PER_SECOND,
    ),
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    retryMinTimeoutMs: options.retryMinTimeoutMs ?? 500,
    ...(options.acquire ? { acquire: options.acquire } : {}),
  };
  const text = createTextClient({ ...common, missing: [403, 404] });
  const json = createJsonClient(common);
  return {
    /** The day's index entries, or `{ found: false, status }` while it is not published. */
    async dailyIndex(
      day: string,
      signal?: AbortSignal,
    ): Promise<{ found: true; entries: DailyIndexEntry[] } | { found: false; status: number }> {
      const result = await text(dailyIndexUrl(www, day), signal);
      if (!result.found) return result;
      return { found: true, entries: parseFormIndex(result.text) };
    },

    /** Ticker → 10-digit CIK, from `company_tickers.json`. */
    async tickers(signal?: AbortSignal): Promise<Map<string, string>> {
      const result = await json(`${www}/files/company_tickers.json`, signal);
      if (!result.found) {
        throw new FundamentalsError('upstream_unavailable', 'company_tickers.json answered 404');
      }
      return parseCompanyTickers(result.json);
    },

    /** A company's recent filings (`filings.recent`), newest first; empty for an unknown CIK. */
    async recentFilings(cik: string, signal?: AbortSignal): Promise<SubmittedFiling[]> {
      const result = await json(`${data}/submissions/CIK${padCik(cik)}.json`, signal);
      if (!result.found) return [];
      const recent = (result.json as { filings?: { recent?: Record<string, unknown[]> } }).filings
        ?.recent;
      const accessions = recent?.accessionNumber ?? [];
      return accessions.map((accession, i) => ({
        accession: String(accession),
        form: String(recent?.form?.[i] ?? ''),
        filed: String(recent?.filingDate?.[i] ?? ''),
      }));
    },
  };
}

/** SEC's filing feeds (see {@link createSecFilingsClient}). */
export type SecFilingsClient = ReturnType<typeof createSecFilingsClient>;
