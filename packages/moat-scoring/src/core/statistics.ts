/** Small numeric helpers over plain arrays. Every function returns `null` when undefined. */

/** Arithmetic mean; `null` for an empty array. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Mean of `values[from…to)` without copying (`to > from`). */
function meanOf(values: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let i = from; i < to; i += 1) total += values[i] as number;
  return total / (to - from);
}

/** Sum of the values (0 for an empty array). */
export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/**
 * Sort buffer reused by {@link median} (grown on demand): the median of a 10-year series is taken
 * dozens of times per evaluation, and copying each series into a fresh array showed up as
 * allocation and GC time in the bench profile. Module state, but invisible: `median` fills it and
 * reads it back without calling out, so no other code can observe or interleave with it.
 */
let sortBuffer = new Float64Array(64);

/**
 * Median (mean of the two middle values for an even count); `null` for an empty array. Sorts a
 * copy in a reused buffer (insertion sort: series are at most a few dozen values); the input is
 * not modified.
 */
export function median(values: readonly number[]): number | null {
  const n = values.length;
  if (n === 0) return null;
  if (sortBuffer.length < n) sortBuffer = new Float64Array(2 * n);
  const sorted = sortBuffer;
  for (let i = 0; i < n; i += 1) {
    const v = values[i] as number;
    let j = i - 1;
    while (j >= 0 && (sorted[j] as number) > v) {
      sorted[j + 1] = sorted[j] as number;
      j -= 1;
    }
    sorted[j + 1] = v;
  }
  const mid = n >> 1;
  if (n % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Sample standard deviation (n − 1); `null` with fewer than 2 values. */
export function sampleStdev(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null || values.length < 2) return null;
  let squares = 0;
  for (const v of values) squares += (v - m) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

/** Result of an ordinary least squares fit `y = intercept + slope × x`. */
export interface LinearFit {
  slope: number;
  intercept: number;
  /** Coefficient of determination; 1 when `y` has no variance (a perfect, flat fit). */
  rSquared: number;
}

/** Ordinary least squares of `ys` on `xs`; `null` with fewer than 2 points or no spread in `xs`. */
export function linearFit(xs: readonly number[], ys: readonly number[]): LinearFit | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return null;
  const mx = meanOf(xs, 0, n);
  const my = meanOf(ys, 0, n);
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  const rSquared = syy === 0 ? 1 : Math.min(1, (sxy * sxy) / (sxx * syy));
  return { slope, intercept: my - slope * mx, rSquared };
}

/**
 * Means of the first and last `k` values, `k = min(3, ⌊n / 2⌋)`, so that the two ends never
 * overlap and no single year sets an endpoint (methodology §0.3: 3-year endpoint averages).
 * `null` with fewer than 2 values.
 */
export function endpointMeans(
  values: readonly number[],
): { first: number; last: number; k: number } | null {
  const k = Math.min(3, Math.floor(values.length / 2));
  if (k === 0) return null;
  return { first: meanOf(values, 0, k), last: meanOf(values, values.length - k, values.length), k };
}

/**
 * Theil–Sen line `y = intercept + slope × x`: the slope is the median of the slopes between every
 * pair of points with distinct `x`, the intercept the median of `y − slope × x` (Theil 1950; Sen,
 * "Estimates of the regression coefficient based on Kendall's tau", JASA 1968). Robust: up to
 * about 29% of the points can be arbitrary without moving the line far. `null` with fewer than 2
 * points or no spread in `xs`.
 */
export function theilSenFit(
  xs: readonly number[],
  ys: readonly number[],
): { slope: number; intercept: number } | null {
  const n = Math.min(xs.length, ys.length);
  const slopes: number[] = [];
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const dx = (xs[j] as number) - (xs[i] as number);
      if (dx !== 0) slopes.push(((ys[j] as number) - (ys[i] as number)) / dx);
    }
  }
  const slope = median(slopes);
  if (slope === null) return null;
  const offsets: number[] = [];
  for (let i = 0; i < n; i += 1) offsets.push((ys[i] as number) - slope * (xs[i] as number));
  return { slope, intercept: median(offsets) as number };
}

/**
 * Robust standard deviation: the median absolute deviation from the median × 1.4826 (consistent
 * with σ for normal data; Leys et al., "Detecting outliers: Do not use standard deviation around
 * the mean, use absolute deviation around the median", J. Exp. Soc. Psychol. 2013). `null` for an
 * empty list.
 */
export function robustStdev(values: readonly number[]): number | null {
  const m = median(values);
  if (m === null) return null;
  return 1.4826 * (median(values.map((v) => Math.abs(v - m))) as number);
}
