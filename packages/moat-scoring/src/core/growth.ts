import type { YearSeries } from './scoring-context.js';
import { endpointMeans, linearFit } from './statistics.js';

/** Growth rates are clamped to +10 000%/yr so that tiny bases cannot overflow to Infinity. */
export const MAX_GROWTH = 100;

const clampGrowth = (g: number) => (Number.isFinite(g) ? Math.min(g, MAX_GROWTH) : MAX_GROWTH);

/**
 * Trend growth per year: from the log-linear OLS slope when every value is positive, otherwise
 * from 3-year endpoint means (annualised over the distance between their mean fiscal years);
 * `null` when not meaningful (an endpoint mean ≤ 0). Growth is a fraction per year, at most
 * {@link MAX_GROWTH}; `rSquared` is that of the log fit, or of a linear fit on levels.
 */
export function trendGrowth(series: YearSeries): { growth: number | null; rSquared: number } {
  const { years, values } = series;
  if (values.every((v) => v > 0)) {
    const fit = linearFit(years, values.map(Math.log));
    if (fit === null) return { growth: null, rSquared: 0 };
    return { growth: clampGrowth(Math.expm1(fit.slope)), rSquared: fit.rSquared };
  }
  const fit = linearFit(years, values);
  const ends = endpointMeans(values);
  const yearEnds = endpointMeans(years);
  if (fit === null || ends === null || yearEnds === null) return { growth: null, rSquared: 0 };
  const distance = yearEnds.last - yearEnds.first;
  if (ends.first <= 0 || ends.last <= 0 || distance <= 0) {
    return { growth: null, rSquared: fit.rSquared };
  }
  const growth = clampGrowth((ends.last / ends.first) ** (1 / distance) - 1);
  return { growth, rSquared: fit.rSquared };
}
