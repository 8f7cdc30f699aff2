/**
 * Small builders that turn plain numbers into `Fundamentals` for tests. Amounts are whatever the
 * test says (usually millions written as plain numbers); `null` or a missing column means "not
 * reported".
 */
import type { Figure, FiscalYearFigures, Fundamentals, MetricKey } from '@svc/schemas';
import { METRIC_KEYS } from '@svc/schemas';
import { buildScoringContext, type ScoringContext } from '../src/core/scoring-context.js';

/** A reported figure with a synthetic provenance. */
export function figure(value: number, tag = 'test:fixture'): Figure {
  return { value, source: { tag, form: '10-K', accession: null, filed: null, derived: false } };
}

/** Columns of yearly values, oldest first; `null` = not reported that year. */
export type Columns = Partial<Record<MetricKey, readonly (number | null)[]>>;

/** Options of {@link makeFundamentals}. */
export interface FixtureOptions {
  /** Fiscal year label of the first column entry. */
  startYear: number;
  /** Fiscal year labels to drop (a gap in the filings). */
  skipYears?: readonly number[];
  ticker?: string;
  sicCode?: string | null;
  /** Fiscal year end as MM-DD; a January–May end is labelled with the year before (Compustat). */
  fiscalYearEnd?: string;
  columns: Columns;
}

function periodOf(fiscalYear: number, fiscalYearEnd: string): { start: string; end: string } {
  const month = Number(fiscalYearEnd.slice(0, 2));
  const endYear = month <= 5 ? fiscalYear + 1 : fiscalYear;
  const end = new Date(`${endYear}-${fiscalYearEnd}T00:00:00Z`);
  const start = new Date(end);
  start.setUTCFullYear(start.getUTCFullYear() - 1);
  start.setUTCDate(start.getUTCDate() + 1);
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

/** One fiscal year record from plain numbers. */
export function makeYear(
  fiscalYear: number,
  values: Partial<Record<MetricKey, number | null>>,
  fiscalYearEnd = '12-31',
): FiscalYearFigures {
  const { start, end } = periodOf(fiscalYear, fiscalYearEnd);
  const record: Record<string, unknown> = { fiscalYear, periodStart: start, periodEnd: end };
  for (const key of METRIC_KEYS) {
    const v = values[key];
    record[key] = v === undefined || v === null ? null : figure(v);
  }
  return record as FiscalYearFigures;
}

/** `Fundamentals` from columns of plain numbers. */
export function makeFundamentals(options: FixtureOptions): Fundamentals {
  const length = Math.max(0, ...Object.values(options.columns).map((c) => c?.length ?? 0));
  const years: FiscalYearFigures[] = [];
  for (let i = 0; i < length; i += 1) {
    const fiscalYear = options.startYear + i;
    if (options.skipYears?.includes(fiscalYear)) continue;
    const values: Partial<Record<MetricKey, number | null>> = {};
    for (const [key, column] of Object.entries(options.columns)) {
      values[key as MetricKey] = column?.[i] ?? null;
    }
    years.push(makeYear(fiscalYear, values, options.fiscalYearEnd));
  }
  return {
    company: {
      ticker: options.ticker ?? 'TEST',
      cik: null,
      name: `${options.ticker ?? 'TEST'} Corp`,
      sicCode: options.sicCode ?? '2080',
      sicDescription: null,
      sector: 'Manufacturing',
      industry: 'Beverages',
      fiscalYearEnd: options.fiscalYearEnd ?? '12-31',
      currency: 'USD',
    },
    years,
    provider: 'test',
    retrievedAt: null,
    issues: [],
  };
}

/** A scoring context (10-year window) from columns, for criterion unit tests. */
export function makeContext(options: FixtureOptions, windowYears = 10): ScoringContext {
  return buildScoringContext(makeFundamentals(options), windowYears);
}

/** `n` copies of a value. */
export function repeat(value: number | null, n: number): (number | null)[] {
  return Array.from({ length: n }, () => value);
}

/** `n` values growing geometrically from `start` by `rate` per year. */
export function grow(start: number, rate: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => start * (1 + rate) ** i);
}

/**
 * A plausible 10-year compounder (revenue 1000 growing 8%/yr, gross margin 60%, net margin 20%,
 * modest debt, buybacks covered by FCF). Override columns to build variants.
 */
export function compounderColumns(n = 10): Columns {
  const revenue = grow(1000, 0.08, n);
  return {
    revenue,
    costOfRevenue: revenue.map((r) => r * 0.4),
    sellingGeneralAdministrative: revenue.map((r) => r * 0.2),
    researchDevelopment: revenue.map((r) => r * 0.03),
    depreciationAmortization: revenue.map((r) => r * 0.03),
    operatingIncome: revenue.map((r) => r * 0.3),
    interestExpense: repeat(10, n),
    pretaxIncome: revenue.map((r) => r * 0.3 - 10),
    incomeTaxExpense: revenue.map((r) => (r * 0.3 - 10) * 0.25),
    netIncome: revenue.map((r) => (r * 0.3 - 10) * 0.75),
    dilutedEps: revenue.map((r, i) => ((r * 0.3 - 10) * 0.75) / (100 * 0.98 ** i)),
    dilutedShares: Array.from({ length: n }, (_, i) => 100 * 0.98 ** i),
    operatingCashFlow: revenue.map((r) => r * 0.27),
    capitalExpenditure: revenue.map((r) => r * 0.04),
    dividendsPaid: revenue.map((r) => r * 0.06),
    shareRepurchases: revenue.map((r) => r * 0.08),
    cash: repeat(300, n),
    shortTermDebt: repeat(50, n),
    longTermDebt: repeat(250, n),
    totalEquity: revenue.map((r) => r * 0.8),
    retainedEarnings: grow(1500, 0.09, n),
    currentAssets: revenue.map((r) => r * 0.6),
    currentLiabilities: revenue.map((r) => r * 0.35),
    propertyPlantEquipmentNet: revenue.map((r) => r * 0.3),
    goodwill: repeat(200, n),
    intangibleAssets: repeat(50, n),
    sharesOutstanding: Array.from({ length: n }, (_, i) => 100 * 0.98 ** i),
  };
}
