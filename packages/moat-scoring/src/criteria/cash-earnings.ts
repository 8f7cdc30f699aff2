import type { ScoringContext, YearValues } from '../core/scoring-context.js';
import { nopatTaxRate } from './tax-rate.js';

/**
 * Cash earnings of year `index` of the window (issue 39): net income with the amortisation of
 * intangible assets added back after tax (3-year effective rate, statutory fallback:
 * `nopatTaxRate`), and stock-based compensation left deducted, as GAAP deducts it: an owner pays
 * it in dilution. Acquired intangibles are written off over years whatever they still earn
 * (Mauboussin & Callahan, "Return on Invested Capital", 2022: EBITA, amortisation of acquired
 * intangibles added back; Buffett 1986 owner earnings add back non-cash charges). Net income
 * when the year reports no amortisation line (SimFin never does); `null` without net income.
 */
export function cashEarnings(context: ScoringContext, index: number): number | null {
  const year = context.years[index] as YearValues;
  const netIncome = year.netIncome;
  if (netIncome === null) return null;
  const amortisation = year.amortizationOfIntangibles;
  if (amortisation === null || amortisation <= 0) return netIncome;
  return netIncome + amortisation * (1 - nopatTaxRate(context.years, index));
}

/** Years of the window whose cash earnings add back an amortisation of intangibles. */
export function amortisationYears(context: ScoringContext): number {
  let n = 0;
  for (const year of context.years) {
    const amortisation = year.amortizationOfIntangibles;
    if (year.netIncome !== null && amortisation !== null && amortisation > 0) n += 1;
  }
  return n;
}

/** "net income" or "cash earnings" for display, by whether any year adds amortisation back. */
export function earningsLabel(context: ScoringContext): string {
  return amortisationYears(context) > 0 ? 'cash earnings' : 'net income';
}

/**
 * "; stock-based pay 12.0% of net income, kept as a cost" over the window's years that report
 * both (issue 39: read and shown beside GAAP, never added back), or "" when none does.
 */
export function stockPayNote(context: ScoringContext): string {
  let pay = 0;
  let income = 0;
  for (const year of context.years) {
    const sbc = year.shareBasedCompensation;
    if (sbc === null || year.netIncome === null) continue;
    pay += Math.abs(sbc);
    income += year.netIncome;
  }
  if (pay === 0 || income <= 0) return '';
  return `; stock-based pay ${((100 * pay) / income).toFixed(1)}% of net income, kept as a cost`;
}
