import {
  type Assessment,
  BEST_FAIL,
  BEST_WARNING,
  historyCaps,
  insufficient,
  notApplicable,
  scored,
} from '../core/assessment.js';
import { percent, points } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import type { ScoringContext, YearSeries } from '../core/scoring-context.js';
import { endpointMeans, median, sampleStdev } from '../core/statistics.js';
import { grossMarginExemption, grossMarginSeries } from './margins.js';

/** Median gross margin anchors (Buffett & Clark 20% / 40%; dassus98 20/40/60). */
export const LEVEL_ANCHORS: readonly Anchor[] = [
  [0.2, 0],
  [0.3, 0.4],
  [0.4, 0.75],
  [0.6, 1],
];
/** Anchors of the change between the first and last 3-year means, as a fraction (judgement). */
export const SHIFT_ANCHORS: readonly Anchor[] = [
  [-0.05, 0],
  [-0.02, 0.4],
  [0, 0.75],
  [0.02, 1],
];
/** A drop larger than this within any 3-year window caps at warning (dassus98 sell signal). */
export const MAX_THREE_YEAR_DROP = 0.05;
/** Stability of a thin margin that qualifies a low-cost operator (judgement, §4.2 exception). */
export const LOW_COST_MAX_STDEV = 0.015;

/** Trend multiplier by standard deviation (≤ 5 pp "stable": dassus98; other steps judgement). */
export function stabilityMultiplier(stdev: number): number {
  if (stdev <= 0.03) return 1;
  if (stdev <= 0.05) return 0.9;
  if (stdev <= 0.08) return 0.7;
  return 0.5;
}

/** Worst fall between two data points at most 2 fiscal years apart (a 3-year window). */
export function worstThreeYearDrop(series: YearSeries): number {
  let worst = 0;
  for (let i = 0; i < series.values.length; i += 1) {
    for (let j = i + 1; j < series.values.length; j += 1) {
      if ((series.years[j] as number) - (series.years[i] as number) > 2) break;
      worst = Math.max(worst, (series.values[i] as number) - (series.values[j] as number));
    }
  }
  return worst;
}

/** Says what the margin's cost line covers when it is not plain cost of revenue. */
function scopeNote(context: ScoringContext): string {
  const notes: string[] = [];
  if (context.costScope?.excludesDepreciation) {
    notes.push('before D&A: the cost of revenue excludes depreciation and amortization');
  }
  if (context.costScope?.companyWide) {
    notes.push('cost of revenue = total costs less SG&A, finance arm included');
  }
  return notes.length === 0 ? '' : `; ${notes.join('; ')}`;
}

/** Facts about the related criteria that gross margin needs. */
export interface GrossMarginInputs {
  /** Whether return on invested capital passes (enables the low-cost-operator exception). */
  readonly roicPasses: boolean;
}

/**
 * Gross margin (methodology §4.2): `q = 0.6·q(median GM) + 0.4·q(3-yr endpoint shift)·s(σ)`;
 * a drop > 5 pp within 3 years caps at warning, a median below 20% caps at fail.
 *
 * Low-cost-operator exception (Buffett & Clark's third DCA model, Costco/Walmart; the
 * methodology leaves it open): when the margin is thin but very stable (σ ≤ 1.5 pp) and ROIC
 * passes, the level is not held against the company: `q = max(q, 0.74·q(shift))`, at best a
 * warning, so a stable thin margin earns up to 9.25 points and never a pass.
 * numericValue = median gross margin in percent.
 */
export function assessGrossMargin(context: ScoringContext, inputs: GrossMarginInputs): Assessment {
  const exemption = grossMarginExemption(context);
  if (exemption !== null) return notApplicable(exemption);
  const series = grossMarginSeries(context);
  const trend = { years: series.years, values: series.values.map((v) => v * 100) };
  const n = series.values.length;
  if (n < 3) return insufficient(`gross margin in ${n} year(s); at least 3 are needed`, trend);
  const level = median(series.values) as number;
  const ends = endpointMeans(series.values);
  const shift = ends === null ? 0 : ends.last - ends.first;
  const stdev = sampleStdev(series.values) ?? 0;
  const qShift = interpolate(shift, SHIFT_ANCHORS) * stabilityMultiplier(stdev);
  let quality = 0.6 * interpolate(level, LEVEL_ANCHORS) + 0.4 * qShift;
  const lowCost = level < 0.2 && stdev <= LOW_COST_MAX_STDEV && inputs.roicPasses;
  if (lowCost) quality = Math.max(quality, BEST_WARNING * qShift);
  const drop = worstThreeYearDrop(series);
  return scored({
    quality,
    value: `median ${percent(level)}, shift ${points(shift)}, σ ${(stdev * 100).toFixed(1)} pp${lowCost ? ', stable low-cost operator' : ''}${scopeNote(context)}`,
    numericValue: level * 100,
    trend,
    caps: [
      drop > MAX_THREE_YEAR_DROP && {
        cap: BEST_WARNING,
        note: `fell ${points(-drop)} within 3 years`,
      },
      level < 0.2 && !lowCost && { cap: BEST_FAIL, note: 'median below 20%' },
      lowCost && { cap: BEST_WARNING, note: 'thin margin (low-cost operator)' },
      ...historyCaps(n, context.spanYears),
    ],
  });
}
