import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompanyProfile, Fundamentals } from '@svc/schemas';
import { parseCompanyFacts } from '../companyfacts/parse-company-facts.js';
import { FundamentalsError } from '../errors.js';
import { normaliseSymbol } from '../symbol.js';
import { createLoadCache, memoiseAsync } from './memoise.js';
import { DEFAULT_MIN_YEARS, requireMinYears } from './min-years.js';
import {
  type GetFundamentalsOptions,
  type ListableFundamentalsProvider,
  memoKey,
} from './provider.js';
import { padCik, parseCompanyTickers, parseSubmissions } from './sec-documents.js';

/** Options of {@link createSnapshotProvider}. */
export interface SnapshotProviderOptions {
  /**
   * Folder of companyfacts JSON files named `CIK##########.json` (SEC bulk layout) or
   * `TICKER_CIK##########.json`; optionally `company_tickers.json` and
   * `submissions/CIK##########.json` next to them.
   */
  readonly dir: string;
  /** SEC-format ticker map. Default: `<dir>/company_tickers.json` when present. */
  readonly tickersFile?: string;
  /** Fewer usable fiscal years than this is `insufficient_data`. Default 3. */
  readonly minYears?: number;
  /** Parsed companies kept in memory. Default 64. */
  readonly cacheSize?: number;
}

const FILE_PATTERN = /^(?:(.+)_)?CIK(\d{10})\.json$/i;

interface SnapshotIndex {
  readonly byTicker: Map<string, string>;
  readonly byCik: Map<string, string>;
  readonly tickers: Map<string, string>;
}

/**
 * A {@link ListableFundamentalsProvider} over a local folder of SEC companyfacts files (offline runs,
 * tests, a nightly bulk download). The folder is indexed on first use; each ticker is parsed once
 * and kept in a bounded in-memory cache (a point in time, `asOf`, under its own key). `retrievedAt`
 * is the file's modification time.
 *
 * Ticker resolution: the `TICKER_` file-name prefix, else `company_tickers.json` (ticker → CIK →
 * `CIK##########.json` or `*_CIK##########.json`). SIC code and fiscal year end come from
 * `submissions/CIK##########.json` when present. `listTickers()` answers the tickers that resolve to
 * a file: the `TICKER_` prefixes plus the `company_tickers.json` entries whose CIK has a file.
 *
 * @throws {FundamentalsError} from `getFundamentals`: `invalid_symbol`, `insufficient_data`
 *   (unknown ticker or too few years), `insufficient_history` (too few years filed by `asOf`),
 *   `parse_failed` (malformed file), `upstream_unavailable`
 *   (the folder or a file cannot be read).
 * @example
 * ```ts
 * const provider = createSnapshotProvider({ dir: '/data/companyfacts' });
 * const f = await provider.getFundamentals('AAPL');
 * ```
 */
export function createSnapshotProvider(
  options: SnapshotProviderOptions,
): ListableFundamentalsProvider {
  if (!options.dir)
    throw new FundamentalsError('invalid_config', 'snapshot provider: dir is required');
  const minYears = options.minYears ?? DEFAULT_MIN_YEARS;
  const cache = createLoadCache<Fundamentals>({ maxEntries: options.cacheSize ?? 64 });
  let index: Promise<SnapshotIndex> | undefined;
  const getIndex = () => {
    index ??= buildIndex(options.dir, options.tickersFile).catch((error: unknown) => {
      index = undefined;
      throw error;
    });
    return index;
  };
  return {
    name: 'snapshot',
    async getFundamentals(ticker: string, callOptions?: GetFundamentalsOptions) {
      const symbol = normaliseSymbol(ticker);
      callOptions?.signal?.throwIfAborted();
      const asOf = callOptions?.asOf;
      const f = await memoiseAsync(cache, memoKey(symbol, asOf), async () => {
        const idx = await getIndex();
        return loadCompany(options.dir, idx, symbol, asOf);
      });
      callOptions?.signal?.throwIfAborted();
      return requireMinYears(f, minYears);
    },
    async listTickers() {
      const idx = await getIndex();
      const tickers = new Set(idx.byTicker.keys());
      for (const [ticker, cik] of idx.tickers) if (idx.byCik.has(cik)) tickers.add(ticker);
      return [...tickers].sort();
    },
  };
}

async function buildIndex(dir: string, tickersFile: string | undefined): Promise<SnapshotIndex> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new FundamentalsError('upstream_unavailable', `Cannot read snapshot folder ${dir}`, {
      cause: error,
    });
  }
  const byTicker = new Map<string, string>();
  const byCik = new Map<string, string>();
  for (const name of names) {
    const match = FILE_PATTERN.exec(name);
    if (!match) continue;
    const [, prefix, cik = ''] = match;
    if (!byCik.has(cik) || !prefix) byCik.set(cik, name);
    if (prefix) {
      try {
        byTicker.set(normaliseSymbol(prefix), name);
      } catch {
        // A prefix that is not a symbol: reachable through company_tickers.json only.
      }
    }
  }
  const tickersPath = tickersFile ?? join(dir, 'company_tickers.json');
  const tickersJson = await readJson(tickersPath, tickersFile === undefined);
  const tickers = tickersJson === undefined ? new Map() : parseCompanyTickers(tickersJson);
  return { byTicker, byCik, tickers };
}

async function loadCompany(
  dir: string,
  idx: SnapshotIndex,
  ticker: string,
  asOf: string | undefined,
): Promise<Fundamentals> {
  const cik = idx.tickers.get(ticker);
  const file = idx.byTicker.get(ticker) ?? (cik ? idx.byCik.get(cik) : undefined);
  if (!file) {
    throw new FundamentalsError(
      'insufficient_data',
      `No companyfacts file for ${ticker} in the snapshot`,
    );
  }
  const path = join(dir, file);
  const json = await readJson(path, false);
  const fileCik = FILE_PATTERN.exec(file)?.[2] ?? cik;
  const profile = fileCik ? await readProfile(dir, fileCik) : {};
  const retrievedAt = (await stat(path)).mtime.toISOString();
  return parseCompanyFacts(json, {
    ticker,
    profile,
    provider: 'snapshot',
    retrievedAt,
    ...(asOf === undefined ? {} : { asOf }),
  });
}

async function readProfile(dir: string, cik: string): Promise<Partial<CompanyProfile>> {
  const json = await readJson(join(dir, 'submissions', `CIK${padCik(cik)}.json`), true);
  return json === undefined ? {} : parseSubmissions(json);
}

/** Reads and parses a JSON file; `undefined` when optional and absent. */
async function readJson(path: string, optional: boolean): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FundamentalsError('upstream_unavailable', `Cannot read ${path}`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FundamentalsError('parse_failed', `${path} is not JSON`, { cause: error });
  }
}
