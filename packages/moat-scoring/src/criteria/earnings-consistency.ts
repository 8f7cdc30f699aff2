import {
  type Assessment,
  BEST_FAIL,
  BEST_WARNING,
  type Cap,
  historyCaps,
  insufficient,
  scored,
} from '../core/assessment.js';
import { signedPercent } from '../core/format.js';
import { trendGrowth } from '../core/growth.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import {
  collect,
  type ScoringContext,
  type YearSeries,
  type YearValues,
} from '../core/scoring-context.js';
import { median, robustStdev, theilSenFit } from '../core/statistics.js';
import { continuingOperationsNote, earnings } from './margins.js';

/** Trend growth anchors, fraction per year (methodology §4.1; Rule #1 / IBD 10% sits inside). */
export const GROWTH_ANCHORS: readonly Anchor[] = [
  [0, 0],
  [0.03, 0.4],
  [0.07, 0.75],
  [0.12, 1],
];
/** R² anchors (NAIC bands: < 60% probably cyclical, 80–90% very good, > 90% excellent). */
export const R_SQUARED_ANCHORS: readonly Anchor[] = [
  [0.5, 0],
  [0.6, 0.4],
  [0.8, 0.75],
  [0.9, 1],
];
/** Multiplier by number of down-years (dassus98 {0:1, 1:0.9, 2:0.8, 3+:0.6}; ≥ 4 → 0.4 extends it). */
export const DOWN_YEAR_MULTIPLIERS = [1, 0.9, 0.8, 0.6, 0.4] as const;
/** A year-over-year fall smaller than this fraction is noise, not a down-year (judgement). */
export const DECLINE_TOLERANCE = 0.02;
/**
 * Earnings that fall more than this fraction below an earlier peak of the window cap the criterion
 * at fail (issue 39): consistency is judged through the cycle, not on the rise from a trough.
 * Mauboussin & Callahan ("Measuring the Moat", 2013) read variability of returns through the
 * cycle as the mark of a business without a moat; Buffett & Clark ask for earnings that are
 * "consistent and strong" with no collapse. The down-year multiplier counts falls without their
 * depth; a fall of more than half is a collapse, not noise (the 50% line is judgement; a loss
 * after a profitable peak is a fall of more than 100%).
 */
export const DRAWDOWN_FAIL = 0.5;
/** A diluted share count moving more than this fraction in a year makes EPS suspect (§4.1). */
export const SHARE_JUMP = 0.3;
/**
 * A year is a one-off when its residual from the Theil–Sen line exceeds this many robust standard
 * deviations (MAD × 1.4826). Leys et al. (2013) call 3 "very conservative" and 2.5 moderate; the
 * conservative line keeps a real break in the trend from being explained away.
 */
export const OUTLIER_ROBUST_SIGMAS = 3;
/**
 * …and differs from the line by at least this much (log-scale 0.25 ≈ a 22% shortfall or a 28%
 * excess; on levels 25% of the median level), so that a near-perfect series whose MAD is ~0 does
 * not flag ordinary noise. Judgement.
 */
export const OUTLIER_MIN_DEVIATION = 0.25;

/** One isolated year set aside by {@link flagOneOff}. */
export interface OneOff {
  readonly fiscalYear: number;
  readonly value: number;
}

/**
 * At most one isolated one-off year (an impairment, a tax-reform charge, a divestiture gain):
 * the interior year with the largest residual from a Theil–Sen line (on ln values when all are
 * positive, else on levels), when that residual exceeds {@link OUTLIER_ROBUST_SIGMAS} robust
 * standard deviations and {@link OUTLIER_MIN_DEVIATION}. Never the first or last year (no single
 * year may set or remove an endpoint), never with fewer than 6 years, and never two: a second
 * outlying year is a pattern, not a one-off. `null` when there is none.
 */
export function flagOneOff(series: YearSeries): OneOff | null {
  const { years, values } = series;
  if (values.length < 6) return null;
  const positive = values.every((v) => v > 0);
  const ys = positive ? values.map(Math.log) : values;
  const fit = theilSenFit(years, ys);
  if (fit === null) return null;
  const residuals = ys.map((y, i) => y - (fit.intercept + fit.slope * (years[i] as number)));
  const scale = robustStdev(residuals) ?? 0;
  const level = positive ? 1 : Math.abs(median(values) ?? 0);
  const limit = Math.max(OUTLIER_ROBUST_SIGMAS * scale, OUTLIER_MIN_DEVIATION * level);
  const outlying = residuals.map((r, i) => (Math.abs(r) > limit ? i : -1)).filter((i) => i >= 0);
  if (outlying.length !== 1) return null;
  const index = outlying[0] as number;
  if (index === 0 || index === values.length - 1) return null;
  return { fiscalYear: years[index] as number, value: values[index] as number };
}

function without(series: YearSeries, fiscalYear: number): YearSeries {
  const keep = series.years.map((y) => y !== fiscalYear);
  return {
    years: series.years.filter((_, i) => keep[i]),
    values: series.values.filter((_, i) => keep[i]),
  };
}

interface EarningsBasis {
  readonly label: 'EPS' | 'net income';
  readonly series: YearSeries;
}

function hasShareJump(context: ScoringContext): boolean {
  const shares = collect(context, (y) => y.dilutedShares);
  for (let i = 1; i < shares.values.length; i += 1) {
    const previous = shares.values[i - 1] as number;
    const current = shares.values[i] as number;
    if (previous > 0 && Math.abs(current / previous - 1) > SHARE_JUMP) return true;
  }
  return false;
}

/**
 * Diluted EPS of continuing operations: reported diluted EPS when the year reports no separate
 * continuing-operations income (or it equals net income), or when the reported EPS already is
 * that of continuing operations (within a cent or 2% of continuing income ÷ diluted shares: the
 * companyfacts provider reads continuing-operations EPS first, PG FY2016 3.49); else
 * continuing-operations income ÷ diluted shares (`null` without a positive share count, so that
 * the year is missing rather than mixed). JNJ FY2023 on a provider reporting total EPS: 13,326 M
 * ÷ 2,560.4 M shares = 5.20 instead of the 13.72 that includes the Kenvue gain.
 */
export function continuingEps(year: YearValues): number | null {
  const continuing = year.incomeFromContinuingOperations;
  if (continuing === null || continuing === year.netIncome) return year.dilutedEps;
  const shares = year.dilutedShares;
  if (shares === null || shares <= 0) return null;
  const computed = continuing / shares;
  const reported = year.dilutedEps;
  const close =
    reported !== null && Math.abs(reported - computed) <= Math.max(0.01, 0.02 * Math.abs(computed));
  return close ? reported : computed;
}

/**
 * Diluted EPS, unless EPS covers fewer years than net income or the share count jumps more than
 * 30% in a year (a split not restated, a filing error, a big merger): then net income, which is
 * free of share-count problems (methodology §4.1 and §6 "Stock splits"). Both on continuing
 * operations where the year reports them ({@link continuingEps}, `earnings`).
 */
export function earningsBasis(context: ScoringContext): EarningsBasis {
  const eps = collect(context, continuingEps);
  const income = collect(context, earnings);
  if (eps.values.length >= income.values.length && !hasShareJump(context)) {
    return { label: 'EPS', series: eps };
  }
  return { label: 'net income', series: income };
}

/** Number of year-over-year falls larger than {@link DECLINE_TOLERANCE}. */
export function countDownYears(values: readonly number[]): number {
  let count = 0;
  for (let i = 1; i < values.length; i += 1) {
    const previous = values[i - 1] as number;
    if ((values[i] as number) < previous - DECLINE_TOLERANCE * Math.abs(previous)) count += 1;
  }
  return count;
}

/** The largest fall of {@link deepestDrawdown}: its size and the fiscal years of peak and trough. */
export interface Drawdown {
  /** (peak − value) ÷ peak, a fraction (> 1 for a loss after a profit); 0 when none. */
  readonly depth: number;
  readonly peakYear: number | null;
  readonly troughYear: number | null;
}

/**
 * The deepest fall of a series below its running peak, counted only from a positive peak (a rise
 * out of an early loss is no fall). `depth` 0 with null years when the series never falls.
 */
export function deepestDrawdown(series: YearSeries): Drawdown {
  let peak = Number.NEGATIVE_INFINITY;
  let peakYear: number | null = null;
  let deepest: Drawdown = { depth: 0, peakYear: null, troughYear: null };
  series.values.forEach((value, i) => {
    const year = series.years[i] as number;
    if (value > peak) {
      peak = value;
      peakYear = year;
    } else if (peak > 0 && (peak - value) / peak > deepest.depth) {
      deepest = { depth: (peak - value) / peak, peakYear, troughYear: year };
    }
  });
  return deepest;
}

function drawdownCaps(drawdown: Drawdown): Cap[] {
  if (drawdown.depth <= DRAWDOWN_FAIL) return [];
  return [
    {
      cap: BEST_FAIL,
      note:
        drawdown.depth >= 1
          ? `from the FY${drawdown.peakYear} peak to a loss in FY${drawdown.troughYear}`
          : // in words: the depth is a derived figure no narrative could cite from the evaluation
            `fell by more than half from the FY${drawdown.peakYear} peak in FY${drawdown.troughYear}`,
    },
  ];
}

function lossCaps(series: YearSeries): Cap[] {
  const n = series.values.length;
  const losses = series.values.filter((v) => v <= 0).length;
  const recentLoss = series.values.slice(-3).some((v) => v <= 0);
  const failLosses = n - Math.ceil(0.8 * n) + 1;
  const caps: Cap[] = [];
  if (recentLoss) caps.push({ cap: BEST_FAIL, note: 'loss in the last 3 years' });
  if (losses >= failLosses) caps.push({ cap: BEST_FAIL, note: `${losses} loss years` });
  else if (losses >= 2) caps.push({ cap: BEST_WARNING, note: `${losses} loss years` });
  return caps;
}

function oneOffNote(oneOff: OneOff | null, label: string): string {
  if (oneOff === null) return '';
  const shown = label === 'EPS' ? oneOff.value.toFixed(2) : money(oneOff.value);
  return `; FY${oneOff.fiscalYear} (${shown}) set aside as a one-off`;
}

function money(value: number): string {
  return `${(value / 1e6).toLocaleString('en-US', { maximumFractionDigits: 0 })} M`;
}

/**
 * Earnings consistency (methodology §4.1) on diluted EPS or net income of continuing operations
 * where reported ({@link earningsBasis}; the display value says in how many years): `q = 0.5·q(growth) + 0.5·q(R²)·m(down-years)`, the
 * R² half counting only when the trend is meaningful and not falling (a steady decline or a
 * steady string of losses fits a line well but is no consistency merit), capped
 * by loss years (latest 3 years → fail; ≥ 2 → warning; more than 20% of years → fail, dassus98
 * "positive in 8 of 10"), by a fall of more than {@link DRAWDOWN_FAIL} below an earlier peak
 * (→ fail, {@link deepestDrawdown}; issue 39: the rise out of a cyclical trough is no consistency)
 * and by short or gappy history. numericValue = trend growth in percent.
 *
 * Robust to one-offs: growth, R² and down-years are computed without at most one isolated outlier
 * year ({@link flagOneOff}: a residual beyond 3 robust σ of a Theil–Sen line), which the display
 * names, and so is the drawdown gate; the loss gates and the trend still use every year. A real decline moves the Theil–Sen
 * line itself, so it leaves no single outlier and still fails (PG FY2019: EPS 1.43 after the
 * Gillette impairment between 3.67 and 4.96 is set aside; the other nine years keep their fit).
 */
export function assessEarningsConsistency(context: ScoringContext): Assessment {
  const { label, series } = earningsBasis(context);
  const n = series.values.length;
  if (n < 3) return insufficient(`${n} year(s) of ${label}; at least 3 are needed`, series);
  const oneOff = flagOneOff(series);
  const fitted = oneOff === null ? series : without(series, oneOff.fiscalYear);
  const { growth, rSquared } = trendGrowth(fitted);
  const downYears = countDownYears(fitted.values);
  const multiplier = DOWN_YEAR_MULTIPLIERS[Math.min(downYears, 4)] as number;
  const qGrowth = growth === null ? 0 : interpolate(growth, GROWTH_ANCHORS);
  // R² fits a steady decline as well as a steady rise: consistency earns points only alongside a
  // non-negative, meaningful trend (improvement on §4.1, which scores R² unconditionally).
  const rising = growth !== null && growth >= 0;
  const qConsistency = rising ? interpolate(rSquared, R_SQUARED_ANCHORS) * multiplier : 0;
  const growthText = growth === null ? 'growth n/m' : `${signedPercent(growth)}/yr`;
  return scored({
    quality: 0.5 * qGrowth + 0.5 * qConsistency,
    value: `${label} ${growthText}, R² ${rSquared.toFixed(2)}, ${downYears} down-year${downYears === 1 ? '' : 's'}${continuingOperationsNote(context, series.years)}${oneOffNote(oneOff, label)}`,
    numericValue: growth === null ? null : growth * 100,
    trend: series,
    caps: [
      ...lossCaps(series),
      ...drawdownCaps(deepestDrawdown(fitted)),
      ...historyCaps(n, context.spanYears),
    ],
  });
}
