import {
  type Assessment,
  historyCaps,
  insufficient,
  notApplicable,
  scored,
} from '../core/assessment.js';
import { percent } from '../core/format.js';
import { trendGrowth } from '../core/growth.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import {
  collect,
  memoSeries,
  type ScoringContext,
  type YearValues,
} from '../core/scoring-context.js';
import { cashEarnings, earningsLabel } from './cash-earnings.js';

/** Σ capex ÷ Σ net income anchors (Buffett & Clark ≤ 50% good, < 25% DCA; dassus98 75% → 0). */
export const CAPEX_ANCHORS: readonly Anchor[] = [
  [1, 0],
  [0.75, 0.4],
  [0.5, 0.75],
  [0.25, 1],
];
/** Capex above this multiple of D&A signals growth spending (judgement; dassus98 flags 2×). */
export const GROWTH_CAPEX_MULTIPLE = 1.5;
/** Revenue trend growth at or above which growth capex is plausible (judgement, §4.7). */
export const MIN_GROWTH_FOR_ADJUSTMENT = 0.05;

/** Facts about the related criteria that capex efficiency needs. */
export interface CapexInputs {
  /** Whether return on invested capital passes (growth capex then earns its keep). */
  readonly roicPasses: boolean;
}

/**
 * Greenwald maintenance capex of year `index` (Value Investing, EPV chapter): capex − growth
 * capex, growth capex = mean(PP&E ÷ revenue over up to 5 prior years) × revenue increase,
 * clamped to [0, capex]. Without prior PP&E or revenue, all capex counts as maintenance
 * (conservative).
 */
export function maintenanceCapex(context: ScoringContext, index: number, capex: number): number {
  const year = context.years[index] as YearValues;
  const previous = context.years[index - 1];
  const revenue = year.revenue;
  const previousRevenue = previous === undefined ? null : previous.revenue;
  const consecutive = previous !== undefined && previous.fiscalYear === year.fiscalYear - 1;
  let intensitySum = 0;
  let intensityCount = 0;
  for (let i = Math.max(0, index - 5); i < index; i += 1) {
    const prior = context.years[i] as YearValues;
    const ppe = prior.propertyPlantEquipmentNet;
    const rev = prior.revenue;
    if (ppe !== null && rev !== null && rev > 0) {
      intensitySum += ppe / rev;
      intensityCount += 1;
    }
  }
  if (intensityCount === 0 || revenue === null || previousRevenue === null || !consecutive) {
    return capex;
  }
  const intensity = intensitySum / intensityCount;
  const growthCapex = intensity * Math.max(revenue - previousRevenue, 0);
  return Math.min(capex, Math.max(0, capex - growthCapex));
}

interface CapexTotals {
  capex: number;
  maintenance: number;
  /** Σ cash earnings (`cashEarnings`). */
  netIncome: number;
  /** Σ GAAP net income over the same years, shown beside. */
  gaapNetIncome: number;
  depreciation: number;
  depreciationYears: number;
  years: number;
}

function totals(context: ScoringContext): CapexTotals {
  const t: CapexTotals = {
    capex: 0,
    maintenance: 0,
    netIncome: 0,
    gaapNetIncome: 0,
    depreciation: 0,
    depreciationYears: 0,
    years: 0,
  };
  context.years.forEach((year, index) => {
    const reported = year.capitalExpenditure;
    const netIncome = cashEarnings(context, index);
    if (reported === null || netIncome === null) return;
    const capex = Math.abs(reported);
    t.capex += capex;
    t.maintenance += maintenanceCapex(context, index, capex);
    t.netIncome += netIncome;
    t.gaapNetIncome += year.netIncome ?? 0;
    t.years += 1;
    const da = year.depreciationAmortization;
    if (da !== null) {
      t.depreciation += da;
      t.depreciationYears += 1;
    }
  });
  return t;
}

function growthAdjusted(context: ScoringContext, t: CapexTotals, inputs: CapexInputs): boolean {
  if (!inputs.roicPasses || t.depreciationYears < t.years || t.depreciation <= 0) return false;
  if (t.capex / t.depreciation <= GROWTH_CAPEX_MULTIPLE) return false;
  const { growth } = trendGrowth(memoSeries(context, 'revenue', (y) => y.revenue));
  return growth !== null && growth >= MIN_GROWTH_FOR_ADJUSTMENT;
}

/**
 * "; capex net of disposals in 10 yrs, not gross purchases" when the window's capex comes from a
 * net-of-disposals source (SimFin), else "". Marks the figure only: no sourced rule turns a net
 * figure into a gross one (a D&A floor, the maintenance proxy of methodology §1.4, overshoots
 * gross capex for intangible-heavy companies: V 62% of net income against 8% gross).
 */
function scopeNote(context: ScoringContext): string {
  const years = context.capexScope?.netOfDisposalsYears ?? 0;
  const implied = context.impliedCapexYears ?? 0;
  const net =
    years === 0
      ? ''
      : `; capex net of disposals in ${years} yr${years === 1 ? '' : 's'}, not gross purchases`;
  const rolled =
    implied === 0
      ? ''
      : `; capex from the PP&E roll-forward in ${implied} yr${implied === 1 ? '' : 's'} (reported capex cannot explain PP&E growth)`;
  return `${net}${rolled}`;
}

/**
 * CapEx efficiency (methodology §4.7): ratio = Σ |capex| ÷ Σ cash earnings over the window (sum
 * over sum, as the book prescribes, robust to single loss years; cash earnings = net income with
 * the amortisation of intangibles added back after tax, issue 39, `cashEarnings`); a sum ≤ 0
 * scores 0. When
 * capex exceeds 1.5× D&A, revenue grows ≥ 5%/yr and ROIC passes, growth capex is set aside and the
 * Greenwald maintenance ratio is scored instead (growth earning ≥ 15% is no moat weakness;
 * judgement). Not applicable to banks and insurers, nor to a company reporting no capex line.
 * numericValue = the scored ratio, percent. `value` says when the capex is net of disposals
 * (`ScoringContext.capexScope`), so a reader can tell the ratio is not on gross capex.
 */
export function assessCapexEfficiency(context: ScoringContext, inputs: CapexInputs): Assessment {
  if (context.financial)
    return notApplicable('bank or insurer (SIC): capital expenditure is not the constraint');
  if (!context.reported.capitalExpenditure) {
    return notApplicable('no capital expenditure line reported in any year');
  }
  if (context.regulatedUtility) {
    return notApplicable(
      'regulated utility: capex builds the rate base the regulator sets a return on; judged through ROE against the allowed ROE',
    );
  }
  const t = totals(context);
  if (t.years < 3)
    return insufficient(`capex and net income in ${t.years} year(s); at least 3 are needed`);
  const trend = collect(context, (y, i) => {
    const capex = y.capitalExpenditure;
    const ni = cashEarnings(context, i);
    return capex === null || ni === null || ni <= 0 ? null : (Math.abs(capex) / ni) * 100;
  });
  if (t.netIncome <= 0) {
    return scored({
      quality: 0,
      value: `n/m — cumulative ${earningsLabel(context)} not positive`,
      numericValue: null,
      trend,
    });
  }
  const ratio = t.capex / t.netIncome;
  const adjusted = growthAdjusted(context, t, inputs);
  const scoredRatio = adjusted ? t.maintenance / t.netIncome : ratio;
  const value = `${
    adjusted
      ? `maintenance capex ${percent(scoredRatio)} of ${earningsLabel(context)} (all capex ${percent(ratio)}; growth capex set aside)`
      : `capex ${percent(ratio)} of ${earningsLabel(context)} over ${t.years} yrs${
          t.gaapNetIncome !== t.netIncome && t.gaapNetIncome > 0
            ? ` (${percent(t.capex / t.gaapNetIncome)} of GAAP net income)`
            : ''
        }`
  }${scopeNote(context)}`;
  return scored({
    quality: interpolate(scoredRatio, CAPEX_ANCHORS),
    value,
    numericValue: scoredRatio * 100,
    trend,
    caps: historyCaps(t.years, context.spanYears),
  });
}
