import { fromEpochDay, toEpochDay } from './calendar.js';
import type { DailySeries } from './types.js';

/**
 * A daily series laid over a timeline: for index i (day `firstDay + i`) the last value on or
 * before that day, and its age in days. `NaN` when there is none, or it is older than `maxAge`
 * within the series: a gap is missing, never interpolated. After the series' last date its last
 * value carries forward whatever its age (the age says how stale it is).
 */
export interface AlignedSeries {
  readonly values: Float64Array;
  readonly ages: Int32Array;
}

/**
 * The last alignment of each series (issue 30): a timeline rebuilt after a ledger write from
 * the same market data (the same `DailySeries` objects) over the same days aligns nothing again.
 * Keyed weakly by the series; aligned arrays are never written after they are made.
 */
const lastAlignment = new WeakMap<DailySeries, { key: string; aligned: AlignedSeries }>();

/**
 * Aligns `series` to `length` days from `firstDay`, carrying a value forward at most `maxAge`
 * days (weekends, holidays) within the series, and without limit after its last date. One pass over the series from index `fromIndex` (default 0; the
 * indexes before it stay `NaN`: a resumed walk never reads them); dates that are not calendar
 * days or values that are not > 0 (≥ 0 with `zeroIsPrice`) are skipped. The answer is shared with the next call for the
 * same series object and arguments (it must not be written to); a series must not change after
 * it was aligned.
 */
export function alignSeries(
  series: DailySeries | undefined,
  firstDay: number,
  length: number,
  maxAge: number,
  fromIndex = 0,
): AlignedSeries {
  if (series === undefined) return align(series, firstDay, length, maxAge, fromIndex);
  const key = `${firstDay} ${length} ${maxAge} ${fromIndex}`;
  const last = lastAlignment.get(series);
  if (last?.key === key) return last.aligned;
  const aligned = align(series, firstDay, length, maxAge, fromIndex);
  lastAlignment.set(series, { key, aligned });
  return aligned;
}

function align(
  series: DailySeries | undefined,
  firstDay: number,
  length: number,
  maxAge: number,
  fromIndex: number,
): AlignedSeries {
  const values = new Float64Array(length).fill(Number.NaN);
  const ages = new Int32Array(length).fill(-1);
  if (series === undefined) return { values, ages };
  const { dates, values: raw } = series;
  const floor = series.zeroIsPrice === true ? 0 : Number.MIN_VALUE;
  // start at the last date before the timeline (it may be carried into day 0)
  let cursor = Math.max(
    0,
    firstIndexOnOrAfter(dates, fromEpochDay(firstDay + fromIndex - maxAge)) - 1,
  );
  let lastDay = Number.NEGATIVE_INFINITY;
  let lastValue = Number.NaN;
  let nextDay = dayAt(dates, cursor);
  for (let i = Math.max(0, fromIndex); i < length; i++) {
    const day = firstDay + i;
    while (nextDay <= day) {
      const value = raw[cursor] as number;
      if (nextDay > Number.NEGATIVE_INFINITY && value >= floor && Number.isFinite(value)) {
        lastDay = nextDay;
        lastValue = value;
      }
      cursor++;
      nextDay = dayAt(dates, cursor);
    }
    const age = day - lastDay;
    // past the series' last date the last value carries on, however old (issue 38: an ECB file
    // or price file that ends before the timeline); its age marks it stale
    if (
      age <= maxAge ||
      (nextDay === Number.POSITIVE_INFINITY && lastDay > Number.NEGATIVE_INFINITY)
    ) {
      values[i] = lastValue;
      ages[i] = age;
    }
  }
  return { values, ages };
}

/** Epoch day of `dates[index]`; +∞ past the end; a malformed date reads as −∞ (skipped). */
function dayAt(dates: readonly string[], index: number): number {
  if (index >= dates.length) return Number.POSITIVE_INFINITY;
  return toEpochDay(dates[index] as string) ?? Number.NEGATIVE_INFINITY;
}

/** Index of the first date ≥ `day` (string order is date order for `YYYY-MM-DD`). */
function firstIndexOnOrAfter(dates: readonly string[], day: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((dates[mid] as string) < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The constant series 1 (EUR per EUR). */
export function unitSeries(length: number): AlignedSeries {
  return { values: new Float64Array(length).fill(1), ages: new Int32Array(length) };
}
