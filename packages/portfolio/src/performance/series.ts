import { fromEpochDay, isWeekend } from './calendar.js';
import type { ResolvedPeriod } from './periods.js';
import type { Timeline, Track } from './types.js';

/** Spacing of a {@link valueSeries}: every weekday, every Friday, or every month's last day. */
export const SERIES_INTERVALS = ['daily', 'weekly', 'monthly'] as const;
/** One of {@link SERIES_INTERVALS}. */
export type SeriesInterval = (typeof SERIES_INTERVALS)[number];

/** One point of a chart: the value and the net amount put in so far, EUR. */
export interface ValuePoint {
  readonly date: string;
  /** End-of-day value; null on a day a close or a rate was missing (never 0, never guessed). */
  readonly valueEur: number | null;
  /** External inflows − outflows since inception up to and including the day. */
  readonly netInvestedEur: number;
}

/**
 * The value of a track over a period, for charts: points on the period's weekdays (`daily`),
 * its Fridays (`weekly`) or the last day of each month (`monthly`), the period's first and last
 * day always included.
 */
export function valueSeries(
  timeline: Timeline,
  track: Track,
  period: ResolvedPeriod,
  interval: SeriesInterval,
): ValuePoint[] {
  const from = period.startIndex + 1;
  const to = period.endIndex;
  if (to < from || from < 1) return [];
  const missing = new Set(track.missing.map((m) => m.index));
  let invested = 0;
  for (let i = 0; i < from; i++)
    invested += (track.inEur[i] as number) - (track.outEur[i] as number);
  const points: ValuePoint[] = [];
  for (let i = from; i <= to; i++) {
    invested += (track.inEur[i] as number) - (track.outEur[i] as number);
    const day = timeline.firstDay + i;
    if (i !== from && i !== to && !wanted(day, interval)) continue;
    points.push({
      date: fromEpochDay(day),
      valueEur: missing.has(i) ? null : (track.valueEur[i] as number),
      netInvestedEur: invested,
    });
  }
  return points;
}

function wanted(day: number, interval: SeriesInterval): boolean {
  switch (interval) {
    case 'daily':
      return !isWeekend(day);
    case 'weekly':
      return (((day + 4) % 7) + 7) % 7 === 5;
    case 'monthly':
      return fromEpochDay(day + 1).endsWith('-01');
  }
}
