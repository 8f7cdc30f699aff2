import {
  memoSeries,
  type ScoringContext,
  type YearSeries,
  type YearValues,
} from '../core/scoring-context.js';
import { nopatTaxRate } from './tax-rate.js';

/**
 * Gross margin of one year as a fraction: reported gross profit / revenue, else
 * (revenue − cost of revenue) / revenue. `null` when revenue is not positive or neither line is
 * reported that year.
 */
export function grossMargin(year: YearValues): number | null {
  const revenue = year.revenue;
  if (revenue === null || revenue <= 0) return null;
  const grossProfit = year.grossProfit;
  if (grossProfit !== null) return grossProfit / revenue;
  const cost = year.costOfRevenue;
  return cost === null ? null : (revenue - cost) / revenue;
}

/**
 * Earnings of one year for the margin and earnings criteria: income from continuing operations
 * when the company reports it that year, else net income (methodology §4.1/§4.3 "use continuing
 * operations"). Revenue restated to continuing operations must not be compared with net income
 * that still carries a sold or spun-off business: JNJ FY2023 net income 35,153 M includes a
 * 21,827 M Kenvue gain; continuing operations earned 13,326 M on revenue of 85,159 M.
 */
export function earnings(year: YearValues): number | null {
  return year.incomeFromContinuingOperations ?? year.netIncome;
}

/** Whether {@link earnings} of this year came from continuing operations rather than net income. */
export function usesContinuingOperations(year: YearValues): boolean {
  return year.incomeFromContinuingOperations !== null;
}

/**
 * Display suffix naming how many fiscal years of `fiscalYears` used continuing-operations income
 * (`", continuing ops in 3 yrs"`), or `""` when none did.
 */
export function continuingOperationsNote(
  context: ScoringContext,
  fiscalYears: readonly number[],
): string {
  let count = 0;
  let j = 0;
  for (const year of context.years) {
    while (j < fiscalYears.length && (fiscalYears[j] as number) < year.fiscalYear) j += 1;
    if (fiscalYears[j] === year.fiscalYear && usesContinuingOperations(year)) count += 1;
  }
  return count === 0 ? '' : `, continuing ops in ${count} yr${count === 1 ? '' : 's'}`;
}

/**
 * Net margin of one year as a fraction: {@link earnings} (continuing operations when reported,
 * else net income) / revenue; `null` when revenue ≤ 0 or earnings are missing.
 */
export function netMargin(year: YearValues): number | null {
  const revenue = year.revenue;
  const income = earnings(year);
  if (revenue === null || revenue <= 0 || income === null) return null;
  return income / revenue;
}

/** Operating margin of one year as a fraction; `null` when revenue ≤ 0 or EBIT is missing. */
export function operatingMargin(year: YearValues): number | null {
  const revenue = year.revenue;
  const operatingIncome = year.operatingIncome;
  if (revenue === null || revenue <= 0 || operatingIncome === null) return null;
  return operatingIncome / revenue;
}

/**
 * Why gross margin cannot apply to this company, or `null` when it applies: banks and insurers
 * (no cost of revenue in their model), and any company that reports neither gross profit nor
 * cost of revenue in any year of the window (airlines, payment networks, IFRS "by nature"
 * statements; methodology §4.2 N/A). A company that reports the line in some years but not
 * others is missing data, not exempt.
 *
 * The rule reads what the provider hands over. SimFin standardises a "Cost of Revenue" for filers
 * whose statements have none (DAL, UAL, LUV, MCD, XOM), so those companies are not exempt there;
 * where the statement shows that line to be partial (`partialCostLine`, issue 39: operating costs
 * outside cost of revenue, SG&A and R&D ≥ 25% of gross profit) gross margin is scored on
 * {@link coveredGrossMargin} instead and flagged `cost_line_partial`.
 */
export function grossMarginExemption(context: ScoringContext): string | null {
  if (context.financial) return 'bank or insurer (SIC): no cost of revenue';
  if (!context.reported.grossProfit && !context.reported.costOfRevenue) {
    return 'no cost-of-revenue line reported in any year';
  }
  return null;
}

/**
 * Net margin of year `index` of the window before one-off items (issue 39): {@link earnings} with
 * the year's `unusualItems` (impairments, restructuring, disposals; signed, a charge negative)
 * taken out after tax (3-year effective rate, statutory fallback: `nopatTaxRate`), so that a
 * charge is added back and a gain removed — both directions. The same as {@link netMargin} when
 * the year reports no such line. Mauboussin & Callahan ("Return on Invested Capital", 2022) treat
 * restructuring and write-downs as judgement items outside recurring earnings.
 */
export function netMarginBeforeOneOffs(context: ScoringContext, index: number): number | null {
  const year = context.years[index] as YearValues;
  const revenue = year.revenue;
  const income = earnings(year);
  if (revenue === null || revenue <= 0 || income === null) return null;
  const unusual = year.unusualItems;
  if (unusual === null || unusual === 0) return income / revenue;
  return (income - unusual * (1 - nopatTaxRate(context.years, index))) / revenue;
}

/** Years of the window whose net margin takes a one-off item out ({@link netMarginBeforeOneOffs}). */
export function oneOffYears(context: ScoringContext): number {
  let n = 0;
  for (const year of context.years) {
    if (year.unusualItems !== null && year.unusualItems !== 0 && earnings(year) !== null) n += 1;
  }
  return n;
}

/**
 * Gross margin of one year with every operating cost outside SG&A and R&D counted as cost of
 * revenue: `(operating income + SG&A + R&D) / revenue`, R&D counting as 0 when not reported;
 * `null` when revenue ≤ 0 or operating income or SG&A is missing. The least gross margin the
 * statement proves when its cost of revenue is partial (`partialCostLine`).
 */
export function coveredGrossMargin(year: YearValues): number | null {
  const revenue = year.revenue;
  const sga = year.sellingGeneralAdministrative;
  if (revenue === null || revenue <= 0 || year.operatingIncome === null || sga === null)
    return null;
  const named = sga + (year.researchDevelopment ?? 0);
  return (year.operatingIncome + named) / revenue;
}

/**
 * The window's gross-margin series, shared by gross margin and product durability: {@link
 * grossMargin} of each year, or {@link coveredGrossMargin} when the window's cost of revenue is
 * partial (issue 39: a vendor's cost line earns no points from the costs it leaves out).
 */
export function grossMarginSeries(context: ScoringContext): YearSeries {
  return context.partialCostLine
    ? memoSeries(context, 'grossMargin', coveredGrossMargin)
    : memoSeries(context, 'grossMargin', grossMargin);
}
