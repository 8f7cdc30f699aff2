import type { CriterionStatus, DataQualityFlag } from '@svc/schemas';
import type { YearSeries } from './scoring-context.js';

/** Quality at or above which a criterion passes (methodology §0.1: Pass anchor → 0.75). */
export const PASS_QUALITY = 0.75;
/** Quality at or above which a criterion is a warning (methodology §0.1: Warning anchor → 0.40). */
export const WARNING_QUALITY = 0.4;
/** Cap meaning "at best a warning" (methodology §0.1). */
export const BEST_WARNING = 0.74;
/** Cap meaning "at best a fail" (methodology §0.1). */
export const BEST_FAIL = 0.39;

/** A criterion that was scored on data: quality in [0, 1] plus what to display. */
export interface ScoredAssessment {
  readonly kind: 'scored';
  readonly quality: number;
  readonly value: string;
  readonly numericValue: number | null;
  readonly trend: YearSeries;
  /** Data-quality flags of the series it rests on (copied to `Criterion.dataQuality`). */
  readonly dataQuality?: readonly DataQualityFlag[];
}

/** A criterion that cannot apply to this company (structural, excluded from the maximum). */
export interface NotApplicableAssessment {
  readonly kind: 'not_applicable';
  readonly reason: string;
  /** Data-quality flags of the series it rests on (copied to `Criterion.dataQuality`). */
  readonly dataQuality?: readonly DataQualityFlag[];
}

/** A criterion that applies but lacks the data to be scored: a fail with 0 points, never neutral. */
export interface InsufficientAssessment {
  readonly kind: 'insufficient';
  readonly reason: string;
  readonly trend: YearSeries;
  /** Data-quality flags of the series it rests on (copied to `Criterion.dataQuality`). */
  readonly dataQuality?: readonly DataQualityFlag[];
}

/** What a criterion function returns. */
export type Assessment = ScoredAssessment | NotApplicableAssessment | InsufficientAssessment;

/** A ceiling on quality with the reason shown to the user; `false`/`null` entries are ignored. */
export interface Cap {
  readonly cap: number;
  readonly note: string;
}

const EMPTY: YearSeries = { years: [], values: [] };

/** Status from quality, so that status and score never disagree (methodology §0.1). */
export function statusFor(quality: number): CriterionStatus {
  if (quality >= PASS_QUALITY) return 'pass';
  if (quality >= WARNING_QUALITY) return 'warning';
  return 'fail';
}

/**
 * Caps shared by every criterion (methodology §3 and §6 "Missing lines"): with 3–4 data points
 * the history is too short to call a moat durable (at best a warning); when fewer than 70% of the
 * fiscal years in the window carry the data, at best a warning too.
 */
export function historyCaps(points: number, spanYears: number): Cap[] {
  const caps: Cap[] = [];
  if (points < 5) caps.push({ cap: BEST_WARNING, note: `limited history (${points} yrs)` });
  if (points < 0.7 * spanYears) {
    caps.push({ cap: BEST_WARNING, note: `data in ${points} of ${spanYears} fiscal years` });
  }
  return caps;
}

/**
 * Builds a scored assessment: clamps quality to [0, 1], applies the caps in order and appends
 * the notes of the caps that bound (lowered the quality) to the display value.
 */
export function scored(input: {
  quality: number;
  value: string;
  numericValue: number | null;
  trend: YearSeries;
  caps?: readonly (Cap | false | null | undefined)[];
}): ScoredAssessment {
  let quality = Number.isFinite(input.quality) ? Math.min(1, Math.max(0, input.quality)) : 0;
  const notes: string[] = [];
  for (const cap of input.caps ?? []) {
    if (!cap || quality <= cap.cap) continue;
    quality = cap.cap;
    notes.push(cap.note);
  }
  const value = notes.length === 0 ? input.value : `${input.value} (capped: ${notes.join('; ')})`;
  const numericValue =
    input.numericValue !== null && Number.isFinite(input.numericValue) ? input.numericValue : null;
  return { kind: 'scored', quality, value, numericValue, trend: finiteOnly(input.trend) };
}

/** Drops non-finite points of a series (an overflow in a ratio must never reach the output). */
export function finiteOnly(series: YearSeries): YearSeries {
  if (series.values.every(Number.isFinite)) return series;
  const years: number[] = [];
  const values: number[] = [];
  series.values.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    years.push(series.years[i] as number);
    values.push(v);
  });
  return { years, values };
}

/** A criterion that applies but cannot be scored for lack of data (0 points, status fail). */
export function insufficient(reason: string, trend: YearSeries = EMPTY): InsufficientAssessment {
  return { kind: 'insufficient', reason, trend: finiteOnly(trend) };
}

/** A criterion that structurally cannot apply (0 of 0 points, status warning, "N/A — why"). */
export function notApplicable(reason: string): NotApplicableAssessment {
  return { kind: 'not_applicable', reason };
}
