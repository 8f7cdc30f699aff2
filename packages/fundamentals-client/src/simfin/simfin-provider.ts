import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Fundamentals } from '@svc/schemas';
import { FundamentalsError } from '../errors.js';
import { DEFAULT_MIN_YEARS, requireMinYears } from '../providers/min-years.js';
import type {
  GetFundamentalsOptions,
  ListableFundamentalsProvider,
} from '../providers/provider.js';
import { normaliseSymbol } from '../symbol.js';
import {
  SIMFIN_FILES,
  type SimfinCompanyRows,
  type SimfinRow,
  type SimfinStatement,
} from './columns.js';
import { readSimfinCompanies, type SimfinCompanyInfo } from './companies.js';
import { readSimfinStatementFile, type SimfinStatementRows } from './read-simfin-csv.js';
import type { KnownSplit } from './share-basis.js';
import { simfinToFundamentals } from './simfin-to-fundamentals.js';

/** Options of {@link createSimfinProvider}. */
export interface SimfinProviderOptions {
  /**
   * Folder of a SimFin bulk annual download: `us-income-annual.csv`, `us-balance-annual.csv`,
   * `us-cashflow-annual.csv` (`;`-separated); optionally `us-companies.csv` and `industries.csv`
   * for names, sectors and industries.
   */
  readonly dir: string;
  /** Fewer usable fiscal years (years with net income) than this is `insufficient_data`. Default 3. */
  readonly minYears?: number;
  /**
   * The day SimFin built the download (`YYYY-MM-DD`): its share counts are split-adjusted up to
   * then. Default: the newest Publish or Restated Date in the statement files (2021-03-31 for the
   * 2021-04 snapshot). Becomes `filed` of the derived EPS (see `simfinToFundamentals`).
   */
  readonly shareBasisDate?: string;
  /**
   * Known stock splits of any symbols (usually `KNOWN_SPLITS` of `@svc/market-data`), so that
   * every year's diluted shares and EPS are on the latest basis: the splits after
   * `shareBasisDate`, and earlier ones SimFin left out of a year's shares (see
   * `simfinToFundamentals`). Default: none, SimFin's own basis.
   */
  readonly splits?: readonly KnownSplit[];
}

/** The bulk download, indexed by ticker. */
interface SimfinBulk {
  readonly companies: Map<string, SimfinCompanyRows>;
  readonly info: Map<string, SimfinCompanyInfo>;
  readonly retrievedAt: string;
  readonly shareBasisDate: string | null;
}

/**
 * A {@link ListableFundamentalsProvider} (name `simfin`) over a SimFin bulk annual download: about
 * 2,300 US companies, FY2008–FY2019 dense in the 2021-04 snapshot. The three statement files are
 * read once, lazily on the first call (streamed through csv-parse, well under a second), and
 * indexed by ticker; each company is mapped on request with {@link simfinToFundamentals} (signs
 * normalised, EPS derived and put on the latest split basis with `options.splits`, provenance
 * `simfin:<Column>`). `retrievedAt` is the income file's modification time.
 *
 * With `asOf` (see `GetFundamentalsOptions`), only the rows published on or before that day are
 * mapped (Publish Date; SimFin's values are its restated figures, the only ones a bulk download
 * holds), the answer carries it as `asOf` (as the SEC providers' do), and fewer than `minYears`
 * usable years at that date is `insufficient_history`.
 *
 * Company name: from `us-companies.csv` when the folder has one, else the ticker itself (the
 * statement files carry no names). Sector and industry: from `us-companies.csv` + `industries.csv`
 * when present, else null. Tickers that are not valid symbols (SimFin's `AGN_old`, `ACET_delis`
 * for delisted namesakes) are skipped.
 *
 * @throws {FundamentalsError} `invalid_config` from the factory (no `dir`); from
 *   `getFundamentals`: `invalid_symbol`, `insufficient_data` (unknown ticker or fewer than
 *   `minYears` usable years), `upstream_unavailable` (a file cannot be read), `parse_failed`
 *   (a file is not a SimFin statement); `listTickers` rejects like the load.
 * @example
 * ```ts
 * const simfin = createSimfinProvider({ dir: 'shared/data/fundamentals/raw/simfin_us_annual_2021-04' });
 * const ko = await simfin.getFundamentals('KO');
 * ko.years.at(-1)?.netIncome?.value; // 8920000000 (FY2019)
 * (await simfin.listTickers()).length; // 2262
 * ```
 */
export function createSimfinProvider(options: SimfinProviderOptions): ListableFundamentalsProvider {
  if (!options.dir)
    throw new FundamentalsError('invalid_config', 'simfin provider: dir is required');
  const minYears = options.minYears ?? DEFAULT_MIN_YEARS;
  let bulk: Promise<SimfinBulk> | undefined;
  const load = () => {
    bulk ??= loadBulk(options.dir, options.shareBasisDate).catch((error: unknown) => {
      bulk = undefined;
      throw error;
    });
    return bulk;
  };
  return {
    name: 'simfin',
    async getFundamentals(
      ticker: string,
      callOptions?: GetFundamentalsOptions,
    ): Promise<Fundamentals> {
      const symbol = normaliseSymbol(ticker);
      callOptions?.signal?.throwIfAborted();
      const { companies, info, retrievedAt, shareBasisDate } = await load();
      callOptions?.signal?.throwIfAborted();
      const all = companies.get(symbol);
      const rows = all && callOptions?.asOf ? rowsPublishedBy(all, callOptions.asOf) : all;
      if (!rows) {
        throw new FundamentalsError('insufficient_data', `No SimFin annual rows for ${symbol}`);
      }
      const f = simfinToFundamentals(rows, {
        ticker: symbol,
        company: info.get(symbol),
        retrievedAt,
        shareBasisDate,
        ...(options.splits ? { splits: options.splits } : {}),
      });
      // the point in time read is recorded, as the SEC providers record it (issue 39)
      const asOf = callOptions?.asOf;
      return requireMinYears(asOf === undefined ? f : { ...f, asOf }, minYears);
    },
    async listTickers(): Promise<string[]> {
      const { companies } = await load();
      return [...companies.keys()].sort();
    },
  };
}

async function loadBulk(dir: string, shareBasisDate: string | undefined): Promise<SimfinBulk> {
  const path = (s: SimfinStatement) => join(dir, SIMFIN_FILES[s]);
  const [income, balance, cashflow, info, retrievedAt] = await Promise.all([
    readSimfinStatementFile(path('income'), 'income'),
    readSimfinStatementFile(path('balance'), 'balance'),
    readSimfinStatementFile(path('cashflow'), 'cashflow'),
    readSimfinCompanies(dir),
    modifiedAt(path('income')),
  ]);
  const companies = new Map<string, SimfinCompanyRows>();
  for (const [ticker, rows] of income.byTicker) {
    companies.set(ticker, {
      income: rows,
      balance: rowsOf(balance, ticker),
      cashflow: rowsOf(cashflow, ticker),
    });
  }
  const newest = [income, balance, cashflow]
    .map((s) => s.newestDate)
    .filter((d): d is string => d !== null)
    .sort()
    .at(-1);
  return { companies, info, retrievedAt, shareBasisDate: shareBasisDate ?? newest ?? null };
}

async function modifiedAt(path: string): Promise<string> {
  try {
    return (await stat(path)).mtime.toISOString();
  } catch (error) {
    throw new FundamentalsError('upstream_unavailable', `Cannot read ${path}`, { cause: error });
  }
}

/**
 * The rows of one company that were public on `asOf` (`YYYY-MM-DD…`): Publish Date (else Report
 * Date) on or before the day, and the period ended before it.
 */
function rowsPublishedBy(rows: SimfinCompanyRows, asOf: string): SimfinCompanyRows {
  const day = asOf.slice(0, 10);
  const known = (row: SimfinRow) =>
    row.reportDate < day && (row.publishDate ?? row.reportDate) <= day;
  return {
    income: rows.income.filter(known),
    balance: rows.balance.filter(known),
    cashflow: rows.cashflow.filter(known),
  };
}

function rowsOf<S extends SimfinStatement>(statement: SimfinStatementRows<S>, ticker: string) {
  return statement.byTicker.get(ticker) ?? [];
}
