import type { DataQualityFlag } from './data-quality.js';
import { median } from './statistics.js';
import type { YearValues } from './year-values.js';

/**
 * Median share of gross profit taken by operating costs that are neither cost of revenue nor
 * SG&A nor R&D, at or above which a cost-of-revenue line is read as partial (issue 39).
 * *Judgement*, from SimFin's 2,058 US companies (FY2010–FY2019, medians per company): a statement
 * by function leaves only amortisation of acquired intangibles, restructuring and other items
 * outside those three lines (median 1% of gross profit, 75th percentile 19%); statements by
 * nature, with a vendor's standardised cost of revenue, leave payroll, depreciation, landing fees
 * or fuel outside it (DAL 42%, LUV 58%, JBLU 33%, SAVE 25%, UAL 66%, regulated utilities
 * 45–78%). A single impairment year cannot reach the median.
 */
export const PARTIAL_COST_LINE_SHARE = 0.25;
/** Fewest years with the needed lines before the check says anything (as for any level: 3). */
export const PARTIAL_COST_LINE_MIN_YEARS = 3;

/**
 * Gross profit of a year as the provider gives it: reported gross profit, else revenue − cost of
 * revenue; `null` when revenue is not positive or neither line is reported.
 */
function providerGrossProfit(year: YearValues): number | null {
  const revenue = year.revenue;
  if (revenue === null || revenue <= 0) return null;
  if (year.grossProfit !== null) return year.grossProfit;
  return year.costOfRevenue === null ? null : revenue - year.costOfRevenue;
}

/**
 * Operating costs of a year outside cost of revenue, SG&A and R&D, as a fraction of gross profit:
 * `(gross profit − operating income − SG&A − R&D) / gross profit`, R&D counting as 0 when not
 * reported. `null` when gross profit is not positive, or operating income or SG&A is missing: a
 * provider that does not read a filer's SG&A (SEC: MNST's and KR's operating-expense tags) would
 * otherwise make a statement by function look partial.
 */
export function uncoveredCostShare(year: YearValues): number | null {
  const grossProfit = providerGrossProfit(year);
  const sga = year.sellingGeneralAdministrative;
  if (grossProfit === null || grossProfit <= 0 || year.operatingIncome === null || sga === null) {
    return null;
  }
  const named = sga + (year.researchDevelopment ?? 0);
  return (grossProfit - year.operatingIncome - named) / grossProfit;
}

/** What {@link partialCostLine} found: the median share and the years it rests on. */
export interface PartialCostLine {
  /** Median {@link uncoveredCostShare} over the window (fraction). */
  readonly share: number;
  /** Fiscal years with a share. */
  readonly years: number;
}

/**
 * Whether the window's cost of revenue is a partial line (issue 39, README "Gross margin with a
 * vendor's cost line"): a provider that standardises a cost of revenue for a filer whose income
 * statement reports costs by nature (airlines, utilities, exchanges: no cost of revenue or gross
 * profit in the filing) fills it with some of the operating costs only, and the rest sits outside
 * cost of revenue, SG&A and R&D. Found when the median {@link uncoveredCostShare} over at least
 * {@link PARTIAL_COST_LINE_MIN_YEARS} years is at least {@link PARTIAL_COST_LINE_SHARE}; `null`
 * otherwise (a statement by function, or too few years to tell).
 */
export function partialCostLine(years: readonly YearValues[]): PartialCostLine | null {
  const shares: number[] = [];
  for (const year of years) {
    const share = uncoveredCostShare(year);
    if (share !== null && Number.isFinite(share)) shares.push(share);
  }
  if (shares.length < PARTIAL_COST_LINE_MIN_YEARS) return null;
  const share = median(shares) as number;
  return share >= PARTIAL_COST_LINE_SHARE ? { share, years: shares.length } : null;
}

/** The `cost_line_partial` flag (series `costOfRevenue`) of a {@link partialCostLine} finding. */
export function partialCostLineFlag(found: PartialCostLine): DataQualityFlag {
  return {
    code: 'cost_line_partial',
    series: 'costOfRevenue',
    message: `operating costs outside cost of revenue, SG&A and R&D take a median ${Math.round(100 * found.share)}% of gross profit over ${found.years} years: the cost of revenue leaves out costs of earning the revenue (a statement by nature, standardised by the provider), so its gross margin is not one`,
  };
}
