import type { QuotaPeriod } from './limits.js';

/** The UTC start of the period containing `now`: 00:00 of the day, or of the 1st of the month. */
export function periodStart(now: Date, period: QuotaPeriod): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  switch (period) {
    case 'day':
      return new Date(Date.UTC(year, month, now.getUTCDate()));
    case 'month':
      return new Date(Date.UTC(year, month, 1));
  }
}

/** The UTC instant the period containing `now` ends and the counter resets (exclusive end). */
export function periodEnd(now: Date, period: QuotaPeriod): Date {
  const start = periodStart(now, period);
  switch (period) {
    case 'day':
      return new Date(
        Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1),
      );
    case 'month':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  }
}

/** Whole seconds from `now` until `until`, at least 1 (an HTTP `Retry-After` value). */
export function secondsUntil(now: Date, until: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
