import type { MetricKey } from '@svc/schemas';
import type { SimfinColumn, SimfinStatement } from './columns.js';

/** How one metric is read from one SimFin column. */
export interface MetricRule<S extends SimfinStatement = SimfinStatement> {
  readonly key: MetricKey;
  readonly statement: S;
  readonly column: SimfinColumn<S>;
  /**
   * `1`: the column already has the model's sign. `-1`: SimFin stores the amount negative (a cost
   * or an outflow, research notes §5), so it is negated to the model's positive amount.
   */
  readonly sign: 1 | -1;
  /**
   * For costs and outflows: a raw value of the other sign (positive) is not the metric (net
   * interest income, net disposals of fixed assets…). It is left `null` with an issue saying so.
   */
  readonly positiveMeans?: string;
  /** Buybacks, acquisitions: only a raw value below zero is the metric; otherwise `null` (no issue). */
  readonly onlyNegative?: boolean;
  /** Provenance note on every value read by this rule. */
  readonly note?: string;
}

const rule = <S extends SimfinStatement>(r: MetricRule<S>): MetricRule<S> => r;
const cost = (what: string) => `a positive "${what}" contradicts SimFin's negative costs`;

/**
 * Metric ← column, in priority order (the first rule of a key with a value wins). Sources:
 * research notes `shared/research/fundamentals-data.md` §5 and the CSV headers.
 *
 * Not available in SimFin's standard annual variant, hence always `null`: goodwill, intangible
 * assets, share-based compensation and amortisation of intangibles (inside "Non-Cash Items" and
 * "Depreciation & Amortization"), and shares outstanding at period end (the balance rows carry the year's weighted shares,
 * not a period-end count). Diluted EPS and gross profit are handled in `simfin-to-fundamentals.ts`.
 */
export const METRIC_RULES: readonly MetricRule[] = [
  rule({ key: 'revenue', statement: 'income', column: 'Revenue', sign: 1 }),
  rule({
    key: 'costOfRevenue',
    statement: 'income',
    column: 'Cost of Revenue',
    sign: -1,
    positiveMeans: cost('Cost of Revenue'),
  }),
  rule({
    key: 'sellingGeneralAdministrative',
    statement: 'income',
    column: 'Selling, General & Administrative',
    sign: -1,
    positiveMeans: cost('Selling, General & Administrative'),
  }),
  rule({
    key: 'researchDevelopment',
    statement: 'income',
    column: 'Research & Development',
    sign: -1,
    positiveMeans: cost('Research & Development'),
  }),
  rule({
    key: 'depreciationAmortization',
    statement: 'cashflow',
    column: 'Depreciation & Amortization',
    sign: 1,
  }),
  rule({
    key: 'depreciationAmortization',
    statement: 'income',
    column: 'Depreciation & Amortization',
    sign: -1,
    positiveMeans: cost('Depreciation & Amortization'),
    note: 'income-statement D&A, negated: the cash-flow statement has none this year',
  }),
  rule({ key: 'operatingIncome', statement: 'income', column: 'Operating Income (Loss)', sign: 1 }),
  rule({
    key: 'interestExpense',
    statement: 'income',
    column: 'Interest Expense, Net',
    sign: -1,
    positiveMeans: 'net interest income (interest income exceeds interest expense)',
    note: 'SimFin "Interest Expense, Net", negated: interest expense net of interest income',
  }),
  rule({ key: 'pretaxIncome', statement: 'income', column: 'Pretax Income (Loss)', sign: 1 }),
  rule({
    key: 'unusualItems',
    statement: 'income',
    column: 'Abnormal Gains (Losses)',
    sign: 1,
    note: 'SimFin "Abnormal Gains (Losses)": one-off items inside pretax income (impairments, restructuring, disposals), signed',
  }),
  rule({
    key: 'incomeTaxExpense',
    statement: 'income',
    column: 'Income Tax (Expense) Benefit, Net',
    sign: -1,
  }),
  rule({ key: 'netIncome', statement: 'income', column: 'Net Income', sign: 1 }),
  rule({ key: 'dilutedShares', statement: 'income', column: 'Shares (Diluted)', sign: 1 }),
  rule({
    key: 'operatingCashFlow',
    statement: 'cashflow',
    column: 'Net Cash from Operating Activities',
    sign: 1,
  }),
  rule({
    key: 'capitalExpenditure',
    statement: 'cashflow',
    column: 'Change in Fixed Assets & Intangibles',
    sign: -1,
    positiveMeans: 'net disposals: fixed assets and intangibles sold exceed those bought',
    note: 'SimFin "Change in Fixed Assets & Intangibles", negated: purchases of fixed assets and intangibles net of disposals',
  }),
  rule({
    key: 'acquisitions',
    statement: 'cashflow',
    column: 'Net Cash from Acquisitions & Divestitures',
    sign: -1,
    onlyNegative: true,
    note: 'SimFin "Net Cash from Acquisitions & Divestitures", negated: acquisitions net of divestitures (a net inflow is no acquisition)',
  }),
  rule({
    key: 'dividendsPaid',
    statement: 'cashflow',
    column: 'Dividends Paid',
    sign: -1,
    positiveMeans: cost('Dividends Paid'),
  }),
  rule({
    key: 'shareRepurchases',
    statement: 'cashflow',
    column: 'Cash from (Repurchase of) Equity',
    sign: -1,
    onlyNegative: true,
    note: 'SimFin "Cash from (Repurchase of) Equity", negated: repurchases net of share issuance',
  }),
  rule({
    key: 'cash',
    statement: 'balance',
    column: 'Cash, Cash Equivalents & Short Term Investments',
    sign: 1,
    note: 'includes short-term investments',
  }),
  rule({ key: 'shortTermDebt', statement: 'balance', column: 'Short Term Debt', sign: 1 }),
  rule({ key: 'longTermDebt', statement: 'balance', column: 'Long Term Debt', sign: 1 }),
  rule({ key: 'totalEquity', statement: 'balance', column: 'Total Equity', sign: 1 }),
  rule({ key: 'retainedEarnings', statement: 'balance', column: 'Retained Earnings', sign: 1 }),
  rule({ key: 'currentAssets', statement: 'balance', column: 'Total Current Assets', sign: 1 }),
  rule({
    key: 'currentLiabilities',
    statement: 'balance',
    column: 'Total Current Liabilities',
    sign: 1,
  }),
  rule({
    key: 'propertyPlantEquipmentNet',
    statement: 'balance',
    column: 'Property, Plant & Equipment, Net',
    sign: 1,
  }),
];
