import {
  type Assessment,
  BEST_FAIL,
  historyCaps,
  insufficient,
  PASS_QUALITY,
  scored,
} from '../core/assessment.js';
import { percent, points } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import { collect, type ScoringContext } from '../core/scoring-context.js';
import { endpointMeans, median } from '../core/statistics.js';
import { stockPayNote } from './cash-earnings.js';
import {
  continuingOperationsNote,
  netMargin,
  netMarginBeforeOneOffs,
  oneOffYears,
} from './margins.js';

/**
 * Median net margin anchors: Buffett & Clark (< 10% competitive, > 20% durable), Dorsey /
 * Morningstar (> 15% "doing something right"); 5% and 25% are judgement.
 */
export const LEVEL_ANCHORS: readonly Anchor[] = [
  [0.05, 0],
  [0.1, 0.4],
  [0.15, 0.75],
  [0.2, 0.9],
  [0.25, 1],
];
/** Multiplier when fewer than 90% of years are profitable, or the margin fell > 5 pp (§4.3). */
export const PENALTY = 0.85;

/**
 * ", before one-offs in 4 yrs (GAAP median 9.8%)" when one-off items were taken out, else "".
 */
function oneOffNote(context: ScoringContext, level: number): string {
  const years = oneOffYears(context);
  if (years === 0) return '';
  const gaap = median(collect(context, netMargin).values);
  const beside = gaap === null || gaap === level ? '' : ` (GAAP median ${percent(gaap)})`;
  return `, before one-offs in ${years} yr${years === 1 ? '' : 's'}${beside}`;
}

/**
 * Net margin (methodology §4.3), NM = earnings / revenue with earnings = income from continuing
 * operations in the years that report it, net income otherwise (see `earnings`; the display value
 * says in how many years continuing operations were used), before one-off items where the
 * provider reports them (`netMarginBeforeOneOffs`, issue 39: impairments and restructuring added
 * back, gains removed, after tax; the GAAP median is shown beside): `q = q(median NM) × 0.85 (if < 90% of years profitable) × 0.85
 * (if the 3-year endpoint means fell > 5 pp)`; fewer than 80% profitable years caps at fail
 * (dassus98 "positive in 8 of 10"). For banks and insurers q is capped at 0.75: a high bank margin
 * can signal slack risk management (Buffett & Clark). numericValue = median net margin, percent.
 */
export function assessNetMargin(context: ScoringContext): Assessment {
  const series = collect(context, (_, index) => netMarginBeforeOneOffs(context, index));
  const trend = { years: series.years, values: series.values.map((v) => v * 100) };
  const n = series.values.length;
  if (n < 3) return insufficient(`net margin in ${n} year(s); at least 3 are needed`, trend);
  const level = median(series.values) as number;
  const profitable = series.values.filter((v) => v > 0).length;
  const ends = endpointMeans(series.values);
  const shift = ends === null ? 0 : ends.last - ends.first;
  let quality = interpolate(level, LEVEL_ANCHORS);
  if (profitable < Math.ceil(0.9 * n)) quality *= PENALTY;
  if (shift < -0.05) quality *= PENALTY;
  return scored({
    quality,
    value: `median ${percent(level)}, profitable ${profitable}/${n} yrs, shift ${points(shift)}${oneOffNote(context, level)}${continuingOperationsNote(context, series.years)}${stockPayNote(context)}`,
    numericValue: level * 100,
    trend,
    caps: [
      profitable < Math.ceil(0.8 * n) && {
        cap: BEST_FAIL,
        note: `profitable in fewer than ${Math.ceil(0.8 * n)} of ${n} years`,
      },
      context.financial && { cap: PASS_QUALITY, note: 'bank or insurer: high margins signal risk' },
      ...historyCaps(n, context.spanYears),
    ],
  });
}
