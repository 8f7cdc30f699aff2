import { PortfolioError } from '../errors.js';
import { endOfPreviousYear, fromEpochDay, monthsBefore, toEpochDay } from './calendar.js';
import type { Timeline } from './types.js';

/**
 * Periods a performance can be asked for: the last month, three months, the year to date, the
 * last year, the last three years, since inception, or `custom` (`from`/`to`). Each ends on `to`
 * (default: the timeline's last day) and starts the day after its base day: one month before
 * `to` (clamped to a shorter month's end), December 31 of the previous year for `YTD`, the day
 * before the first transaction for `inception`, the day before `from` for `custom`.
 */
export const PERFORMANCE_PERIODS = ['1M', '3M', 'YTD', '1Y', '3Y', 'inception', 'custom'] as const;
/** One of {@link PERFORMANCE_PERIODS}. */
export type PerformancePeriod = (typeof PERFORMANCE_PERIODS)[number];

/** What {@link resolvePeriod} reads: a period, or `from` (custom), and an optional end `to`. */
export interface PeriodRequest {
  readonly period?: PerformancePeriod;
  /** First day included, `YYYY-MM-DD` (custom periods). */
  readonly from?: string;
  /** Last day included, `YYYY-MM-DD`; default the timeline's last day. */
  readonly to?: string;
}

/**
 * A period laid over a timeline: returns run over the days `(startIndex, endIndex]`, the value at
 * the end of `startIndex` being the base. `from`/`to` name the first and last day included.
 */
export interface ResolvedPeriod {
  readonly period: PerformancePeriod;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly from: string;
  readonly to: string;
  /** `true` when the period asked began before the first transaction and was shortened. */
  readonly clampedToInception: boolean;
}

/**
 * Resolves a {@link PeriodRequest} against `timeline`.
 *
 * @throws PortfolioError `invalid_argument` for a day that is not `YYYY-MM-DD`, `custom` without
 *   `from`, `from` after `to`, or `to` after the timeline's last day.
 */
export function resolvePeriod(request: PeriodRequest, timeline: Timeline): ResolvedPeriod {
  const lastDay = timeline.firstDay + timeline.length - 1;
  const endDay = request.to === undefined ? lastDay : day(request.to, 'to');
  if (endDay > lastDay) {
    throw invalid(`to ${request.to} lies after the last day valued, ${fromEpochDay(lastDay)}`);
  }
  const period = request.period ?? (request.from === undefined ? 'inception' : 'custom');
  const baseDay = baseOf(period, request, endDay, timeline.firstDay);
  if (baseDay >= endDay) {
    throw invalid(`from ${fromEpochDay(baseDay + 1)} lies after to ${fromEpochDay(endDay)}`);
  }
  const clamped = baseDay < timeline.firstDay && period !== 'inception';
  const startDay = Math.max(baseDay, timeline.firstDay);
  return {
    period,
    startIndex: Math.min(startDay, endDay) - timeline.firstDay,
    endIndex: endDay - timeline.firstDay,
    from: fromEpochDay(Math.min(startDay + 1, endDay)),
    to: fromEpochDay(endDay),
    clampedToInception: clamped,
  };
}

function baseOf(
  period: PerformancePeriod,
  request: PeriodRequest,
  end: number,
  first: number,
): number {
  switch (period) {
    case '1M':
      return monthsBefore(end, 1);
    case '3M':
      return monthsBefore(end, 3);
    case 'YTD':
      return endOfPreviousYear(end);
    case '1Y':
      return monthsBefore(end, 12);
    case '3Y':
      return monthsBefore(end, 36);
    case 'inception':
      return Math.min(first, end - 1);
    case 'custom':
      if (request.from === undefined) throw invalid('a custom period needs from');
      return day(request.from, 'from') - 1;
  }
}

function day(value: string, name: string): number {
  const parsed = toEpochDay(value);
  if (parsed === undefined) throw invalid(`${name} must be a day YYYY-MM-DD, got ${value}`);
  return parsed;
}

function invalid(message: string): PortfolioError {
  return new PortfolioError('invalid_argument', message);
}
