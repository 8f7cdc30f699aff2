import {
  type Assessment,
  BEST_FAIL,
  BEST_WARNING,
  historyCaps,
  insufficient,
  scored,
} from '../core/assessment.js';
import { amount, percent, signedPercent, times } from '../core/format.js';
import { type Anchor, interpolate } from '../core/interpolate.js';
import {
  collect,
  orAbsent,
  type ScoringContext,
  type YearSeries,
  type YearValues,
} from '../core/scoring-context.js';
import { mean, sum } from '../core/statistics.js';
import { debtEvidence, totalDebt } from './debt-evidence.js';

/** Buybacks at or above this share of cumulative net income are material (judgement, §4.4). */
export const MATERIAL_BUYBACK_SHARE = 0.1;
/** Retained-earnings CAGR anchors without buybacks (judgement, §4.4 Path A). */
export const GROWTH_ANCHORS: readonly Anchor[] = [
  [0, 0],
  [0.03, 0.4],
  [0.07, 0.75],
  [0.12, 1],
];
/** (FCF − dividends) ÷ buybacks anchors: ≥ 1× means buybacks came out of free cash flow (§4.4). */
export const COVERAGE_ANCHORS: readonly Anchor[] = [
  [0.5, 0],
  [0.75, 0.4],
  [1, 0.75],
  [1.5, 1],
];
/**
 * With at least this many years of EPS, the retention return compares 3-year endpoint means
 * rather than the first and last year (issue 39): the package's rule for trends (README, "levels
 * are medians, trends 3-year endpoint means"), so a window that starts in a cyclical trough or
 * ends on a peak is not read as a return on retained earnings (DAL FY2009–FY2017). Six years
 * keep the two 3-year ends apart.
 */
export const ENDPOINT_MEAN_MIN_YEARS = 6;
/** Return on retained EPS anchors (dassus98 F4 12%; Buffettology 15%; Buffett 1984 $1 test). */
export const RETENTION_ANCHORS: readonly Anchor[] = [
  [0, 0],
  [0.08, 0.4],
  [0.12, 0.75],
  [0.2, 1],
];

interface Flows {
  buybacks: number;
  /** Σ cash paid for acquisitions (a line never reported counts as none). */
  acquisitions: number;
  dividends: number;
  freeCashFlow: number;
  freeCashFlowYears: number;
  netIncome: number;
}

/** Window sums of buybacks, dividends, free cash flow (CFO − |capex|) and net income. */
export function windowFlows(context: ScoringContext): Flows {
  const flows: Flows = {
    buybacks: 0,
    acquisitions: 0,
    dividends: 0,
    freeCashFlow: 0,
    freeCashFlowYears: 0,
    netIncome: 0,
  };
  for (const year of context.years) {
    flows.buybacks += Math.abs(
      orAbsent(year.shareRepurchases, context.reported.shareRepurchases) ?? 0,
    );
    flows.dividends += Math.abs(orAbsent(year.dividendsPaid, context.reported.dividendsPaid) ?? 0);
    flows.acquisitions += Math.abs(year.acquisitions ?? 0);
    flows.netIncome += year.netIncome ?? 0;
    const cfo = year.operatingCashFlow;
    const capex = year.capitalExpenditure;
    if (cfo !== null && capex !== null) {
      flows.freeCashFlow += cfo - Math.abs(capex);
      flows.freeCashFlowYears += 1;
    }
  }
  return flows;
}

/**
 * Net debt of a year: total debt (a borrowing line never reported counts as none) − cash. Cash
 * must be reported: every company has it, so its absence is missing data, not "no cash".
 */
function netDebt(context: ScoringContext, year: YearValues): number | null {
  const debt = totalDebt(context, year);
  const cash = year.cash;
  return debt === null || cash === null ? null : debt - cash;
}

/**
 * Net debt at the last year that reports it minus at the first; `null` when not computable, or
 * when the latest debt figure is no evidence of the current debt (stale, or after a collapse of
 * debt scope: see `debtEvidence`): a change across such a break measures the tags, not the
 * company.
 */
export function netDebtChange(context: ScoringContext): number | null {
  const evidence = debtEvidence(context);
  if (evidence !== null && !evidence.reliable) return null;
  const series = collect(context, (y) => netDebt(context, y));
  if (series.values.length < 2) return null;
  return (series.values[series.values.length - 1] as number) - (series.values[0] as number);
}

/**
 * Return on retained earnings per share (Buffett's $1 test): (EPS_end − EPS_start) ÷ Σ (EPS_t −
 * DPS_t) over the later years, DPS = dividends paid ÷ diluted shares. EPS_start and EPS_end are
 * the means of the first and last 3 years with {@link ENDPOINT_MEAN_MIN_YEARS} or more years
 * (through the cycle, issue 39), else the first and last year. A fraction; `null` when fewer than
 * 3 years or Σ retained ≤ 0.
 */
export function retentionReturn(context: ScoringContext): number | null {
  const series = collect(context, (y) => {
    const eps = y.dilutedEps;
    const dividends = orAbsent(y.dividendsPaid, context.reported.dividendsPaid);
    const shares = y.dilutedShares;
    if (eps === null || dividends === null || shares === null || shares <= 0) return null;
    return eps;
  });
  if (series.values.length < 3) return null;
  const byYear = new Map(context.years.map((y) => [y.fiscalYear, y]));
  const retained = series.years.slice(1).map((fy, i) => {
    const year = byYear.get(fy) as YearValues;
    const dps =
      Math.abs(orAbsent(year.dividendsPaid, context.reported.dividendsPaid) ?? 0) /
      (year.dilutedShares as number);
    return (series.values[i + 1] as number) - dps;
  });
  const totalRetained = sum(retained);
  if (!(totalRetained > 0)) return null;
  const values = series.values;
  const [start, end] =
    values.length >= ENDPOINT_MEAN_MIN_YEARS
      ? [mean(values.slice(0, 3)) as number, mean(values.slice(-3)) as number]
      : [values[0] as number, values[values.length - 1] as number];
  return (end - start) / totalRetained;
}

function assessWithoutBuybacks(
  context: ScoringContext,
  balance: YearSeries,
  netIncome: number,
): Assessment {
  const n = balance.values.length;
  if (n < 3)
    return insufficient(`retained earnings in ${n} year(s); at least 3 are needed`, balance);
  const first = balance.values[0] as number;
  const last = balance.values[n - 1] as number;
  const distance = (balance.years[n - 1] as number) - (balance.years[0] as number);
  const growth = first > 0 && last > 0 ? (last / first) ** (1 / distance) - 1 : null;
  let quality = growth === null ? 0 : interpolate(growth, GROWTH_ANCHORS);
  if (growth === null && last > first) quality = last > 0 ? 0.4 : 0.2;
  let rises = 0;
  for (let i = 1; i < n; i += 1)
    if ((balance.values[i] as number) > (balance.values[i - 1] as number)) rises += 1;
  const growthText =
    growth === null
      ? `from ${amount(first, context.currency)} to ${amount(last, context.currency)}`
      : `${signedPercent(growth)}/yr`;
  return scored({
    quality,
    value: `retained earnings ${growthText}, rose in ${rises}/${n - 1} yrs, no material buybacks`,
    numericValue: growth === null ? null : growth * 100,
    trend: balance,
    caps: [
      rises < Math.ceil(0.7 * (n - 1)) && {
        cap: BEST_WARNING,
        note: 'retained earnings rose in fewer than 70% of years',
      },
      last <= 0 && netIncome <= 0 && { cap: BEST_FAIL, note: 'accumulated deficit from losses' },
      ...historyCaps(n, context.spanYears),
    ],
  });
}

function assessWithBuybacks(
  context: ScoringContext,
  balance: YearSeries,
  flows: Flows,
): Assessment {
  if (flows.freeCashFlowYears < 3) {
    return insufficient(
      `free cash flow in ${flows.freeCashFlowYears} year(s); at least 3 are needed`,
      balance,
    );
  }
  const coverage = (flows.freeCashFlow - flows.dividends) / flows.buybacks;
  const debtChange = netDebtChange(context);
  // Acquisitions are attributed before buybacks (issue 39): debt raised to buy businesses is not
  // debt raised to buy back shares, and it is judged under debt sustainability already.
  const debtForBuybacks = debtChange === null ? null : debtChange - flows.acquisitions;
  const retention = retentionReturn(context);
  const qFunding = interpolate(coverage, COVERAGE_ANCHORS);
  const quality =
    retention === null
      ? qFunding
      : 0.6 * qFunding + 0.4 * interpolate(retention, RETENTION_ANCHORS);
  const latestEquity = (context.years[context.years.length - 1] as YearValues).totalEquity;
  const c = context.currency;
  const parts = [
    `buybacks ${amount(flows.buybacks, c)} covered ${times(coverage)} by FCF after dividends`,
    debtChange === null
      ? 'net debt change n/a'
      : `net debt ${debtChange >= 0 ? '+' : ''}${amount(debtChange, c)}${
          flows.acquisitions > 0 && debtChange > 0
            ? ` (acquisitions ${amount(flows.acquisitions, c)} attributed first)`
            : ''
        }`,
    retention === null ? null : `return on retained EPS ${percent(retention)}`,
    latestEquity !== null && latestEquity < 0 ? 'negative equity (buybacks)' : null,
  ];
  return scored({
    quality,
    value: parts.filter((p) => p !== null).join('; '),
    numericValue: coverage,
    trend: balance,
    caps: [
      debtForBuybacks !== null &&
        debtForBuybacks > flows.buybacks && { cap: BEST_FAIL, note: 'buybacks funded with debt' },
      debtForBuybacks !== null &&
        debtForBuybacks > 0.5 * flows.buybacks && {
          cap: BEST_WARNING,
          note: 'buybacks partly funded with debt',
        },
      debtChange === null && { cap: BEST_WARNING, note: 'debt funding not verifiable' },
      ...historyCaps(flows.freeCashFlowYears, context.spanYears),
    ],
  });
}

/**
 * Retained earnings (methodology §4.4, interface spec 2.3). Without material buybacks (< 10% of
 * cumulative net income): the retained-earnings balance must grow (CAGR anchors 0/3/7/12%, rising
 * in ≥ 70% of years). With material buybacks the balance is not meaningful (retired shares are
 * charged to it), so the test is whether buybacks were funded from free cash flow after dividends
 * rather than from debt: `q = 0.6·q(coverage) + 0.4·q(return on retained EPS)`, coverage =
 * (Σ FCF − Σ dividends) ÷ Σ buybacks; net debt rising by more than half the buybacks caps at
 * warning, by more than the buybacks at fail, after the acquisitions of the window are attributed
 * their share of the rise first (issue 39: acquisition debt is not buyback debt). numericValue = coverage (×) with buybacks, else the
 * retained-earnings CAGR in percent.
 */
export function assessRetainedEarnings(context: ScoringContext): Assessment {
  const flows = windowFlows(context);
  const balance = collect(context, (y) => y.retainedEarnings);
  const material =
    flows.buybacks > 0 && flows.buybacks >= MATERIAL_BUYBACK_SHARE * Math.max(flows.netIncome, 0);
  return material
    ? assessWithBuybacks(context, balance, flows)
    : assessWithoutBuybacks(context, balance, flows.netIncome);
}
