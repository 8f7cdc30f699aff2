import type { DataIssue } from '@svc/schemas';
import type { Series } from './select-series.js';

/**
 * Adjacent-year ratio at or above which a share count is treated as a scale error (filed in
 * thousands or millions). Research notes §4: DAL FY2008 `468`, LUV FY2008 `739`, NVDA FY2009
 * `548,126`, MCD FY2021 `751.8` next to ~10^8–10^9 in neighbouring years.
 */
export const SCALE_ERROR_RATIO = 50;
/** After rescaling by a power of 1000 the value must be within this factor of its neighbours. */
const CONSISTENT_RATIO = 10;

const spread = (a: number, b: number): number => Math.max(a / b, b / a);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Finds share counts off by ≥ {@link SCALE_ERROR_RATIO}× from both neighbouring years (and from
 * the series median), then rescales each by the power of 1000 that brings it within
 * {@link CONSISTENT_RATIO}× of its neighbours (`rescaled`), or drops it (`dropped_outlier`).
 * Runs after split adjustment, so splits are not mistaken for scale errors.
 */
export function fixShareScaleErrors(metric: string, series: Series, issues: DataIssue[]): void {
  dropNonPositive(metric, series, issues);
  const labels = [...series.keys()].sort((a, b) => a - b);
  const values = labels.map((l) => series.get(l)?.value ?? 0).filter((v) => v > 0);
  if (values.length < 2) return;
  const mid = median(values);
  const far = new Set(
    labels.filter((l) => spread(series.get(l)?.value ?? mid, mid) >= SCALE_ERROR_RATIO),
  );
  const suspects = labels.filter((label, i) => isSuspect(label, i, labels, series, far));
  for (const label of suspects) {
    const pick = series.get(label);
    if (!pick) continue;
    const ref = reference(label, labels, series, suspects, mid);
    const fixed = bestRescale(pick.value, ref);
    if (fixed !== null) {
      const factor = fixed / pick.value;
      const note = `rescaled ×${factor >= 1 ? factor.toLocaleString('en-US') : `1/${(1 / factor).toLocaleString('en-US')}`}: filed as ${pick.value}, neighbouring years ≈ ${Math.round(ref).toLocaleString('en-US')}`;
      pick.source.note = pick.source.note ? `${pick.source.note}; ${note}` : note;
      pick.value = fixed;
      issues.push({
        fiscalYear: label,
        metric,
        kind: 'rescaled',
        message: `${pick.source.tag} ${note}`,
      });
    } else {
      series.delete(label);
      issues.push({
        fiscalYear: label,
        metric,
        kind: 'dropped_outlier',
        message: `${pick.source.tag} = ${pick.value} (${pick.source.accession}) is ≥${SCALE_ERROR_RATIO}× off its neighbouring years (≈ ${Math.round(ref)}) and no power-of-1000 rescale fits; dropped`,
      });
    }
  }
}

/**
 * A value is suspect when it is ≥50× off the series median and borders an adjacent-year jump of
 * ≥50×, directly or through a run of equally far-off neighbours (NVDA FY2007–FY2008, both filed
 * in thousands).
 */
/** A share count of zero or less is a filing error (LUV FY2009 cover page: 0). */
function dropNonPositive(metric: string, series: Series, issues: DataIssue[]): void {
  for (const [label, pick] of series) {
    if (pick.value > 0) continue;
    series.delete(label);
    issues.push({
      fiscalYear: label,
      metric,
      kind: 'dropped_outlier',
      message: `${pick.source.tag} = ${pick.value} (${pick.source.accession}) is not a share count; dropped`,
    });
  }
}

function isSuspect(label: number, i: number, labels: number[], series: Series, far: Set<number>) {
  const value = series.get(label)?.value;
  if (value === undefined || value <= 0 || !far.has(label)) return false;
  return [labels[i - 1], labels[i + 1]].some((l) => {
    const n = l === undefined ? undefined : series.get(l)?.value;
    if (l === undefined || n === undefined || n <= 0) return false;
    return far.has(l) || spread(value, n) >= SCALE_ERROR_RATIO;
  });
}

/** Geometric mean of the nearest non-suspect neighbours, else the series median. */
function reference(
  label: number,
  labels: number[],
  series: Series,
  suspects: number[],
  mid: number,
) {
  const ok = labels.filter((l) => !suspects.includes(l));
  const before = ok.filter((l) => l < label).pop();
  const after = ok.find((l) => l > label);
  const refs = [before, after]
    .map((l) => (l === undefined ? undefined : series.get(l)?.value))
    .filter((v): v is number => v !== undefined && v > 0);
  if (refs.length === 0) return mid;
  return Math.exp(refs.reduce((s, v) => s + Math.log(v), 0) / refs.length);
}

function bestRescale(value: number, ref: number): number | null {
  let best: number | null = null;
  for (const power of [-3, -2, -1, 1, 2, 3]) {
    const candidate = Math.round(value * 1000 ** power);
    if (
      spread(candidate, ref) < CONSISTENT_RATIO &&
      (best === null || spread(candidate, ref) < spread(best, ref))
    ) {
      best = candidate;
    }
  }
  return best;
}
