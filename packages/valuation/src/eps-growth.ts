import type { FiscalYearFigures } from '@svc/schemas';
import { epsOfYear } from './eps.js';

/** Years spanned by the growth window: the latest fiscal year and the five before it. */
export const GROWTH_WINDOW_YEARS = 6;
/**
 * A start EPS below this share of the window's median |EPS| is too small to carry a growth rate:
 * F FY2019 EPS 0.01 against a median of 0.79 gave 170.9%/yr to FY2024's 1.46. An order of
 * magnitude below the company's typical earnings is a near-zero year, not a base (judgement).
 */
export const MIN_BASE_SHARE = 0.1;

/** Result of {@link historicalEpsGrowth}. */
export type EpsGrowth =
  | {
      readonly ok: true;
      /** Compound annual growth rate, in PERCENT per year (12.3 means 12.3 %/yr). */
      readonly percent: number;
      /** Human-readable description of the method and years used. */
      readonly basis: string;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * Five-year historical diluted-EPS CAGR ending at `latestFiscalYear`, in percent per year.
 *
 * Window: fiscal years `L−5 … L` (six years, by fiscal-year label).
 * - Both endpoints `> 0` and the start at least {@link MIN_BASE_SHARE} of the window's median
 *   |EPS|: `CAGR = (EPS_L / EPS_{L−5})^(1/5) − 1`.
 * - Either endpoint `≤ 0`, or a start too small to carry a rate: the robust variant of methodology §4.1/§6 ("negative earnings: CAGR
 *   uses a 3-year mean base"): `(mean(EPS_{L−2..L}) / mean(EPS_{L−5..L−3}))^(1/3) − 1` (the
 *   two means are centred three years apart), when both means are `> 0` and all six years exist.
 * - Otherwise not meaningful: `{ ok: false, reason }`.
 *
 * EPS per year comes from {@link epsOfYear} (reported, else net income / diluted shares).
 */
export function historicalEpsGrowth(
  years: readonly FiscalYearFigures[],
  latestFiscalYear: number,
): EpsGrowth {
  const first = latestFiscalYear - (GROWTH_WINDOW_YEARS - 1);
  const byYear = new Map<number, number>();
  for (const year of years) {
    if (year.fiscalYear < first || year.fiscalYear > latestFiscalYear) continue;
    const eps = epsOfYear(year);
    if (eps !== null) byYear.set(year.fiscalYear, eps.value);
  }
  const start = byYear.get(first);
  const end = byYear.get(latestFiscalYear);
  if (start === undefined || end === undefined) {
    return {
      ok: false,
      reason: `insufficient EPS history: need diluted EPS for FY${first} and FY${latestFiscalYear}`,
    };
  }
  const typical = medianAbs([...byYear.values()]);
  const tinyBase = start > 0 && start < MIN_BASE_SHARE * typical;
  if (start > 0 && end > 0 && !tinyBase) {
    return finish(
      (end / start) ** (1 / 5) - 1,
      `5-year diluted EPS CAGR FY${first}→FY${latestFiscalYear} (endpoints)`,
    );
  }
  const means = threeYearMeansGrowth(byYear, first, latestFiscalYear);
  if (!tinyBase) return means;
  const why = `FY${first} EPS ${start} is below ${MIN_BASE_SHARE * 100}% of the median |EPS| ${typical.toFixed(2)} of FY${first}–FY${latestFiscalYear}, too small a base for a growth rate`;
  if (!means.ok) return { ok: false, reason: `${why}; ${means.reason}` };
  return { ...means, basis: `${means.basis.replace(' (an endpoint was ≤ 0)', '')} (${why})` };
}

function medianAbs(values: readonly number[]): number {
  const sorted = values.map(Math.abs).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function threeYearMeansGrowth(
  byYear: ReadonlyMap<number, number>,
  first: number,
  last: number,
): EpsGrowth {
  const head = [first, first + 1, first + 2].map((y) => byYear.get(y));
  const tail = [last - 2, last - 1, last].map((y) => byYear.get(y));
  const values = [...head, ...tail];
  if (values.some((v) => v === undefined)) {
    return {
      ok: false,
      reason: `an EPS endpoint is ≤ 0 and FY${first}–FY${last} is incomplete: no 3-year-mean growth`,
    };
  }
  const meanHead = mean(head as number[]);
  const meanTail = mean(tail as number[]);
  if (meanHead <= 0 || meanTail <= 0) {
    return { ok: false, reason: 'loss years: 3-year mean EPS ≤ 0, growth not meaningful' };
  }
  return finish(
    (meanTail / meanHead) ** (1 / 3) - 1,
    `diluted EPS CAGR of 3-year means FY${first}–FY${first + 2} → FY${last - 2}–FY${last} (an endpoint was ≤ 0)`,
  );
}

function finish(rate: number, basis: string): EpsGrowth {
  const percent = rate * 100;
  if (!Number.isFinite(percent)) return { ok: false, reason: 'EPS growth not finite' };
  return { ok: true, percent, basis };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}
