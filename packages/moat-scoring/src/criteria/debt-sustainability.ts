import {
  type Assessment,
  BEST_FAIL,
  BEST_WARNING,
  historyCaps,
  insufficient,
  notApplicable,
  scored,
} from '../core/assessment.js';
import { amount, percent } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import {
  collect,
  orAbsent,
  type ScoringContext,
  type YearValues,
} from '../core/scoring-context.js';
import { mean, sum } from '../core/statistics.js';
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

/** Total debt (short-term incl. current portion + long-term) of a year, `null` when missing. */
export function totalDebt(context: ScoringContext, year: YearValues): number | null {
  const shortDebt = orAbsent(year.shortTermDebt, context.reported.shortTermDebt);
  const longDebt = orAbsent(year.longTermDebt, context.reported.longTermDebt);
  return shortDebt === null || longDebt === null ? null : shortDebt + longDebt;
}

/**
 * Years of normalised net income (mean of the last 3 reported years) needed to repay total debt:
 * 0 when cash covers the debt, `Infinity` when normalised income is ≤ 0 and debt exceeds cash.
 */
export function payoffYears(debt: number, cash: number | null, normalisedIncome: number): number {
  if (cash !== null && cash >= debt) return 0;
  if (debt <= 0) return 0;
  return normalisedIncome > 0 ? debt / normalisedIncome : Number.POSITIVE_INFINITY;
}

/**
 * Σ interest ÷ Σ EBIT over the last 3 years that report both. `burden` is `null` when no such
 * year exists or Σ EBIT ≤ 0 (`operatingLoss` tells which).
 */
export function interestBurden(context: ScoringContext): {
  burden: number | null;
  operatingLoss: boolean;
} {
  const recent = context.years.slice(-3);
  const interest: number[] = [];
  const operating: number[] = [];
  for (const year of recent) {
    const i = year.interestExpense;
    const e = ebit(year);
    if (i === null || e === null) continue;
    interest.push(Math.abs(i));
    operating.push(e);
  }
  const ebitSum = sum(operating);
  if (interest.length === 0) return { burden: null, operatingLoss: false };
  if (ebitSum <= 0) return { burden: null, operatingLoss: true };
  return { burden: sum(interest) / ebitSum, operatingLoss: false };
}

function latestWithDebt(context: ScoringContext): YearValues | undefined {
  for (let i = context.years.length - 1; i >= 0; i -= 1) {
    const year = context.years[i] as YearValues;
    if (totalDebt(context, year) !== null) return year;
  }
  return undefined;
}

/**
 * Debt sustainability (methodology §4.6): `q = 0.7·q(payoff years) + 0.3·q(interest burden)`,
 * payoff years = latest total debt ÷ mean net income of the last 3 reported years (0 with net
 * cash), interest burden = Σ interest ÷ Σ EBIT over the last 3 years. EBIT ≤ 0 with debt caps at
 * fail; interest not reported while in debt caps at warning (no pass for missing data).
 * Not applicable to banks and insurers, nor to a company that reports no borrowing line in any year.
 * numericValue = payoff years (null when earnings cannot repay the debt).
 */
export function assessDebtSustainability(context: ScoringContext): Assessment {
  if (context.financial) return notApplicable('bank or insurer (SIC): debt is raw material');
  if (!context.reported.shortTermDebt && !context.reported.longTermDebt) {
    return notApplicable('no borrowings reported in any year');
  }
  const incomes = collect(context, (y) => y.netIncome);
  const latest = latestWithDebt(context);
  if (latest === undefined || incomes.values.length === 0) {
    return insufficient('no year reports both debt and net income');
  }
  const debt = totalDebt(context, latest) as number;
  const cash = latest.cash;
  const normalised = mean(incomes.values.slice(-3)) as number;
  const years = payoffYears(debt, cash, normalised);
  const { burden, operatingLoss } = interestBurden(context);
  const inDebt = years > 0;
  const qBurden = !inDebt ? 1 : burden === null ? 0 : interpolate(burden, INTEREST_ANCHORS);
  const trend = collect(context, (y) => {
    const d = totalDebt(context, y);
    const ni = y.netIncome;
    return d === null || ni === null || ni <= 0 ? null : d / ni;
  });
  const debtText = !inDebt
    ? `net cash (debt ${amount(debt, context.currency)})`
    : `debt ${amount(debt, context.currency)} = ${Number.isFinite(years) ? `${years.toFixed(1)} yrs` : 'n/m (no earnings)'} of net income`;
  const burdenText =
    burden !== null
      ? `, interest ${percent(burden)} of EBIT`
      : inDebt
        ? `, interest burden n/a${operatingLoss ? ' (operating loss)' : ''}`
        : '';
  return scored({
    quality: 0.7 * interpolate(years, PAYOFF_ANCHORS) + 0.3 * qBurden,
    value: `${debtText}${burdenText} (FY${latest.fiscalYear})`,
    numericValue: Number.isFinite(years) ? years : null,
    trend,
    caps: [
      inDebt && operatingLoss && { cap: BEST_FAIL, note: 'operating loss while in debt' },
      inDebt &&
        burden === null &&
        !operatingLoss && {
          cap: BEST_WARNING,
          note: 'interest burden not computable (interest or EBIT not reported)',
        },
      ...historyCaps(incomes.values.length, context.spanYears),
    ],
  });
}
