import type { YearValues } from '../core/scoring-context.js';

/** US federal statutory corporate rate before the 2017 Tax Cuts and Jobs Act. */
export const STATUTORY_RATE_BEFORE_2018 = 0.35;
/** US federal statutory corporate rate from 1 January 2018 (TCJA). */
export const STATUTORY_RATE_FROM_2018 = 0.21;
/** Effective rates outside [0, 0.5] are one-offs, not a rate (methodology §4.5 clamp idea). */
export const MAX_EFFECTIVE_RATE = 0.5;

const TCJA_START = Date.UTC(2018, 0, 1);
const DAY = 86_400_000;

function parseDay(text: string | null): number | null {
  if (text === null) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (match === null) return null;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(time) ? time : null;
}

/**
 * Statutory rate of a fiscal year, blended by days for a fiscal year that straddles 1 January
 * 2018 (IRC §15, as companies with non-calendar years applied it: Walmart's year ending
 * 31 January 2018 is ≈ 33.8%). Falls back to the fiscal-year label when dates are unreadable.
 * Used for non-US filers too, as a documented approximation.
 */
export function statutoryRate(year: YearValues): number {
  const end = parseDay(year.periodEnd);
  if (end === null) {
    return year.fiscalYear < 2018 ? STATUTORY_RATE_BEFORE_2018 : STATUTORY_RATE_FROM_2018;
  }
  const start = parseDay(year.periodStart) ?? end - 364 * DAY;
  if (end < TCJA_START) return STATUTORY_RATE_BEFORE_2018;
  if (start >= TCJA_START) return STATUTORY_RATE_FROM_2018;
  const share = (end - TCJA_START + DAY) / (end - start + DAY);
  return (
    STATUTORY_RATE_BEFORE_2018 + share * (STATUTORY_RATE_FROM_2018 - STATUTORY_RATE_BEFORE_2018)
  );
}

/**
 * Tax rate for NOPAT in year `index`: Σ tax ÷ Σ pretax income over that year and the two before
 * (a 3-year rate absorbs one-offs such as the 2017 TCJA remeasurement; judgement), or the
 * statutory rate when pretax income sums to ≤ 0 or the rate falls outside [0, 0.5]
 * (methodology §4.5).
 */
export function nopatTaxRate(years: readonly YearValues[], index: number): number {
  let tax = 0;
  let pretax = 0;
  for (let i = Math.max(0, index - 2); i <= index; i += 1) {
    const year = years[i] as YearValues;
    const t = year.incomeTaxExpense;
    const p = year.pretaxIncome;
    if (t === null || p === null) continue;
    tax += t;
    pretax += p;
  }
  const rate = pretax > 0 ? tax / pretax : Number.NaN;
  if (rate >= 0 && rate <= MAX_EFFECTIVE_RATE) return rate;
  return statutoryRate(years[index] as YearValues);
}
