import {
  type Assessment,
  BEST_WARNING,
  historyCaps,
  insufficient,
  PASS_QUALITY,
  scored,
} from '../core/assessment.js';
import { percent } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import { memoSeries, type ScoringContext, type YearValues } from '../core/scoring-context.js';
import { median, sampleStdev } from '../core/statistics.js';
import {
  coveredGrossMargin,
  grossMargin,
  grossMarginExemption,
  grossMarginSeries,
  netMargin,
  operatingMargin,
} from './margins.js';
import { assessReturnOnInvestedCapital, ebit } from './return-on-invested-capital.js';

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

/**
 * Median net margin below which steadiness alone is not evidence of a durable product: the floor
 * of the net-margin criterion (5% → 0; Buffett & Clark "< 10% competitive").
 */
export const THIN_NET_MARGIN = 0.05;

/** Year-over-year revenue changes between consecutive fiscal years with positive revenue. */
export function revenueChanges(context: ScoringContext): number[] {
  return revenueMoves(context).map((m) => m.change);
}

interface RevenueMove {
  readonly change: number;
  /** Operating income rose the same year (a fall "by design": refranchising, divestiture). */
  readonly profitRose: boolean;
}

function revenueMoves(context: ScoringContext): RevenueMove[] {
  const moves: RevenueMove[] = [];
  for (let i = 1; i < context.years.length; i += 1) {
    const before = context.years[i - 1] as YearValues;
    const year = context.years[i] as YearValues;
    if (year.fiscalYear - before.fiscalYear !== 1) continue;
    if (before.revenue === null || year.revenue === null || before.revenue <= 0) continue;
    const [ebitBefore, ebitNow] = [ebit(before), ebit(year)];
    const profitRose = ebitBefore !== null && ebitNow !== null && ebitNow > ebitBefore;
    moves.push({ change: year.revenue / before.revenue - 1, profitRose });
  }
  return moves;
}

/**
 * Worst revenue year (§4.8a), where a fall in a year whose operating income rose does not count:
 * revenue that falls by design while the business earns more (MCD selling company-operated
 * restaurants to franchisees FY2015–FY2018: revenue −3% to −7% a year with operating income up)
 * is a change of business model, not customers walking away.
 */
function revenueResilience(context: ScoringContext): Signal | null {
  const moves = revenueMoves(context);
  if (moves.length < 2) return null;
  const counted = moves.filter((m) => m.change >= 0 || !m.profitRose).map((m) => m.change);
  const byDesign = moves.length - counted.length;
  const worst = Math.min(0, ...counted);
  const downYears = counted.filter((c) => c < 0).length;
  const quality = interpolate(worst, REVENUE_DRAWDOWN_ANCHORS) * (downYears >= 4 ? 0.8 : 1);
  const note =
    byDesign > 0
      ? ` (${byDesign} fall${byDesign === 1 ? '' : 's'} with rising operating income not counted)`
      : '';
  return { quality, weight: 0.3, text: `worst revenue year ${percent(worst)}${note}` };
}

/**
 * Largest fall of a margin below its running peak (maximum drawdown, Magdon-Ismail & Atiya,
 * "Maximum Drawdown", Risk 2004): how far the margin gave way after it had been reached. A margin
 * that rises and holds has none, whatever its early years were (MCD's operating margin rising from
 * 28% to 45% with refranchising used to count as a 13.6 pp dip below its median).
 */
export function maxDrawdown(values: readonly number[]): number {
  let peak = Number.NEGATIVE_INFINITY;
  let worst = 0;
  for (const v of values) {
    peak = Math.max(peak, v);
    worst = Math.max(worst, peak - v);
  }
  return worst;
}

function marginResilience(context: ScoringContext): Signal | null {
  const useGross = grossMarginExemption(context) === null;
  const series = useGross
    ? grossMarginSeries(context)
    : memoSeries(context, 'operatingMargin', operatingMargin);
  if (series.values.length < 3) return null;
  const drawdown = maxDrawdown(series.values);
  const label = useGross ? 'gross' : 'operating';
  return {
    quality: interpolate(drawdown, MARGIN_DRAWDOWN_ANCHORS),
    weight: 0.3,
    text: `${label} margin fell at most ${(drawdown * 100).toFixed(1)} pp below its running peak`,
  };
}

function passes(assessment: Assessment): boolean {
  return assessment.kind === 'scored' && assessment.quality >= PASS_QUALITY;
}

/** Gross profit of a year, on the widened cost line when the window's is partial. */
function grossProfit(year: YearValues, partialCost: boolean): number | null {
  const margin = partialCost ? coveredGrossMargin(year) : grossMargin(year);
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
    const gp = grossProfit(year, Boolean(context.partialCostLine));
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

/** Facts about related criteria that product durability needs. */
export interface ProductDurabilityInputs {
  /** Whether return on invested capital passes (a thin-margin low-cost operator). */
  readonly roicPasses: boolean;
}

/**
 * Product durability (methodology §4.8). What it measures: the *steadiness* of the business over
 * 10 years — how far revenue fell in its worst year, how far the margin gave way below its running
 * peak (pricing power), what SG&A, R&D and D&A take of gross profit, and how much the operating
 * margin swings — not how profitable the business is (gross margin, net margin and ROIC score
 * that). `q = 0.30·revenue resilience + 0.30·margin resilience + 0.25·cost structure +
 * 0.15·operating-margin stability`, weights renormalised over the signals the data supports.
 * Without a gross margin (airlines, payment networks, banks) margin resilience uses the operating
 * margin with the same anchors (stricter: operating margins swing more).
 *
 * Steadiness of a thin-margin business is not by itself evidence of a durable product: without
 * barriers to entry, competition holds returns at the cost of capital, and a grocer's 1–2% net
 * margin can be steady exactly because rivals keep it there (Greenwald & Kahn, *Competition
 * Demystified*, 2005: barriers to entry are what let returns stay above the cost of capital;
 * Buffett & Clark: net margin < 10% marks a competitive industry). So a median net margin below
 * {@link THIN_NET_MARGIN} caps the criterion at a warning unless ROIC passes (the low-cost operator
 * of Buffett & Clark's third model, Costco, which earns its advantage in returns on capital).
 *
 * No revenue history → insufficient data; two or more missing signals → at best a warning.
 * numericValue = the final quality × 100 (0–100); the display names the weakest signal.
 * `inputs` defaults to assessing ROIC here.
 */
export function assessProductDurability(
  context: ScoringContext,
  inputs?: ProductDurabilityInputs,
): Assessment {
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
  const margins = memoSeries(context, 'netMargin', netMargin);
  const netLevel = margins.values.length >= 3 ? (median(margins.values) as number) : null;
  const roicPasses = inputs?.roicPasses ?? passes(assessReturnOnInvestedCapital(context));
  const thin = netLevel !== null && netLevel < THIN_NET_MARGIN && !roicPasses;
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
      thin && {
        cap: BEST_WARNING,
        note: `thin margin (median net ${percent(netLevel as number)}) without ROIC ≥ 15%: steadiness, not pricing power`,
      },
      ...historyCaps(trend.values.length, context.spanYears),
    ],
  });
  const score = result.quality * 100;
  return {
    ...result,
    value: `steadiness ${score.toFixed(0)}/100, ${result.value}`,
    numericValue: score,
  };
}
