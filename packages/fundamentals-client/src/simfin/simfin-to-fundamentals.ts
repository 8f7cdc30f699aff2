import {
  type CompanyProfile,
  type DataIssue,
  type Figure,
  type FiscalYearFigures,
  type Fundamentals,
  METRIC_KEYS,
  type MetricKey,
  type Provenance,
} from '@svc/schemas';
import { addDays, fiscalYearLabel, isAnnual } from '../companyfacts/dates.js';
import { normaliseSymbol } from '../symbol.js';
import type { SimfinCompanyRows, SimfinRow, SimfinStatement } from './columns.js';
import type { SimfinCompanyInfo } from './companies.js';
import { METRIC_RULES, type MetricRule } from './metric-rules.js';
import { adjustedShares, dilutedEps, extraordinary, type ShareBasis } from './per-share.js';
import { type KnownSplit, shareAdjustments } from './share-basis.js';
import { reportGaps, reportGrossProfitFillers, reportMalformed } from './simfin-issues.js';

/** Options of {@link simfinToFundamentals}. */
export interface SimfinToFundamentalsOptions {
  /** The ticker the rows belong to; normalised with `normaliseSymbol`. */
  readonly ticker: string;
  /** Name, sector and industry from SimFin's companies file, when there is one. */
  readonly company?: SimfinCompanyInfo | undefined;
  /** When the bulk files were read (ISO 8601). Default `null`. */
  readonly retrievedAt?: string | null;
  /**
   * The day whose share basis SimFin's share counts are on (`YYYY-MM-DD`): SimFin restates every
   * year's shares for splits up to the day it built the download (AAPL FY2019 diluted shares
   * 18.6 billion, after the 4:1 split of 2020-08-31). Recorded as `filed` of the derived EPS, the
   * date from which a price's split adjustment must start (unless a later split of `splits` was
   * applied, see there). Default `null`.
   */
  readonly shareBasisDate?: string | null;
  /**
   * Known splits (usually `KNOWN_SPLITS` of `@svc/market-data`); entries of other symbols are
   * ignored. Each year's diluted shares are multiplied, and its EPS divided, by the splits its
   * shares lack (see `shareAdjustments`): those dated after `shareBasisDate`, and earlier ones
   * SimFin did not restate that year for (KR FY2008–FY2012, MA FY2008–FY2010), so every year is
   * on the latest basis like the snapshot's. Default: none (SimFin's own basis).
   */
  readonly splits?: readonly KnownSplit[];
}

interface YearRows {
  readonly income: SimfinRow<'income'>;
  readonly balance: SimfinRow<'balance'> | undefined;
  readonly cashflow: SimfinRow<'cashflow'> | undefined;
}

/**
 * Maps the SimFin bulk rows of one company to normalised annual {@link Fundamentals}. Pure: no
 * I/O, no clock.
 *
 * - Fiscal years are the income statement's `FY` rows; the balance sheet (`Q4`) and cash-flow
 *   (`FY`) rows with the same Report Date join them. Label: the Compustat convention of the
 *   schema from the Report Date (a year ending January–May counts to the year before), which
 *   differs from SimFin's own "Fiscal Year" for May year ends; `periodEnd` = Report Date;
 *   `periodStart` = the previous year's end + 1 day when that makes an annual period, else null.
 * - Signs: SimFin stores costs and outflows negative; they are negated to the model's positive
 *   amounts (see `METRIC_RULES`). A cost or outflow stored positive is left `null` with an issue.
 *   A blank cell is `null`, never 0, except a blank debt cell of a classified balance sheet
 *   (noncurrent liabilities ≥ 10% of the total): SimFin leaves a debt line blank where the filer
 *   has none, so it reads 0 (`derived`, the note says so; see `BLANK_MEANS_NONE`).
 * - Income from continuing operations = Net Income − Net Extraordinary Gains (Losses) in years that
 *   have such items (derived); diluted EPS = (Net Income (Common) − those items) ÷ Shares
 *   (Diluted), continuing operations like the snapshot's, `derived: true`. Shares and EPS are put
 *   on the latest basis with `options.splits` (the splits a year's shares lack, see
 *   `shareAdjustments`; the provenance note names each one and why); `filed` = the later of the
 *   share basis date (`options.shareBasisDate`) and the last split applied: SimFin's shares are
 *   split-adjusted up to its download, so a price split adjustment starts there, not at the
 *   original filing.
 * - Gross profit as SimFin reports it, except where there is no Cost of Revenue and SimFin's
 *   Gross Profit merely repeats Revenue: `null`, with one issue listing those years.
 * - Provenance: tag `simfin:<Column>`, no form or accession, `filed` = the row's Publish Date.
 * - Two rows for one period end (a restatement): the latest restated one wins (`restated` issue
 *   when values differ). Two period ends with one label (a changed year end): the later wins.
 *   Balance or cash-flow rows in another currency than the income row are dropped (issue).
 *
 * @throws {FundamentalsError} `invalid_symbol` when `options.ticker` is malformed.
 * @example
 * ```ts
 * const f = simfinToFundamentals(rows, { ticker: 'KO' });
 * f.years.at(-1)?.revenue?.value; // 37266000000 (FY2019)
 * ```
 */
export function simfinToFundamentals(
  rows: SimfinCompanyRows,
  options: SimfinToFundamentalsOptions,
): Fundamentals {
  const ticker = normaliseSymbol(options.ticker);
  const issues: DataIssue[] = [];
  const periods = fiscalPeriods(latestPerPeriod(rows.income, 'income', issues), issues);
  const balance = byReportDate(latestPerPeriod(rows.balance, 'balance', issues));
  const cashflow = byReportDate(latestPerPeriod(rows.cashflow, 'cashflow', issues));
  const currency = periods.at(-1)?.row.currency ?? 'USD';
  const fillerYears: number[] = [];
  const basisDate = options.shareBasisDate ?? null;
  const adjustments = shareAdjustments(
    periods.map((p) => p.row),
    (options.splits ?? []).filter((s) => s.symbol.toUpperCase() === ticker),
    basisDate,
  );
  const years = periods.map(({ label, row }, i) => {
    const yearRows: YearRows = {
      income: row,
      balance: sameCurrency(row, balance.get(row.reportDate), label, 'balance', issues),
      cashflow: sameCurrency(row, cashflow.get(row.reportDate), label, 'cashflow', issues),
    };
    const previous = periods[i - 1]?.row.reportDate;
    const start = periodStart(previous, row.reportDate);
    const shares = { date: basisDate, adjustment: adjustments.get(row.reportDate) };
    return buildYear(label, yearRows, start, shares, issues, fillerYears);
  });
  reportGaps(years, issues);
  reportGrossProfitFillers(fillerYears, issues);
  reportMalformed(rows, issues);
  return {
    company: buildProfile(ticker, currency, periods.at(-1)?.row.reportDate, options.company),
    years,
    provider: 'simfin',
    retrievedAt: options.retrievedAt ?? null,
    issues,
  };
}

/** One row per Report Date: the latest restated (else published) row wins. */
function latestPerPeriod<S extends SimfinStatement>(
  rows: readonly SimfinRow<S>[],
  statement: S,
  issues: DataIssue[],
): SimfinRow<S>[] {
  const byEnd = new Map<string, SimfinRow<S>>();
  for (const row of rows) {
    const kept = byEnd.get(row.reportDate);
    if (!kept) {
      byEnd.set(row.reportDate, row);
      continue;
    }
    const [older, newer] = revision(kept) <= revision(row) ? [kept, row] : [row, kept];
    byEnd.set(row.reportDate, newer);
    if (JSON.stringify(older.values) !== JSON.stringify(newer.values)) {
      issues.push({
        fiscalYear: fiscalYearLabel(row.reportDate),
        metric: null,
        kind: 'restated',
        message: `Two SimFin ${statement} rows for the period ending ${row.reportDate}; kept the one restated ${revision(newer) || 'last'}`,
      });
    }
  }
  return [...byEnd.values()].sort((a, b) => (a.reportDate < b.reportDate ? -1 : 1));
}

const revision = (row: SimfinRow) => row.restatedDate ?? row.publishDate ?? '';

function fiscalPeriods(
  rows: readonly SimfinRow<'income'>[],
  issues: DataIssue[],
): { label: number; row: SimfinRow<'income'> }[] {
  const byLabel = new Map<number, SimfinRow<'income'>>();
  for (const row of rows) {
    const label = fiscalYearLabel(row.reportDate);
    const previous = byLabel.get(label);
    if (previous) {
      issues.push({
        fiscalYear: label,
        metric: null,
        kind: 'other',
        message: `Two annual periods share the label FY${label} (ending ${previous.reportDate} and ${row.reportDate}); kept the later one`,
      });
    }
    byLabel.set(label, row);
  }
  return [...byLabel.entries()].sort(([a], [b]) => a - b).map(([label, row]) => ({ label, row }));
}

function byReportDate<S extends SimfinStatement>(rows: readonly SimfinRow<S>[]) {
  return new Map(rows.map((row) => [row.reportDate, row]));
}

function sameCurrency<S extends SimfinStatement>(
  income: SimfinRow<'income'>,
  row: SimfinRow<S> | undefined,
  label: number,
  statement: S,
  issues: DataIssue[],
): SimfinRow<S> | undefined {
  if (!row || row.currency === income.currency) return row;
  issues.push({
    fiscalYear: label,
    metric: null,
    kind: 'dropped_outlier',
    message: `SimFin ${statement} row for FY${label} is in ${row.currency}, the income statement in ${income.currency}; its figures were left out`,
  });
  return undefined;
}

function periodStart(previousEnd: string | undefined, end: string): string | null {
  if (!previousEnd) return null;
  const start = addDays(previousEnd, 1);
  return isAnnual(start, end) ? start : null;
}

function buildYear(
  label: number,
  rows: YearRows,
  start: string | null,
  shares: ShareBasis,
  issues: DataIssue[],
  fillerYears: number[],
): FiscalYearFigures {
  const figures = new Map<MetricKey, Figure>();
  for (const r of METRIC_RULES) {
    if (figures.has(r.key)) continue;
    const figure = readRule(r, rows, label, issues);
    if (figure) figures.set(r.key, figure);
  }
  for (const key of BLANK_MEANS_NONE) {
    if (!figures.has(key.key)) {
      const none = blankAsNone(rows.balance, key.key, key.column);
      if (none) figures.set(key.key, none);
    }
  }
  const gross = grossProfit(rows.income);
  if (gross === 'filler') fillerYears.push(label);
  else if (gross) figures.set('grossProfit', gross);
  const continuing = continuingOperations(rows.income);
  if (continuing) figures.set('incomeFromContinuingOperations', continuing);
  const eps = dilutedEps(rows.income, shares);
  if (eps) figures.set('dilutedEps', eps);
  const diluted = figures.get('dilutedShares');
  if (diluted) figures.set('dilutedShares', adjustedShares(diluted, shares));
  const record: Record<string, unknown> = {
    fiscalYear: label,
    periodStart: start,
    periodEnd: rows.income.reportDate,
  };
  for (const key of METRIC_KEYS) record[key] = figures.get(key) ?? null;
  return record as FiscalYearFigures;
}

function readRule(
  r: MetricRule,
  rows: YearRows,
  label: number,
  issues: DataIssue[],
): Figure | undefined {
  const row = rows[r.statement] as SimfinRow | undefined;
  const raw = (row?.values as Partial<Record<string, number | null>> | undefined)?.[r.column];
  if (row === undefined || raw === null || raw === undefined) return undefined;
  if (r.onlyNegative && raw >= 0) return undefined;
  if (r.positiveMeans && raw > 0) {
    issues.push({
      fiscalYear: label,
      metric: r.key,
      kind: 'other',
      message: `SimFin "${r.column}" is +${raw} in FY${label}: ${r.positiveMeans}; ${r.key} left null`,
    });
    return undefined;
  }
  const value = r.sign === 1 ? raw : 0 - raw;
  return { value, source: source(r.column, row, r.note) };
}

/**
 * Balance lines whose blank cell SimFin uses for "the company reports none" (issue 39): its
 * standardised balance sheet leaves a debt line empty rather than writing 0 where the filer has
 * no such borrowing (AAPL FY2004–FY2012, V FY2011–FY2014, FB FY2016–FY2019: blank debt cells in
 * the years their 10-Ks report no borrowings). Read as missing, the latest debt figure would be
 * years old and the scorer would call the company's debt unknown.
 */
const BLANK_MEANS_NONE = [
  { key: 'shortTermDebt', column: 'Short Term Debt' },
  { key: 'longTermDebt', column: 'Long Term Debt' },
] as const;

/**
 * Noncurrent liabilities under this share of total liabilities make a balance sheet unclassified
 * for this purpose (judgement): homebuilders present no current/noncurrent split, and SimFin puts
 * their senior notes in the current total with the debt lines blank (PHM FY2016–FY2019: Total
 * Current Liabilities 5.3–5.5 B of 5.4–5.5 B, notes payable ≈ 3 B, debt cells blank).
 */
const MIN_NONCURRENT_SHARE = 0.1;

/**
 * A classified balance sheet: total liabilities, current liabilities and noncurrent liabilities
 * all present, noncurrent at least {@link MIN_NONCURRENT_SHARE} of the total. Only there does a
 * blank debt cell mean "no such debt".
 */
function classified(row: SimfinRow<'balance'>): boolean {
  const total = row.values['Total Liabilities'];
  const current = row.values['Total Current Liabilities'];
  const noncurrent = row.values['Total Noncurrent Liabilities'];
  if (total == null || current == null || noncurrent == null || total <= 0) return false;
  return noncurrent >= MIN_NONCURRENT_SHARE * total;
}

/**
 * 0 for a blank debt cell of a classified balance sheet (see `classified`), with the reading in
 * the provenance; `undefined` otherwise.
 */
function blankAsNone(
  row: SimfinRow<'balance'> | undefined,
  key: MetricKey,
  column: 'Short Term Debt' | 'Long Term Debt',
): Figure | undefined {
  if (!row || !classified(row)) return undefined;
  const cell = row.values[column];
  if (cell !== null && cell !== undefined) return undefined;
  return {
    value: 0,
    source: {
      ...source(
        column,
        row,
        `blank in SimFin: no ${key === 'shortTermDebt' ? 'short-term' : 'long-term'} debt reported`,
      ),
      derived: true,
    },
  };
}

/** SimFin's Gross Profit, or `'filler'` when it only repeats Revenue for want of a cost line. */
function grossProfit(row: SimfinRow<'income'>): Figure | 'filler' | undefined {
  const { Revenue: revenue, 'Cost of Revenue': cost, 'Gross Profit': gross } = row.values;
  if (gross === null || gross === undefined) return undefined;
  if ((cost === null || cost === undefined) && gross === revenue) return 'filler';
  return { value: gross, source: source('Gross Profit', row) };
}

/**
 * Income from continuing operations attributable to the parent, the snapshot's rule: Net Income −
 * Net Extraordinary Gains (Losses), only in a year that has such items (PG FY2017: 15,326 − 5,217
 * = 10,109 M). SimFin's own "Income (Loss) from Continuing Operations" includes noncontrolling
 * interests (10,194 M), another scope, so it is not used.
 */
function continuingOperations(row: SimfinRow<'income'>): Figure | undefined {
  const net = row.values['Net Income'];
  const items = extraordinary(row);
  if (net === null || net === undefined || items === 0) return undefined;
  return {
    value: net - items,
    source: {
      tag: 'derived:simfin:Net Income-simfin:Net Extraordinary Gains (Losses)',
      form: null,
      accession: null,
      filed: row.publishDate,
      derived: true,
      note: `continuing operations: Net Income = ${net}; Net Extraordinary Gains (Losses) = ${items} (SimFin)`,
    },
  };
}

function source(column: string, row: SimfinRow, note?: string): Provenance {
  return {
    tag: `simfin:${column}`,
    form: null,
    accession: null,
    filed: row.publishDate,
    derived: false,
    ...(note ? { note } : {}),
  };
}

function buildProfile(
  ticker: string,
  currency: string,
  lastEnd: string | undefined,
  company: SimfinCompanyInfo | undefined,
): CompanyProfile {
  return {
    ticker,
    cik: null,
    name: company?.name ?? ticker,
    sicCode: null,
    sicDescription: null,
    sector: company?.sector ?? null,
    industry: company?.industry ?? null,
    fiscalYearEnd: lastEnd ? lastEnd.slice(5) : null,
    currency,
  };
}
