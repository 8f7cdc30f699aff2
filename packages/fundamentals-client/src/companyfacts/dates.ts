const DAY_MS = 86_400_000;

/** Days from `start` to `end` (ISO dates), as companyfacts durations are counted. */
export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS);
}

/** `date` plus `days` days, as an ISO date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Fiscal year label of a period ending on `periodEnd`: its calendar year, or the year before
 * when it ends in January–May (the Compustat convention, as documented on
 * `FiscalYearFigures.fiscalYear`). Walmart's year ending 2026-01-31 is labelled 2025.
 */
export function fiscalYearLabel(periodEnd: string): number {
  const year = Number(periodEnd.slice(0, 4));
  const month = Number(periodEnd.slice(5, 7));
  return month <= 5 ? year - 1 : year;
}

/**
 * Annual window in days. 52/53-week years run 364 or 371 days; the research notes' window of
 * 350–380 days keeps them and drops quarters and 11-month transition periods.
 */
export const ANNUAL_MIN_DAYS = 350;
export const ANNUAL_MAX_DAYS = 380;

/** Whether a duration is a fiscal year (see {@link ANNUAL_MIN_DAYS}). */
export function isAnnual(start: string, end: string): boolean {
  const days = daysBetween(start, end);
  return days >= ANNUAL_MIN_DAYS && days <= ANNUAL_MAX_DAYS;
}
