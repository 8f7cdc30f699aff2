import { orAbsent, type ScoringContext, type YearValues } from '../core/scoring-context.js';

/** Total debt (short-term incl. current portion + long-term) of a year, `null` when missing. */
export function totalDebt(context: ScoringContext, year: YearValues): number | null {
  const shortDebt = orAbsent(year.shortTermDebt, context.reported.shortTermDebt);
  const longDebt = orAbsent(year.longTermDebt, context.reported.longTermDebt);
  return shortDebt === null || longDebt === null ? null : shortDebt + longDebt;
}

/** A debt figure from more than this many fiscal years before the window's last year is stale. */
export const MAX_DEBT_AGE_YEARS = 1;
/** Debt falling by more than this fraction in one year is a candidate collapse of scope… */
export const SCOPE_COLLAPSE_DEBT_FALL = 0.9;
/** …when interest expense keeps at least this share of its level before the fall (judgement). */
export const SCOPE_COLLAPSE_INTEREST_KEPT = 0.5;

/** A one-year fall of reported debt that interest expense does not follow. */
export interface ScopeCollapse {
  /** Fiscal year of the fallen figure. */
  readonly fiscalYear: number;
  readonly debtBefore: number;
  readonly debtAfter: number;
  readonly interestBefore: number;
  /** Interest of the year after the fall (or of the year of the fall when it is the last). */
  readonly interestAfter: number;
}

function collapseAt(context: ScoringContext, index: number): ScopeCollapse | null {
  const before = context.years[index - 1] as YearValues;
  const year = context.years[index] as YearValues;
  if (year.fiscalYear !== before.fiscalYear + 1) return null;
  const debtBefore = totalDebt(context, before);
  const debtAfter = totalDebt(context, year);
  if (debtBefore === null || debtAfter === null || debtBefore <= 0) return null;
  if (debtAfter >= (1 - SCOPE_COLLAPSE_DEBT_FALL) * debtBefore) return null;
  // Debt repaid at a year end still costs most of that year's interest: look one year on.
  const next = context.years[index + 1];
  const interestLater =
    next !== undefined && next.fiscalYear === year.fiscalYear + 1 && next.interestExpense !== null
      ? next.interestExpense
      : year.interestExpense;
  const interestBefore = before.interestExpense;
  if (interestBefore === null || interestLater === null || interestBefore === 0) return null;
  const kept = Math.abs(interestLater) >= SCOPE_COLLAPSE_INTEREST_KEPT * Math.abs(interestBefore);
  return kept
    ? {
        fiscalYear: year.fiscalYear,
        debtBefore,
        debtAfter,
        interestBefore: Math.abs(interestBefore),
        interestAfter: Math.abs(interestLater),
      }
    : null;
}

/**
 * The latest collapse of debt scope in the window: reported debt falls by more than 90% in one
 * year while interest expense (of that year or, better, the next) stays at half its earlier level
 * or more. A company that repays nine tenths of its debt pays far less interest soon after; one
 * whose reported debt shrinks while interest does not has moved its debt out of the tags read
 * (Ford from FY2018: `DebtAndCapitalLeaseObligations` 154,287 M → 600 M while interest expense
 * rose 4,364 M → 5,157 M → 5,409 M). `null` when none is seen, or interest is not reported
 * around a fall (not verifiable either way).
 */
export function findScopeCollapse(context: ScoringContext): ScopeCollapse | null {
  for (let i = context.years.length - 1; i >= 1; i -= 1) {
    const collapse = collapseAt(context, i);
    if (collapse !== null) return collapse;
  }
  return null;
}

/** The debt figure the criterion would score, and whether it is evidence of the current debt. */
export interface DebtEvidence {
  /** The latest year of the window with a total debt figure. */
  readonly year: YearValues;
  /** Total debt of that year, currency units. */
  readonly debt: number;
  /** Fiscal years between that year and the window's last year. */
  readonly age: number;
  /** More than {@link MAX_DEBT_AGE_YEARS} old: says nothing about the current debt. */
  readonly stale: boolean;
  /** A collapse of scope at or before that year that the debt never recovered from. */
  readonly collapse: ScopeCollapse | null;
  /** Neither stale nor after an unrecovered collapse. */
  readonly reliable: boolean;
}

/**
 * Finds the latest total debt of the window and judges whether it is evidence of the company's
 * current debt (see {@link DebtEvidence}); `null` when no year of the window has a debt figure.
 */
export function debtEvidence(context: ScoringContext): DebtEvidence | null {
  const latest = latestWithDebt(context);
  if (latest === undefined) return null;
  const debt = totalDebt(context, latest) as number;
  const last = context.years[context.years.length - 1] as YearValues;
  const age = last.fiscalYear - latest.fiscalYear;
  const stale = age > MAX_DEBT_AGE_YEARS;
  const found = findScopeCollapse(context);
  const collapse =
    found !== null &&
    found.fiscalYear <= latest.fiscalYear &&
    debt < (1 - SCOPE_COLLAPSE_DEBT_FALL) * found.debtBefore
      ? found
      : null;
  return { year: latest, debt, age, stale, collapse, reliable: !stale && collapse === null };
}

function latestWithDebt(context: ScoringContext): YearValues | undefined {
  for (let i = context.years.length - 1; i >= 0; i -= 1) {
    const year = context.years[i] as YearValues;
    if (totalDebt(context, year) !== null) return year;
  }
  return undefined;
}
