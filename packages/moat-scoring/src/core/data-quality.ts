import type { CriterionKey, MetricKey } from '@svc/schemas';

/**
 * A data-quality finding about one series of the fundamentals (issue 39), shown on the
 * evaluation and on every criterion that rests on that series. `code` is stable
 * (`capex_below_ppe_growth`, …), `series` the metric key it concerns, `message` for people. A
 * flagged series never earns points from its gap: the criterion says how it was scored instead.
 */
export interface DataQualityFlag {
  readonly code: string;
  readonly series: string;
  readonly message: string;
}

/** The series each criterion's score rests on, so that a flag reaches the criteria it affects. */
export const SERIES_OF_CRITERION: Readonly<Record<CriterionKey, readonly MetricKey[]>> = {
  earnings_consistency: ['dilutedEps', 'netIncome', 'incomeFromContinuingOperations'],
  gross_margin: ['revenue', 'costOfRevenue', 'grossProfit'],
  net_margin: ['revenue', 'netIncome', 'incomeFromContinuingOperations'],
  retained_earnings: [
    'retainedEarnings',
    'operatingCashFlow',
    'capitalExpenditure',
    'dividendsPaid',
    'shareRepurchases',
    'shortTermDebt',
    'longTermDebt',
    'cash',
  ],
  return_on_invested_capital: [
    'operatingIncome',
    'pretaxIncome',
    'incomeTaxExpense',
    'shortTermDebt',
    'longTermDebt',
    'totalEquity',
    'cash',
    'propertyPlantEquipmentNet',
  ],
  debt_sustainability: ['shortTermDebt', 'longTermDebt', 'cash', 'interestExpense', 'netIncome'],
  capex_efficiency: ['capitalExpenditure', 'netIncome', 'depreciationAmortization'],
  product_durability: [
    'revenue',
    'grossProfit',
    'sellingGeneralAdministrative',
    'researchDevelopment',
    'depreciationAmortization',
    'operatingIncome',
  ],
};

/** The flags among `flags` that concern a series `key` rests on. */
export function flagsFor(key: CriterionKey, flags: readonly DataQualityFlag[]): DataQualityFlag[] {
  const series: readonly string[] = SERIES_OF_CRITERION[key];
  return flags.filter((f) => series.includes(f.series));
}
