import type { Fundamentals } from '@svc/schemas';
import { FundamentalsError } from '../errors.js';

/** Default minimum number of usable fiscal years a provider returns. */
export const DEFAULT_MIN_YEARS = 3;

/**
 * Fiscal years with a net income figure: the least a year needs to be evaluated (every scoring
 * criterion reads earnings or a ratio to them).
 */
export function usableYears(f: Fundamentals): number {
  return f.years.filter((y) => y.netIncome !== null).length;
}

/**
 * Returns `f` when it has at least `minYears` usable fiscal years.
 *
 * @throws {FundamentalsError} `insufficient_data` otherwise; `insufficient_history` when `f` is
 *   as of a date (`f.asOf`): the company is known, its history at that date too short.
 */
export function requireMinYears(f: Fundamentals, minYears: number): Fundamentals {
  const usable = usableYears(f);
  if (usable < minYears) {
    const asOf = f.asOf;
    throw new FundamentalsError(
      asOf === undefined ? 'insufficient_data' : 'insufficient_history',
      `${f.company.ticker}: ${usable} usable fiscal year(s)${asOf === undefined ? '' : ` filed by ${asOf}`}, at least ${minYears} needed`,
    );
  }
  return f;
}
