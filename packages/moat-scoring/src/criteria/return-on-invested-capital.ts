import {
  type Assessment,
  BEST_WARNING,
  historyCaps,
  insufficient,
  scored,
} from '../core/assessment.js';
import { percent } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import type { ScoringContext, YearSeries, YearValues } from '../core/scoring-context.js';
import { median } from '../core/statistics.js';
import {
  averageCapital,
  type CapitalPlan,
  capitalOnPlan,
  planCapital,
} from './invested-capital.js';
import { nopatTaxRate } from './tax-rate.js';

/** Median ROIC anchors (Rule #1 ≥ 10%; Greenwald 15–25%; UltraQuality bands identical). */
export const ROIC_ANCHORS: readonly Anchor[] = [
  [0.05, 0],
  [0.1, 0.4],
  [0.15, 0.75],
  [0.25, 1],
];
/** The pass line of a single year (Greenwald 15%). */
export const ROIC_HURDLE = 0.15;
/**
 * Median return on average equity anchors of a regulated utility (issue 39), judged against the
 * return its regulators allow. Pass 9.0%: the lowest ROE a US state commission authorised for a
 * gas utility in 2019 (New York; range 9.0–10.25%, average 9.71% — Regulatory Research Associates,
 * S&P Global Market Intelligence, "A deep dive into US gas ROE authorizations in 2019"; electric
 * average 9.66% in H1 2019). Excellent 10.25%: the highest 2019 authorisation (Georgia), about the
 * average plus the 53 bp by which earned ROEs exceeded authorised ones in 2016–Q1 2019 (S&P Global
 * MI, "Utility earned ROEs exceeded authorized since 2016"). Warning 8%: 1.4–1.7 pp under the
 * allowed average, the shortfall of the worst year on record (2009: −139 bp, same source). Floor
 * 6% (judgement: about the cost of utility debt; no equity return at all).
 */
export const UTILITY_ROE_ANCHORS: readonly Anchor[] = [
  [0.06, 0],
  [0.08, 0.4],
  [0.09, 0.75],
  [0.1025, 1],
];
/** A regulated utility's yearly pass line: the lowest 2019 authorised ROE (see anchors). */
export const UTILITY_ROE_HURDLE = 0.09;
/** Share of years at or above the hurdle below which ROIC is at best a warning (§4.5). */
export const MIN_HURDLE_SHARE = 0.6;
/** Quality of a consistently profitable company with negative invested capital (judgement §4.5). */
export const CAPITAL_LIGHT_QUALITY = 0.85;
/** Yearly returns are clamped to ±1000% so that a near-zero capital cannot blow up the trend. */
export const MAX_ABS_RETURN = 10;

const NONE_NM = { profitable: 0, other: 0 } as const;
const clampReturn = (r: number) => Math.max(-MAX_ABS_RETURN, Math.min(MAX_ABS_RETURN, r));
const asPercent = (s: YearSeries): YearSeries => ({
  years: s.years,
  values: s.values.map((v) => v * 100),
});

/** EBIT: reported operating income, else pretax income + interest expense (§4.5). */
export function ebit(year: YearValues): number | null {
  const operating = year.operatingIncome;
  if (operating !== null) return operating;
  const pretax = year.pretaxIncome;
  const interest = year.interestExpense;
  return pretax === null || interest === null ? null : pretax + interest;
}

interface ReturnSeries {
  readonly returns: YearSeries;
  readonly nopat: number[];
  readonly negativeCapitalYears: number;
  /** N/M years (capital ≤ 0) whose NOPAT was positive: a return above any hurdle. */
  readonly profitableNegativeYears: number;
  readonly operatingYears: number;
  readonly plan: CapitalPlan;
}

function investedCapitalReturns(context: ScoringContext): ReturnSeries {
  const returns: YearSeries = { years: [], values: [] };
  const nopat: number[] = [];
  let negativeCapitalYears = 0;
  let profitableNegativeYears = 0;
  let operatingYears = 0;
  const plan = planCapital(context, (index) => ebit(context.years[index] as YearValues) !== null);
  context.years.forEach((year, index) => {
    const operatingProfit = ebit(year);
    if (operatingProfit === null) return;
    const afterTax = operatingProfit * (1 - nopatTaxRate(context.years, index));
    nopat.push(afterTax);
    const { capital, basis } = capitalOnPlan(context, index, plan);
    if (basis === 'negative') {
      negativeCapitalYears += 1;
      if (afterTax > 0) profitableNegativeYears += 1;
    }
    if (basis === 'operating') operatingYears += 1;
    if (capital === null) return;
    returns.years.push(year.fiscalYear);
    returns.values.push(clampReturn(afterTax / capital));
  });
  return { returns, nopat, negativeCapitalYears, profitableNegativeYears, operatingYears, plan };
}

/** Return on average equity by year, for banks and insurers (Damodaran; §4.5 Financials). */
function equityReturns(context: ScoringContext): YearSeries {
  const returns: YearSeries = { years: [], values: [] };
  context.years.forEach((year, index) => {
    const netIncome = year.netIncome;
    const previous = index > 0 ? context.years[index - 1] : undefined;
    const opening = previous === undefined ? null : previous.totalEquity;
    const consecutive = previous !== undefined && previous.fiscalYear === year.fiscalYear - 1;
    const equity = averageCapital(year.totalEquity, opening, consecutive);
    if (netIncome === null || equity === null || equity <= 0) return;
    returns.years.push(year.fiscalYear);
    returns.values.push(clampReturn(netIncome / equity));
  });
  return returns;
}

function displayPercent(fraction: number): string {
  return fraction > 1 ? '> 100%' : percent(fraction);
}

function scoreReturns(
  context: ScoringContext,
  returns: YearSeries,
  label: string,
  extra: string,
  notMeaningful: { readonly profitable: number; readonly other: number } = NONE_NM,
  anchors: readonly Anchor[] = ROIC_ANCHORS,
  hurdle: number = ROIC_HURDLE,
) {
  // An N/M year (capital ≤ 0) with a profit clears any hurdle, but its size is unknown: it counts
  // at the 15% hurdle, no more; one without a profit counts as no return. Neither is drawn in the
  // trend.
  const values = [
    ...returns.values,
    ...Array.from({ length: notMeaningful.profitable }, () => hurdle),
    ...Array.from({ length: notMeaningful.other }, () => 0),
  ];
  const n = values.length;
  const level = median(values) as number;
  const atHurdle = values.filter((v) => v >= hurdle).length;
  return scored({
    quality: interpolate(level, anchors),
    value: `median ${label} ${displayPercent(level)} (${atHurdle}/${n} yrs ≥ ${percent(hurdle, 0)})${extra}`,
    numericValue: level * 100,
    trend: asPercent(returns),
    caps: [
      atHurdle < MIN_HURDLE_SHARE * n && {
        cap: BEST_WARNING,
        note: `below ${percent(hurdle, 0)} in over 40% of years`,
      },
      ...historyCaps(n, context.spanYears),
    ],
  });
}

/** Display suffix naming the capital approach when it is not the financing one throughout. */
function capitalNote(series: ReturnSeries): string {
  const { plan } = series;
  if (plan.basis === 'financing') return '';
  if (plan.basis === 'operating')
    return `, operating-approach capital in every year (${plan.reason})`;
  return series.operatingYears > 0
    ? `, operating-approach capital in ${series.operatingYears} yrs (${plan.reason}; mixed)`
    : '';
}

function isCapitalLight(series: ReturnSeries): boolean {
  const profitable = series.nopat.length >= 3 && series.nopat.every((v) => v > 0);
  return profitable && series.negativeCapitalYears >= 0.5 * series.nopat.length;
}

/**
 * Return on invested capital (methodology §4.5): NOPAT = EBIT × (1 − 3-year effective tax rate,
 * statutory fallback) over average invested capital on one approach for the whole window
 * (`planCapital`): the financing approach when it is usable in every year and the debt lines keep
 * one scope, else the operating approach in every year (negative equity, MCD; Ford, whose tagged
 * debt includes Ford Credit until FY2017 and is a stray line afterwards). `q = q(median)`,
 * capped at warning when fewer than 60% of years reach 15%. Never ROE, except for banks and
 * insurers, where debt is raw material (Damodaran) and ROE on average equity is used with the same
 * anchors. Profitable capital-light companies whose capital is negative under both approaches in
 * half the years get 0.85 (McKinsey "N/M"; judgement). Otherwise an N/M year is its own status,
 * never missing data (issue 39): with a profit it counts at the 15% hurdle (it clears it by an
 * unknown margin), without one as no return, and the value says how many. numericValue = median ROIC, percent.
 */
export function assessReturnOnInvestedCapital(context: ScoringContext): Assessment {
  if (context.financial) {
    const returns = equityReturns(context);
    if (returns.values.length < 3) {
      return insufficient(
        `return on equity in ${returns.values.length} year(s); at least 3 are needed`,
        asPercent(returns),
      );
    }
    return scoreReturns(context, returns, 'ROE', ' — bank or insurer: ROE on average equity');
  }
  if (context.regulatedUtility) {
    const returns = equityReturns(context);
    if (returns.values.length < 3) {
      return insufficient(
        `return on equity in ${returns.values.length} year(s); at least 3 are needed`,
        asPercent(returns),
      );
    }
    return scoreReturns(
      context,
      returns,
      'ROE',
      ' — regulated utility: ROE on average equity against the allowed ROE (pass 9%, RRA 2019 average 9.7%)',
      NONE_NM,
      UTILITY_ROE_ANCHORS,
      UTILITY_ROE_HURDLE,
    );
  }
  const series = investedCapitalReturns(context);
  if (isCapitalLight(series)) {
    const level = median(series.returns.values);
    return scored({
      quality: CAPITAL_LIGHT_QUALITY,
      value: 'n/m — negative invested capital (capital-light), NOPAT positive every year',
      numericValue: level === null ? null : level * 100,
      trend: asPercent(series.returns),
      caps: historyCaps(series.nopat.length, context.spanYears),
    });
  }
  const notMeaningful = {
    profitable: series.profitableNegativeYears,
    other: series.negativeCapitalYears - series.profitableNegativeYears,
  };
  const n = series.returns.values.length + series.negativeCapitalYears;
  if (n < 3)
    return insufficient(`ROIC in ${n} year(s); at least 3 are needed`, asPercent(series.returns));
  const nmNote =
    series.negativeCapitalYears > 0
      ? `, n/m (capital ≤ 0) in ${series.negativeCapitalYears} yrs${notMeaningful.profitable > 0 ? `, ${notMeaningful.profitable} of them profitable (counted at the 15% hurdle)` : ''}`
      : '';
  const extra = `${capitalNote(series)}${nmNote}`;
  return scoreReturns(context, series.returns, 'ROIC', extra, notMeaningful);
}
