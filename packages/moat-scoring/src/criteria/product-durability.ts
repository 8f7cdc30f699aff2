import {
  type Assessment,
  BEST_WARNING,
  historyCaps,
  insufficient,
  scored,
} from '../core/assessment.js';
import { percent } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import { memoSeries, type ScoringContext, type YearValues } from '../core/scoring-context.js';
import { median, sampleStdev } from '../core/statistics.js';
import { grossMargin, grossMarginExemption, operatingMargin } from './margins.js';

/** Worst year-over-year revenue change anchors (judgement, §4.8a). */
export const REVENUE_DRAWDOWN_ANCHORS: readonly Anchor[] = [
  [-0.3, 0],
  [-0.15, 0.4],
  [-0.05, 0.75],
  [0, 1],
];
/** Median − minimum margin anchors, as a fraction (judgement on Buffett's pricing power, §4.8b). */
export const MARGIN_DRAWDOWN_ANCHORS: readonly Anchor[] = [
  [0.1, 0],
  [0.06, 0.4],
  [0.03, 0.75],
  [0.01, 1],
];
/** SG&A ÷ gross profit anchors (Buffett & Clark: < 30% fantastic, 80–100% competitive). */
export const SGA_ANCHORS: readonly Anchor[] = [
  [1, 0],
  [0.8, 0.4],
  [0.5, 0.75],
  [0.3, 1],
];
/** R&D ÷ gross profit anchors (Stoffel ≤ 30%; Buffett & Clark "heavy R&D is a flaw"). */
export const RND_ANCHORS: readonly Anchor[] = [
  [0.7, 0],
  [0.5, 0.4],
  [0.3, 0.75],
  [0.1, 1],
];
/** D&A ÷ gross profit anchors (Stoffel ≤ 10%; Buffett & Clark KO 6%, Wrigley 7%). */
export const DEPRECIATION_ANCHORS: readonly Anchor[] = [
  [0.35, 0],
  [0.2, 0.4],
  [0.1, 0.75],
  [0.08, 1],
];
/** Operating-margin standard deviation anchors, as a fraction (judgement, §4.8d). */
export const OPERATING_STABILITY_ANCHORS: readonly Anchor[] = [
  [0.12, 0],
  [0.08, 0.4],
  [0.04, 0.75],
  [0.02, 1],
];

/** One sub-signal: its quality, weight and a display phrase. */
interface Signal {
  readonly quality: number;
  readonly weight: number;
  readonly text: string;
}

/** Year-over-year revenue changes between consecutive fiscal years with positive revenue. */
export function revenueChanges(context: ScoringContext): number[] {
  const revenue = memoSeries(context, 'revenue', (y) => y.revenue);
  const changes: number[] = [];
  for (let i = 1; i < revenue.values.length; i += 1) {
    const previous = revenue.values[i - 1] as number;
    const consecutive = (revenue.years[i] as number) - (revenue.years[i - 1] as number) === 1;
    if (consecutive && previous > 0) changes.push((revenue.values[i] as number) / previous - 1);
  }
  return changes;
}

function revenueResilience(context: ScoringContext): Signal | null {
  const changes = revenueChanges(context);
  if (changes.length < 2) return null;
  const worst = Math.min(...changes);
  const downYears = changes.filter((c) => c < 0).length;
  const quality = interpolate(worst, REVENUE_DRAWDOWN_ANCHORS) * (downYears >= 4 ? 0.8 : 1);
  return { quality, weight: 0.3, text: `worst revenue year ${percent(worst)}` };
}

function marginResilience(context: ScoringContext): Signal | null {
  const useGross = grossMarginExemption(context) === null;
  const series = useGross
    ? memoSeries(context, 'grossMargin', grossMargin)
    : memoSeries(context, 'operatingMargin', operatingMargin);
  if (series.values.length < 3) return null;
  const drawdown = (median(series.values) as number) - Math.min(...series.values);
  const label = useGross ? 'gross' : 'operating';
  return {
    quality: interpolate(drawdown, MARGIN_DRAWDOWN_ANCHORS),
    weight: 0.3,
    text: `${label} margin dipped ${(drawdown * 100).toFixed(1)} pp below its median`,
  };
}

function grossProfit(year: YearValues): number | null {
  const margin = grossMargin(year);
  const revenue = year.revenue;
  return margin === null || revenue === null ? null : margin * revenue;
}

/** Reads one cost line of a year (SG&A, R&D, D&A). */
type CostLine = (year: YearValues) => number | null;

/** The cost lines compared with gross profit, with their anchors (Buffett & Clark; Stoffel). */
const COST_LINES: readonly { line: CostLine; anchors: readonly Anchor[]; label: string }[] = [
  { line: (y) => y.sellingGeneralAdministrative, anchors: SGA_ANCHORS, label: 'SG&A' },
  { line: (y) => y.researchDevelopment, anchors: RND_ANCHORS, label: 'R&D' },
  { line: (y) => y.depreciationAmortization, anchors: DEPRECIATION_ANCHORS, label: 'D&A' },
];

/** Median of a cost line ÷ gross profit over years with positive gross profit; `null` below 3. */
function medianShareOfGrossProfit(context: ScoringContext, line: CostLine): number | null {
  const shares: number[] = [];
  for (const year of context.years) {
    const gp = grossProfit(year);
    const cost = line(year);
    if (gp !== null && gp > 0 && cost !== null) shares.push(cost / gp);
  }
  return shares.length < 3 ? null : median(shares);
}

/** Mean quality of the cost lines with data; the display names the weakest one. */
function costStructure(context: ScoringContext): Signal | null {
  let total = 0;
  let count = 0;
  let worst = { q: Number.POSITIVE_INFINITY, text: '' };
  for (const { line, anchors, label } of COST_LINES) {
    const share = medianShareOfGrossProfit(context, line);
    if (share === null) continue;
    const q = interpolate(share, anchors);
    total += q;
    count += 1;
    if (q < worst.q) worst = { q, text: `${label} ${percent(share)} of gross profit` };
  }
  if (count === 0) return null;
  return { quality: total / count, weight: 0.25, text: worst.text };
}

function operatingStability(context: ScoringContext): Signal | null {
  const series = memoSeries(context, 'operatingMargin', operatingMargin);
  if (series.values.length < 3) return null;
  const stdev = sampleStdev(series.values) as number;
  return {
    quality: interpolate(stdev, OPERATING_STABILITY_ANCHORS),
    weight: 0.15,
    text: `operating margin σ ${(stdev * 100).toFixed(1)} pp`,
  };
}

/**
 * Product durability: business-model resilience and pricing power from 10 years of fundamentals
 * (methodology §4.8): `q = 0.30·revenue resilience + 0.30·margin resilience (pricing power) +
 * 0.25·cost structure + 0.15·operating-margin stability`, weights renormalised over the signals
 * the data supports. Without a gross margin (airlines, payment networks, banks) margin resilience
 * uses the operating margin with the same anchors (stricter: operating margins swing more). No
 * revenue history → insufficient data; two or more missing signals → at best a warning.
 * numericValue = the final quality × 100 (0–100); the display names the weakest signal.
 */
export function assessProductDurability(context: ScoringContext): Assessment {
  const revenue = revenueResilience(context);
  if (revenue === null) return insufficient('fewer than 2 consecutive years of revenue');
  const signals = [
    revenue,
    marginResilience(context),
    costStructure(context),
    operatingStability(context),
  ];
  const available = signals.filter((s): s is Signal => s !== null);
  const weight = available.reduce((total, s) => total + s.weight, 0);
  const quality = available.reduce((total, s) => total + s.quality * s.weight, 0) / weight;
  const weakest = available.reduce((a, b) => (b.quality < a.quality ? b : a));
  const trend = memoSeries(context, 'revenue', (y) => y.revenue);
  const result = scored({
    quality,
    value: `weakest: ${weakest.text}`,
    numericValue: null,
    trend,
    caps: [
      available.length <= 2 && {
        cap: BEST_WARNING,
        note: `${4 - available.length} of 4 signals lack data`,
      },
      ...historyCaps(trend.values.length, context.spanYears),
    ],
  });
  const score = result.quality * 100;
  return {
    ...result,
    value: `resilience ${score.toFixed(0)}/100, ${result.value}`,
    numericValue: score,
  };
}
