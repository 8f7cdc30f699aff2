import type { CriterionKey } from '@svc/schemas';

/** What a criterion's yearly `trend` values measure. */
export type TrendUnit = 'percent' | 'years' | 'perShare' | 'money';

/**
 * The pass line of a criterion's trend, drawn on its chart: `value` in the trend's unit, and
 * which side of it passes (`atLeast`: values ≥ the line pass, `atMost`: values ≤ it pass).
 */
export interface TrendThreshold {
  readonly value: number;
  readonly side: 'atLeast' | 'atMost';
}

/** How the card and the terminal read one criterion's trend. */
export interface TrendScale {
  /** What the series is, e.g. "Gross margin (% of revenue)". */
  readonly label: string;
  readonly unit: TrendUnit;
  /** The benchmark line, where the pass rule has one on this series; otherwise absent. */
  readonly threshold?: TrendThreshold;
}

/**
 * The series behind each criterion's `trend` (as `@svc/moat-scoring` computes them) and the
 * headline benchmark of its pass rule on that series (`CRITERIA[].benchmark`; the test of this
 * package checks that each value is the one the benchmark text names):
 * - gross margin ≥ 40 %, net margin ≥ 15 %, ROIC ≥ 15 % (percent per year);
 * - debt ≤ 4 years of earnings: per year, the payoff years the criterion scores (that year's debt,
 *   0 with net cash, ÷ the mean cash earnings of the 3 latest years up to it), so the latest point
 *   is the figure the display value quotes; a year whose mean is ≤ 0 ("n/m") has no point;
 * - capex ≤ 50 % of net income (per year; loss years are left out);
 * - EPS (or net income), retained earnings and revenue have no single line: their rules are about
 *   growth and steadiness, which the shape of the chart shows.
 */
export const TREND_SCALES: Readonly<Record<CriterionKey, TrendScale>> = {
  earnings_consistency: { label: 'Earnings per share (diluted)', unit: 'perShare' },
  gross_margin: {
    label: 'Gross margin (% of revenue)',
    unit: 'percent',
    threshold: { value: 40, side: 'atLeast' },
  },
  net_margin: {
    label: 'Net margin (% of revenue)',
    unit: 'percent',
    threshold: { value: 15, side: 'atLeast' },
  },
  retained_earnings: { label: 'Retained earnings', unit: 'money' },
  return_on_invested_capital: {
    label: 'Return on invested capital (%)',
    unit: 'percent',
    threshold: { value: 15, side: 'atLeast' },
  },
  debt_sustainability: {
    label: 'Debt in years of earnings (3-year mean)',
    unit: 'years',
    threshold: { value: 4, side: 'atMost' },
  },
  capex_efficiency: {
    label: 'Capital expenditure (% of net income)',
    unit: 'percent',
    threshold: { value: 50, side: 'atMost' },
  },
  product_durability: { label: 'Revenue', unit: 'money' },
};

/**
 * The scale of one criterion's trend: {@link TREND_SCALES}, except earnings consistency scored on
 * net income (its display value starts with "net income": EPS covered fewer years or the share
 * count jumped), whose series is money.
 */
export function trendScaleOf(criterion: {
  readonly key: CriterionKey;
  readonly value: string;
}): TrendScale {
  if (criterion.key === 'earnings_consistency' && criterion.value.startsWith('net income')) {
    return NET_INCOME_SCALE;
  }
  return TREND_SCALES[criterion.key];
}

const NET_INCOME_SCALE: TrendScale = { label: 'Net income (continuing operations)', unit: 'money' };

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/**
 * One trend value as text in its unit: `43.2%`, `1.8 yrs`, `6.11` (per share, two decimals),
 * `394.3B` (money, compact; `currency` appended when given: `394.3B USD`).
 *
 * @example formatTrendValue(43.21, 'percent') // '43.2%'
 */
export function formatTrendValue(value: number, unit: TrendUnit, currency?: string): string {
  switch (unit) {
    case 'percent':
      return `${value.toFixed(1)}%`;
    case 'years':
      return `${value.toFixed(1)} yrs`;
    case 'perShare':
      return value.toFixed(2);
    case 'money':
      return currency ? `${COMPACT.format(value)} ${currency}` : COMPACT.format(value);
  }
}

/** The threshold as a short rule: `≥ 40%`, `≤ 4 yrs` (whole numbers without decimals). */
export function formatThreshold(threshold: TrendThreshold, unit: TrendUnit): string {
  const { value } = threshold;
  const text = formatTrendValue(value, unit).replace(Number.isInteger(value) ? '.0' : '', '');
  return `${threshold.side === 'atLeast' ? '≥' : '≤'} ${text}`;
}
