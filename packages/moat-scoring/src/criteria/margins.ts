import type { ScoringContext, YearValues } from '../core/scoring-context.js';

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

/** Net margin of one year as a fraction (net income / revenue); `null` when revenue ≤ 0. */
export function netMargin(year: YearValues): number | null {
  const revenue = year.revenue;
  const netIncome = year.netIncome;
  if (revenue === null || revenue <= 0 || netIncome === null) return null;
  return netIncome / revenue;
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
 */
export function grossMarginExemption(context: ScoringContext): string | null {
  if (context.financial) return 'bank or insurer (SIC): no cost of revenue';
  if (!context.reported.grossProfit && !context.reported.costOfRevenue) {
    return 'no cost-of-revenue line reported in any year';
  }
  return null;
}
