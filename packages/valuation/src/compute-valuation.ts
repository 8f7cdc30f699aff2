import type { FiscalYearFigures } from '@svc/schemas';
import { augmentedPayout } from './augmented-payout.js';
import { epsConsistencyGap, epsOfYear, sortedYears } from './eps.js';
import { historicalEpsGrowth } from './eps-growth.js';
import { assertValidInput, type ValuationInput } from './valuation-input.js';
import type { ValuationResult } from './valuation-result.js';

/**
 * P/E at or above which Buffett & Clark suggest it "might be time to sell" a super company
 * (*Warren Buffett and the Interpretation of Financial Statements*, 2008; methodology §1.1, §5).
 */
export const SELL_TRIGGER_PE = 40;

/** Relative gap between reported EPS and net income / diluted shares that earns a note. */
const EPS_GAP_NOTE_THRESHOLD = 0.05;

/**
 * Computes the valuation signals of interface spec 2.5 from annual fundamentals and a price.
 *
 * - `peRatio` = price / trailing diluted EPS, where the trailing EPS is the latest fiscal year's
 *   (annual data: the last fiscal year stands in for TTM; `_epsFiscalYear` says which), divided by
 *   `splitFactor`. `null` when EPS ≤ 0 or missing, or without a usable price.
 * - `forwardPE` = price / `forwardEps`; `null` without an estimate or when it is ≤ 0.
 * - `pegRatio` = P/E / EPS growth in percent, growth = 5-year historical diluted EPS CAGR (see
 *   {@link historicalEpsGrowth}; `_pegGrowthBasis` says which variant); `null` when growth ≤ 0 or
 *   P/E is `null` (Lynch, *One Up on Wall Street*; methodology §5).
 * - `augmentedPayoutRatio` = (dividends + buybacks) / net income × 100, PERCENT, latest fiscal
 *   year (see {@link augmentedPayout}).
 * - `sellTrigger` = P/E ≥ {@link SELL_TRIGGER_PE}; `false` when P/E is `null`.
 *
 * Price-based ratios need the price in the reporting currency: when the currencies differ and no
 * `fxRate` is given they are `null`. Every `null` has a reason in `_notes`. Pure: no I/O, no clock.
 *
 * @throws {ValuationError} `invalid_input` when the fundamentals fail the schema, or the price,
 *   forward EPS, FX rate or split factor is not a finite (positive) number.
 * @example
 * ```ts
 * const valuation = computeValuation({
 *   fundamentals,                       // Fundamentals of AAPL, FY2020…FY2025
 *   price: { value: 264.18, currency: 'USD', asOf: '2026-02-27', source: 'yahoo-csv' },
 * });
 * valuation.peRatio;        // 264.18 / 7.46 ≈ 35.4 (FY2025 diluted EPS)
 * valuation._notes;         // ['no analyst estimate available: forward P/E not computed']
 * ```
 */
export function computeValuation(input: ValuationInput): ValuationResult {
  assertValidInput(input);
  const notes: string[] = [];
  const years = sortedYears(input.fundamentals.years);
  const latest = years.at(-1);
  const splitFactor = input.splitFactor ?? 1;
  const reportingCurrency = input.fundamentals.company.currency.toUpperCase();

  const price = priceInReportingCurrency(input, reportingCurrency, notes);
  const reported = latest ? trailingEps(latest, splitFactor, notes) : noYears(notes);
  const trailing = latest ? withinEpsAge(reported, latest, input, notes) : reported;
  const peRatio = ratio(price, trailing.forPe, 'P/E', notes);
  const forwardPE = forwardPe(price, input.forwardEps ?? null, notes);
  const growth = latest ? historicalEpsGrowth(years, latest.fiscalYear) : null;
  const pegRatio = peg(peRatio, growth, notes);
  const payout = latest ? augmentedPayout(latest) : null;
  if (payout && !payout.ok) notes.push(payout.reason);
  if (payout?.ok && payout.note) notes.push(payout.note);
  if (payout?.ok && payout.percent > 100) notes.push(payoutAboveEarnings(payout.percent, latest));
  if (latest && input.price && input.price.asOf < latest.periodEnd) {
    notes.push(`price date ${input.price.asOf} precedes the end of FY${latest.fiscalYear}`);
  }

  return {
    peRatio,
    forwardPE,
    pegRatio,
    augmentedPayoutRatio: payout?.ok ? payout.percent : null,
    sellTrigger: peRatio !== null && peRatio >= SELL_TRIGGER_PE,
    _price: input.price?.value ?? null,
    _priceCurrency: input.price?.currency.toUpperCase() ?? null,
    _priceAsOf: input.price?.asOf ?? null,
    _priceSource: input.price?.source ?? null,
    _reportingCurrency: reportingCurrency,
    _fxRate: price !== null && input.fxRate != null ? input.fxRate : null,
    _splitFactor: splitFactor,
    _epsFiscalYear: latest?.fiscalYear ?? null,
    _epsPeriodEnd: latest?.periodEnd ?? null,
    _trailingEps: trailing.eps,
    _trailingEpsDerived: trailing.derived,
    _forwardEps: input.forwardEps ?? null,
    _epsGrowthPercent: growth?.ok ? growth.percent : null,
    _pegGrowthBasis: growth?.ok ? growth.basis : null,
    _payoutFiscalYear: latest?.fiscalYear ?? null,
    _payoutComponents: payout?.ok ? payout.components : null,
    _notes: notes,
  };
}

/**
 * Age, in days, from the end of the fiscal year of the trailing EPS to the price date at which the
 * EPS is too old for a P/E (18 months ≈ 548 days): an annual report is filed within about 3
 * months of its year end, so by then the fundamentals miss a whole newer fiscal year and a P/E
 * would divide today's price by stale earnings (e.g. a 2026 price over FY2019 EPS). The bound is
 * exclusive: EPS is used when it is **less than** 548 days old; at exactly 548 days it is not
 * (BBY, KR, TGT: fiscal years ending 2025-02-01 against prices of 2026-08-03). Our own bound, not
 * a published one.
 */
export const MAX_TRAILING_EPS_AGE_DAYS = 548;

const DAY_MS = 86_400_000;

/** Drops the EPS for the P/E when it is `maxEpsAgeDays` old or older at the price date. */
function withinEpsAge(
  trailing: Trailing,
  latest: FiscalYearFigures,
  input: ValuationInput,
  notes: string[],
): Trailing {
  if (trailing.forPe === null || input.price === null) return trailing;
  const maxDays = input.maxEpsAgeDays ?? MAX_TRAILING_EPS_AGE_DAYS;
  const ageDays = (Date.parse(input.price.asOf) - Date.parse(latest.periodEnd)) / DAY_MS;
  if (!(ageDays >= maxDays)) return trailing;
  notes.push(
    `latest diluted EPS is of FY${latest.fiscalYear} (ended ${latest.periodEnd}), ${Math.round(ageDays)} days before the price of ${input.price.asOf} (EPS must be less than ${maxDays} days old): P/E, PEG and sell trigger not computed from stale earnings`,
  );
  return { ...trailing, forPe: null };
}

interface Trailing {
  /** EPS as reported (or derived), on its own share basis. */
  readonly eps: number | null;
  /** EPS on the price's share basis when it is > 0, else null. */
  readonly forPe: number | null;
  readonly derived: boolean;
}

function noYears(notes: string[]): Trailing {
  notes.push('no fiscal years in the fundamentals: nothing to value');
  return { eps: null, forPe: null, derived: false };
}

function trailingEps(latest: FiscalYearFigures, splitFactor: number, notes: string[]): Trailing {
  const fy = `FY${latest.fiscalYear}`;
  const eps = epsOfYear(latest);
  if (eps === null) {
    notes.push(`no diluted EPS (nor net income and diluted shares) for ${fy}: P/E not computed`);
    return { eps: null, forPe: null, derived: false };
  }
  if (eps.derived) {
    const tag = latest.dilutedEps?.source.tag;
    notes.push(
      tag === undefined
        ? `${fy} diluted EPS derived as net income / diluted shares`
        : `${fy} diluted EPS derived by the provider (${tag}), not reported`,
    );
  }
  const gap = epsConsistencyGap(latest);
  if (gap !== null && gap > EPS_GAP_NOTE_THRESHOLD) {
    notes.push(
      `${fy} diluted EPS differs from net income / diluted shares by ${(gap * 100).toFixed(0)}%: check the share basis`,
    );
  }
  if (eps.value <= 0) {
    notes.push(`loss year ${fy} (diluted EPS ≤ 0): P/E not meaningful`);
    return { eps: eps.value, forPe: null, derived: eps.derived };
  }
  return { eps: eps.value, forPe: eps.value / splitFactor, derived: eps.derived };
}

/**
 * Why a payout above 100% is real: the company returned more cash than it earned that year, the
 * excess coming from cash on hand, debt or earlier years' earnings (buybacks larger than net
 * income: KR FY2024 189%, MNST, MOS). Damodaran's cash-return ratio has no upper bound.
 */
function payoutAboveEarnings(percent: number, year: FiscalYearFigures | undefined): string {
  const fy = year ? `FY${year.fiscalYear}` : 'the latest year';
  const m = (v: number) => `${(v / 1e6).toLocaleString('en-US', { maximumFractionDigits: 0 })} M`;
  const parts: string[] = [];
  if (year?.dividendsPaid) parts.push(`dividends (${m(year.dividendsPaid.value)})`);
  if (year?.shareRepurchases) parts.push(`buybacks (${m(year.shareRepurchases.value)})`);
  const paid = parts.join(' plus ');
  const earned = year?.netIncome ? ` (${m(year.netIncome.value)})` : '';
  return `payout ${percent.toFixed(0)}% above 100% is real, not an error: in ${fy} ${paid} exceeded net income${earned}; the excess came from cash, debt or earlier earnings`;
}

function priceInReportingCurrency(
  input: ValuationInput,
  reportingCurrency: string,
  notes: string[],
): number | null {
  if (input.price === null) {
    notes.push('no price available: P/E, forward P/E, PEG and sell trigger not computed');
    return null;
  }
  const priceCurrency = input.price.currency.toUpperCase();
  if (priceCurrency === reportingCurrency) return input.price.value;
  if (input.fxRate == null) {
    notes.push(
      `price currency ${priceCurrency} differs from reporting currency ${reportingCurrency} and no fxRate was given: P/E, forward P/E and PEG not computed`,
    );
    return null;
  }
  notes.push(
    `price converted ${priceCurrency}→${reportingCurrency} at ${input.fxRate} ${reportingCurrency} per ${priceCurrency}`,
  );
  return input.price.value * input.fxRate;
}

function ratio(
  price: number | null,
  eps: number | null,
  label: string,
  notes: string[],
): number | null {
  if (price === null || eps === null) return null;
  const value = price / eps;
  if (Number.isFinite(value)) return value;
  notes.push(`${label} is not finite: not computed`);
  return null;
}

function forwardPe(
  price: number | null,
  forwardEps: number | null,
  notes: string[],
): number | null {
  if (forwardEps === null) {
    notes.push('no analyst estimate available: forward P/E not computed');
    return null;
  }
  if (forwardEps <= 0) {
    notes.push('estimated EPS ≤ 0: forward P/E not meaningful');
    return null;
  }
  return ratio(price, forwardEps, 'forward P/E', notes);
}

function peg(
  peRatio: number | null,
  growth: ReturnType<typeof historicalEpsGrowth> | null,
  notes: string[],
): number | null {
  if (growth === null) return null;
  if (!growth.ok) {
    notes.push(`${growth.reason}: PEG not computed`);
    return null;
  }
  if (growth.percent <= 0) {
    notes.push(`EPS growth ${growth.percent.toFixed(2)}%/yr ≤ 0: PEG not meaningful`);
    return null;
  }
  if (peRatio === null) return null;
  return ratio(peRatio, growth.percent, 'PEG', notes);
}
