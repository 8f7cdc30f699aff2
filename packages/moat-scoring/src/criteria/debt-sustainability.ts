import {
  type Assessment,
  BEST_FAIL,
  BEST_WARNING,
  type Cap,
  historyCaps,
  insufficient,
  notApplicable,
  scored,
} from '../core/assessment.js';
import { amount, percent } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import {
  collect,
  type ScoringContext,
  type YearSeries,
  type YearValues,
} from '../core/scoring-context.js';
import { mean, median } from '../core/statistics.js';
import { cashEarnings, earningsLabel } from './cash-earnings.js';
import { type DebtEvidence, debtEvidence, totalDebt } from './debt-evidence.js';
import { ebit } from './return-on-invested-capital.js';

/** Payoff-years anchors (Buffett & Clark 3–4 years; dassus98 < 4 excellent, ≥ 5 fail). */
export const PAYOFF_ANCHORS: readonly Anchor[] = [
  [8, 0],
  [5, 0.4],
  [4, 0.75],
  [2, 1],
];
/** Interest / operating income anchors (Buffett & Clark < 15%; dassus98 30% → 0). */
export const INTEREST_ANCHORS: readonly Anchor[] = [
  [0.3, 0],
  [0.2, 0.4],
  [0.15, 0.75],
  [0.05, 1],
];

/**
 * A regulated utility's operating cash flow ÷ total debt anchors (issue 39), from the factor grid of
 * Moody's "Regulated Electric and Gas Utilities" rating methodology (June 2017, Appendix A, CFO
 * pre-WC / Debt, standard grid): Ba 5–13% (floor at 5%), Baa 13–22% (warning at 13%: the
 * investment-grade line), A 22–30% (pass at 22%), Aa 30–40% (excellent at 30%). Regulators set a
 * utility's capital structure (about half debt), so debt is judged as the rating agencies judge a
 * utility, not by Buffett & Clark's 3–4 years of net income.
 */
export const UTILITY_CFO_TO_DEBT_ANCHORS: readonly Anchor[] = [
  [0.05, 0],
  [0.13, 0.4],
  [0.22, 0.75],
  [0.3, 1],
];
/**
 * A regulated utility's interest ÷ EBIT anchors, from the same grid's interest coverage ((CFO
 * pre-WC + interest) ÷ interest): Ba 2–3× (floor 2× = 50%), Baa 3–4.5× (warning 3× = 33%), A
 * 4.5–6× (pass 4.5× = 22%), Aa 6–8× (excellent 6× = 17%). EBIT stands in for CFO pre-WC + interest
 * (judgement: the criterion's existing interest burden, inverted).
 */
export const UTILITY_INTEREST_ANCHORS: readonly Anchor[] = [
  [0.5, 0],
  [1 / 3, 0.4],
  [1 / 4.5, 0.75],
  [1 / 6, 1],
];

/**
 * Through-cycle earnings for the payoff (issue 39): the lower of the mean of the last 3 reported
 * years and the median of every reported year of the window (`values` in fiscal-year order, in
 * the currency of the statements). An analyst normalises earnings over the cycle before judging
 * how long they take to repay debt (Graham & Dodd: average earnings over 7–10 years; Morningstar's
 * moat methodology: returns through the cycle), so a cyclical company is not judged on its peak:
 * DAL rated in 2018 on FY2009–FY2017 repays its debt in 2.4 years of its last three years' net
 * income but in 9.9 of its window median. Steady or falling earnings keep the recent mean (the
 * lower of the two); a steadily growing company is judged on a median a few years old, a
 * conservative reading. `NaN` when `values` is empty.
 */
export function throughCycleEarnings(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return Math.min(mean(values.slice(-3)) as number, median(values) as number);
}

/**
 * Years of normalised net income ({@link throughCycleEarnings}) needed to repay total debt:
 * 0 when cash covers the debt, `Infinity` when normalised income is ≤ 0 and debt exceeds cash.
 */
export function payoffYears(debt: number, cash: number | null, normalisedIncome: number): number {
  if (cash !== null && cash >= debt) return 0;
  if (debt <= 0) return 0;
  return normalisedIncome > 0 ? debt / normalisedIncome : Number.POSITIVE_INFINITY;
}

/** Σ interest ÷ Σ EBIT over the last 3 years of the window, with the fiscal years it used. */
export interface InterestBurden {
  /** `null` when no year reports both, or Σ EBIT ≤ 0 (`operatingLoss`). A fraction. */
  readonly burden: number | null;
  readonly operatingLoss: boolean;
  /** First and last fiscal year with both interest and EBIT, `null` when none. */
  readonly firstYear: number | null;
  readonly lastYear: number | null;
}

/**
 * Σ interest ÷ Σ EBIT over the last 3 years of the window, counting the years that report both.
 * `burden` is `null` when no such year exists or Σ EBIT ≤ 0 (`operatingLoss` tells which).
 */
export function interestBurden(context: ScoringContext): InterestBurden {
  let interest = 0;
  let operating = 0;
  let firstYear: number | null = null;
  let lastYear: number | null = null;
  for (let i = Math.max(0, context.years.length - 3); i < context.years.length; i += 1) {
    const year = context.years[i] as YearValues;
    const e = ebit(year);
    if (year.interestExpense === null || e === null) continue;
    interest += Math.abs(year.interestExpense);
    operating += e;
    firstYear ??= year.fiscalYear;
    lastYear = year.fiscalYear;
  }
  if (firstYear === null) return { burden: null, operatingLoss: false, firstYear, lastYear };
  if (operating <= 0) return { burden: null, operatingLoss: true, firstYear, lastYear };
  return { burden: interest / operating, operatingLoss: false, firstYear, lastYear };
}

/**
 * Quality of the interest burden (the 0.3 part). In debt: `q(IB)` on {@link INTEREST_ANCHORS},
 * 0 when it cannot be computed (no pass for missing data).
 *
 * With net cash (cash ≥ debt), the burden still counts when interest is reported: net cash at one
 * balance-sheet date does not make interest free — it may be seasonal or spoken for (an airline's
 * cash is largely tickets sold in advance: LUV paid interest of 54% of its FY2022–FY2024 EBIT
 * while reporting net cash), and interest above 30% of operating profit is a real drain whatever
 * the cash pile. So a net-cash company gets `q(IB)`, and 0 when Σ EBIT ≤ 0 (no operating profit
 * to carry the interest). Only when a net-cash company reports no interest at all is the part
 * full (1): the debt is covered by cash, so its cost cannot threaten the business — the payoff
 * figure itself is the evidence, not the missing line.
 */
export function burdenQuality(inDebt: boolean, interest: InterestBurden): number {
  if (interest.burden !== null) return interpolate(interest.burden, INTEREST_ANCHORS);
  if (inDebt || interest.operatingLoss) return 0;
  return 1;
}

/**
 * The payoff years of each fiscal year, by the rule that scores the latest one, so that the chart
 * plots the figure the text quotes (issue 42: "text and chart come from one value"): that year's
 * total debt (0 when its cash covers the debt) ÷ the through-cycle cash earnings of the reported
 * years up to it ({@link throughCycleEarnings}: the lower of the mean of the 3 latest and the
 * median of all of them). A year whose figure is ≤ 0 while in debt is "n/m" in the text and has
 * no point; a year without a debt figure has none either.
 *
 * `scoredYear` is the year of the debt figure the criterion scores (the latest, when it is
 * evidence of the current debt): its payoff divides by the window's through-cycle earnings, as
 * the score does, even when the latest of them has no debt figure (a debt figure one year old
 * still stands for the current debt, `MAX_DEBT_AGE_YEARS`). `null`: no such year.
 */
export function payoffTrend(
  context: ScoringContext,
  incomes: YearSeries,
  scoredYear: number | null,
): YearSeries {
  return collect(context, (y) => {
    const debt = totalDebt(context, y);
    if (debt === null) return null;
    const upTo = y.fiscalYear === scoredYear ? Number.POSITIVE_INFINITY : y.fiscalYear;
    const upToYear = incomes.values.filter((_, i) => (incomes.years[i] as number) <= upTo);
    if (upToYear.length === 0) return null;
    const years = payoffYears(debt, y.cash, throughCycleEarnings(upToYear));
    return Number.isFinite(years) ? years : null;
  });
}

function burdenText(interest: InterestBurden, inDebt: boolean): string {
  if (interest.burden !== null) {
    const span =
      interest.firstYear === interest.lastYear
        ? `FY${interest.lastYear}`
        : `FY${interest.firstYear}–FY${interest.lastYear}`;
    return `, interest ${percent(interest.burden)} of EBIT (${span})`;
  }
  if (interest.operatingLoss) return ', interest burden n/a (operating loss)';
  return inDebt ? ', interest burden n/a' : '';
}

/** " through the cycle (window median)" when the median, not the recent mean, was the lower. */
function cycleNote(values: readonly number[]): string {
  return throughCycleEarnings(values) < (mean(values.slice(-3)) as number)
    ? ' through the cycle (window median, below the last 3 years)'
    : '';
}

/**
 * ", GAAP net income 3.1 yrs" beside a payoff on cash earnings (issue 39: shown beside GAAP), or
 * "" when the payoff is on net income already.
 */
function gaapBeside(
  context: ScoringContext,
  debt: number,
  cash: number | null,
  onCashEarnings: number,
): string {
  if (earningsLabel(context) === 'net income') return '';
  const gaap = collect(context, (y) => y.netIncome);
  const years = payoffYears(debt, cash, throughCycleEarnings(gaap.values));
  if (years === onCashEarnings) return '';
  return ` (GAAP net income: ${Number.isFinite(years) ? `${years.toFixed(1)} yrs` : 'n/m'})`;
}

/** Why a debt figure is not evidence of the current debt, for the display value. */
function unreliableText(evidence: DebtEvidence, currency: string, lastYear: number): string {
  const parts: string[] = [];
  if (evidence.stale) {
    parts.push(
      `latest debt figure FY${evidence.year.fiscalYear} (${amount(evidence.debt, currency)}) is ${evidence.age} yrs before FY${lastYear}`,
    );
  }
  const c = evidence.collapse;
  if (c !== null) {
    parts.push(
      `debt scope collapsed in FY${c.fiscalYear} (${amount(c.debtBefore, currency)} → ${amount(c.debtAfter, currency)} while interest stayed ${amount(c.interestBefore, currency)} → ${amount(c.interestAfter, currency)}): unreliable`,
    );
  }
  return parts.join('; ');
}

/**
 * The current debt is not known (stale figure or collapse of scope): the payoff part scores 0,
 * the interest burden is scored on its own, and the result is at best a fail. With no interest
 * burden either, insufficient data.
 */
function assessWithoutCurrentDebt(
  context: ScoringContext,
  evidence: DebtEvidence,
  incomes: YearSeries,
  trend: YearSeries,
): Assessment {
  const lastYear = (context.years[context.years.length - 1] as YearValues).fiscalYear;
  const why = unreliableText(evidence, context.currency, lastYear);
  const interest = interestBurden(context);
  if (interest.burden === null && !interest.operatingLoss) {
    return insufficient(`current debt unknown: ${why}; interest burden not computable`, trend);
  }
  return scored({
    quality: 0.3 * burdenQuality(true, interest),
    value: `current debt unknown: ${why}${burdenText(interest, true)}`,
    numericValue: null,
    trend,
    caps: [
      { cap: BEST_FAIL, note: 'current debt not verifiable' },
      ...historyCaps(incomes.values.length, context.spanYears),
    ],
  });
}

/**
 * Debt sustainability (methodology §4.6): `q = 0.7·q(payoff years) + 0.3·q(interest burden)`,
 * payoff years = latest total debt ÷ through-cycle cash earnings (net income with the amortisation
 * of intangibles added back after tax, `cashEarnings`): the lower of the mean of the last 3
 * reported years and the window's median ({@link throughCycleEarnings}; 0 with net cash), interest burden = Σ interest ÷ Σ EBIT over the last 3 years (see {@link burdenQuality}
 * for net-cash companies). EBIT ≤ 0 with debt caps at fail; interest not reported while in debt
 * caps at warning (no pass for missing data).
 *
 * The latest debt figure must be evidence of the current debt ({@link debtEvidence}): one from
 * more than {@link MAX_DEBT_AGE_YEARS} year before the window's last year, or one after a collapse
 * of debt scope ({@link findScopeCollapse}), is not. Then the payoff part scores 0 and the
 * criterion is at best a fail, with the reason in the display value (Ford: latest figure FY2020,
 * four years before FY2024, after a fall from 154 B to 600 M that interest did not follow).
 * Not applicable to banks and insurers, nor to a company that reports no borrowing line in any
 * year. numericValue = payoff years (null when earnings cannot repay the debt or it is unknown);
 * trend = the same payoff years for each fiscal year ({@link payoffTrend}), so the chart's point of
 * the scored year is the figure the text quotes, and an "n/m" year has no point.
 */
export function assessDebtSustainability(context: ScoringContext): Assessment {
  if (context.financial) return notApplicable('bank or insurer (SIC): debt is raw material');
  if (!context.reported.shortTermDebt && !context.reported.longTermDebt) {
    return notApplicable('no borrowings reported in any year');
  }
  if (context.regulatedUtility) return assessUtilityDebt(context);
  // Cash earnings: net income with the amortisation of intangibles added back (issue 39).
  const incomes = collect(context, (_, i) => cashEarnings(context, i));
  const label = earningsLabel(context);
  const evidence = debtEvidence(context);
  if (evidence === null || incomes.values.length === 0) {
    return insufficient('no year reports both debt and net income');
  }
  if (!evidence.reliable) {
    return assessWithoutCurrentDebt(
      context,
      evidence,
      incomes,
      payoffTrend(context, incomes, null),
    );
  }
  const { debt } = evidence;
  const normalised = throughCycleEarnings(incomes.values);
  const years = payoffYears(debt, evidence.year.cash, normalised);
  const interest = interestBurden(context);
  const inDebt = years > 0;
  const debtText = !inDebt
    ? `net cash (debt ${amount(debt, context.currency)})`
    : `debt ${amount(debt, context.currency)} = ${Number.isFinite(years) ? `${years.toFixed(1)} yrs` : 'n/m (no earnings)'} of ${label}${cycleNote(incomes.values)}${gaapBeside(context, debt, evidence.year.cash, years)}`;
  return scored({
    quality: 0.7 * interpolate(years, PAYOFF_ANCHORS) + 0.3 * burdenQuality(inDebt, interest),
    value: `${debtText} (FY${evidence.year.fiscalYear})${burdenText(interest, inDebt)}`,
    numericValue: Number.isFinite(years) ? years : null,
    trend: payoffTrend(context, incomes, evidence.year.fiscalYear),
    caps: debtCaps(inDebt, interest, incomes.values.length, context),
  });
}

/**
 * The caps every scored debt assessment shares: an operating loss while in debt → at best fail;
 * interest not computable while in debt → at best warning (no pass for missing data); and the
 * short-history caps of `count` reported years.
 */
function debtCaps(
  inDebt: boolean,
  interest: InterestBurden,
  count: number,
  context: ScoringContext,
): Cap[] {
  return [
    ...(inDebt && interest.operatingLoss
      ? [{ cap: BEST_FAIL, note: 'operating loss while in debt' }]
      : []),
    ...(inDebt && interest.burden === null && !interest.operatingLoss
      ? [
          {
            cap: BEST_WARNING,
            note: 'interest burden not computable (interest or EBIT not reported)',
          },
        ]
      : []),
    ...historyCaps(count, context.spanYears),
  ];
}

/** A utility's operating cash flow ÷ total debt of each year, percent (no point without debt). */
function cfoToDebtTrend(context: ScoringContext): YearSeries {
  return collect(context, (y) => {
    const d = totalDebt(context, y);
    const flow = y.operatingCashFlow;
    return d === null || d <= 0 || flow === null ? null : (flow / d) * 100;
  });
}

/**
 * Debt sustainability of a regulated utility (issue 39): `q = 0.7·q(CFO ÷ debt) + 0.3·q(interest
 * burden)` on {@link UTILITY_CFO_TO_DEBT_ANCHORS} and {@link UTILITY_INTEREST_ANCHORS} (Moody's
 * utility grid), CFO = mean operating cash flow of the last 3 reported years, debt = the latest
 * total debt when it is evidence of the current debt ({@link debtEvidence}; else as for any
 * company). numericValue = CFO ÷ debt, percent.
 */
function assessUtilityDebt(context: ScoringContext): Assessment {
  const flows = collect(context, (y) => y.operatingCashFlow);
  const evidence = debtEvidence(context);
  if (evidence === null || flows.values.length === 0) {
    return insufficient('no year reports both debt and operating cash flow');
  }
  if (!evidence.reliable) {
    return assessWithoutCurrentDebt(context, evidence, flows, cfoToDebtTrend(context));
  }
  const { debt } = evidence;
  const cash = evidence.year.cash;
  const inDebt = debt > 0 && (cash === null || cash < debt);
  const cfo = mean(flows.values.slice(-3)) as number;
  const coverage = inDebt ? cfo / debt : Number.POSITIVE_INFINITY;
  const interest = interestBurden(context);
  const burden =
    interest.burden !== null
      ? interpolate(interest.burden, UTILITY_INTEREST_ANCHORS)
      : burdenQuality(inDebt, interest);
  const debtText = inDebt
    ? `operating cash flow ${percent(Math.max(coverage, 0))} of debt ${amount(debt, context.currency)}`
    : `net cash (debt ${amount(debt, context.currency)})`;
  return scored({
    quality: 0.7 * interpolate(coverage, UTILITY_CFO_TO_DEBT_ANCHORS) + 0.3 * burden,
    value: `${debtText} (FY${evidence.year.fiscalYear})${burdenText(interest, inDebt)} — regulated utility: judged on Moody's utility grid (A: CFO ≥ 22% of debt, interest cover ≥ 4.5×)`,
    numericValue: Number.isFinite(coverage) ? coverage * 100 : null,
    trend: cfoToDebtTrend(context),
    caps: debtCaps(inDebt, interest, flows.values.length, context),
  });
}
