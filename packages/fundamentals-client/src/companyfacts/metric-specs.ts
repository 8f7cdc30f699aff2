import type { MetricKey } from '@svc/schemas';

/** Which companyfacts units a metric reads. */
export type UnitKind = 'money' | 'perShare' | 'shares';

/** Internal helper series used only to derive a metric (never output on their own). */
export type AuxKey =
  | 'longTermDebtTotal'
  | 'longTermDebtCurrent'
  | 'debtTotal'
  | 'shortTermBorrowings'
  | 'sellingAndMarketing'
  | 'generalAndAdministrative'
  | 'pretaxDomestic'
  | 'pretaxForeign'
  | 'discontinuedOperations'
  | 'costsAndExpenses'
  | 'financialServicesRevenue'
  | 'exciseTaxes';

/** A metric as an ordered list of candidate XBRL concepts, first match per period wins. */
export interface MetricSpec {
  /** Metric, helper series, or one-off concept (`oneOff:<concept>`, see `one-offs.ts`). */
  readonly key: MetricKey | AuxKey | `oneOff:${string}`;
  /** Income-statement / cash-flow amounts are durations; balance-sheet amounts are instants. */
  readonly period: 'duration' | 'instant';
  readonly unit: UnitKind;
  /** Qualified concepts in priority order (`us-gaap:Revenues`). */
  readonly concepts: readonly string[];
  /** Outflows filed with either sign; normalised to a positive amount (research notes §4). */
  readonly outflow?: boolean;
  /**
   * How one period's value is chosen among the candidate concepts that have one: `first` (the
   * default) takes the first in priority order; `largest` takes the largest, for a total whose
   * candidates are the total itself or one of its components (D&A: `Depreciation` alone, or a
   * narrower `DepreciationDepletionAndAmortization` line beside `DepreciationAndAmortization`),
   * and then drops a year whose only value is from a narrower concept than its neighbours'
   * (see `checkScope` in `select-series.ts`).
   */
  readonly choose?: 'first' | 'largest';
}

const g = (name: string): string => `us-gaap:${name}`;

const money = (
  key: MetricSpec['key'],
  period: MetricSpec['period'],
  names: readonly string[],
  outflow = false,
): MetricSpec => ({ key, period, unit: 'money', concepts: names.map(g), outflow });

/**
 * Candidate concepts per metric, in priority order, from the research notes
 * (`shared/research/fundamentals-data.md` §3, tags observed in 30 real filers).
 *
 * Deliberate departures from that table: `Revenues` comes before
 * `RevenueFromContractWithCustomerExcludingAssessedTax` because, where a filer tags both, the
 * `Revenues` line is the income-statement total (MA FY2018: 14,950 M net revenue vs 21,831 M
 * gross contract revenue; GM, WMT, XOM: total including financing/membership/other revenue);
 * `…ExcludingAssessedTax` still wins over `…IncludingAssessedTax` (BF-B: net of excise taxes).
 * Net interest concepts (`InterestIncomeExpenseNonoperatingNet`) are not used: their sign and
 * content differ from an expense.
 */
export const METRIC_SPECS: readonly MetricSpec[] = [
  money('revenue', 'duration', [
    'Revenues',
    'RevenueFromContractWithCustomerExcludingAssessedTax',
    'SalesRevenueNet',
    'SalesRevenueGoodsNet',
    'SalesRevenueServicesNet',
    'RevenueFromContractWithCustomerIncludingAssessedTax',
  ]),
  money('costOfRevenue', 'duration', [
    'CostOfGoodsAndServicesSold',
    'CostOfRevenue',
    'CostOfGoodsSold',
    'CostOfServices',
    'CostOfGoodsAndServiceExcludingDepreciationDepletionAndAmortization',
    'CostOfGoodsSoldExcludingDepreciationDepletionAndAmortization',
  ]),
  money('grossProfit', 'duration', ['GrossProfit']),
  money('sellingGeneralAdministrative', 'duration', ['SellingGeneralAndAdministrativeExpense']),
  money('researchDevelopment', 'duration', [
    'ResearchAndDevelopmentExpense',
    'ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost',
  ]),
  // Every candidate is the total or a component of it, so the largest tagged value of a period is
  // the total: MCD tags a 215–447 M `DepreciationDepletionAndAmortization` line from FY2018 beside
  // its 1,482–2,097 M `DepreciationAndAmortization` total; F tags `Depreciation` 2,127 M beside
  // `DepreciationDepletionAndAmortization` 7,385 M in FY2014.
  {
    ...money('depreciationAmortization', 'duration', [
      'DepreciationDepletionAndAmortization',
      'DepreciationAndAmortization',
      'DepreciationAmortizationAndAccretionNet',
      'Depreciation',
    ]),
    choose: 'largest',
  },
  money('operatingIncome', 'duration', ['OperatingIncomeLoss']),
  money('interestExpense', 'duration', [
    'InterestExpense',
    'InterestExpenseNonoperating',
    'InterestExpenseDebt',
    'InterestAndDebtExpense',
  ]),
  money('pretaxIncome', 'duration', [
    'IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
    'IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
  ]),
  money('incomeTaxExpense', 'duration', [
    'IncomeTaxExpenseBenefit',
    'IncomeTaxExpenseBenefitContinuingOperations',
  ]),
  // Attributable to the parent: `…AvailableToCommonStockholdersBasic` (parent less preferred
  // dividends) before `ProfitLoss`, which includes noncontrolling interests (F FY2019: ProfitLoss
  // 84 M, available to common 47 M; F tags no NetIncomeLoss for FY2016–FY2020).
  money('netIncome', 'duration', [
    'NetIncomeLoss',
    'NetIncomeLossAvailableToCommonStockholdersBasic',
    'ProfitLoss',
  ]),
  // Attributable to the parent first (like NetIncomeLoss); the variant including noncontrolling
  // interests is not read, so that this never mixes scopes with net income.
  money('incomeFromContinuingOperations', 'duration', [
    'IncomeLossFromContinuingOperationsAttributableToParent',
    'IncomeLossFromContinuingOperations',
  ]),
  {
    key: 'dilutedEps',
    period: 'duration',
    unit: 'perShare',
    // Continuing operations first (methodology §4.1): PG FY2017 tags 5.59 including the
    // discontinued beauty brands and 3.69 from continuing operations. In a year without
    // discontinued operations both are the same figure, so the series keeps one scope.
    concepts: [
      g('IncomeLossFromContinuingOperationsPerDilutedShare'),
      g('IncomeLossFromContinuingOperationsPerBasicAndDilutedShare'),
      g('EarningsPerShareDiluted'),
      g('EarningsPerShareBasicAndDiluted'),
    ],
  },
  {
    key: 'dilutedShares',
    period: 'duration',
    unit: 'shares',
    concepts: [
      g('WeightedAverageNumberOfDilutedSharesOutstanding'),
      g('WeightedAverageNumberOfShareOutstandingBasicAndDiluted'),
    ],
  },
  money('operatingCashFlow', 'duration', [
    'NetCashProvidedByUsedInOperatingActivities',
    'NetCashProvidedByUsedInOperatingActivitiesContinuingOperations',
  ]),
  money(
    'capitalExpenditure',
    'duration',
    [
      'PaymentsToAcquirePropertyPlantAndEquipment',
      'PaymentsToAcquireProductiveAssets',
      'PaymentsForCapitalImprovements',
    ],
    true,
  ),
  money(
    'dividendsPaid',
    'duration',
    ['PaymentsOfDividendsCommonStock', 'PaymentsOfDividends', 'PaymentsOfOrdinaryDividends'],
    true,
  ),
  money(
    'shareRepurchases',
    'duration',
    ['PaymentsForRepurchaseOfCommonStock', 'PaymentsForRepurchaseOfEquity'],
    true,
  ),
  money(
    'acquisitions',
    'duration',
    ['PaymentsToAcquireBusinessesNetOfCashAcquired', 'PaymentsToAcquireBusinessesGross'],
    true,
  ),
  // Issue 39: cash earnings after stock-based compensation, with the amortisation of acquired
  // intangibles added back. `ShareBasedCompensation` is the cash-flow add-back (26 of the 30
  // snapshot filers), `AllocatedShareBasedCompensationExpense` the expense note (WMT, GM).
  money('shareBasedCompensation', 'duration', [
    'ShareBasedCompensation',
    'AllocatedShareBasedCompensationExpense',
  ]),
  money('amortizationOfIntangibles', 'duration', ['AmortizationOfIntangibleAssets']),
  money('cash', 'instant', [
    'CashAndCashEquivalentsAtCarryingValue',
    'CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents',
    'Cash',
  ]),
  money('shortTermDebt', 'instant', ['DebtCurrent']),
  money('longTermDebt', 'instant', [
    'LongTermDebtNoncurrent',
    'LongTermDebtAndCapitalLeaseObligations',
  ]),
  money('totalEquity', 'instant', [
    'StockholdersEquity',
    'StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest',
  ]),
  money('retainedEarnings', 'instant', ['RetainedEarningsAccumulatedDeficit']),
  money('currentAssets', 'instant', ['AssetsCurrent']),
  money('currentLiabilities', 'instant', ['LiabilitiesCurrent']),
  money('propertyPlantEquipmentNet', 'instant', [
    'PropertyPlantAndEquipmentNet',
    'PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization',
  ]),
  money('goodwill', 'instant', ['Goodwill']),
  money('intangibleAssets', 'instant', [
    'IntangibleAssetsNetExcludingGoodwill',
    'FiniteLivedIntangibleAssetsNet',
  ]),
  {
    key: 'sharesOutstanding',
    period: 'instant',
    unit: 'shares',
    concepts: [g('CommonStockSharesOutstanding')],
  },
  // Helper series for derived values.
  money('longTermDebtTotal', 'instant', [
    'LongTermDebt',
    'LongTermDebtAndCapitalLeaseObligationsIncludingCurrentMaturities',
  ]),
  money('longTermDebtCurrent', 'instant', [
    'LongTermDebtCurrent',
    'LongTermDebtAndCapitalLeaseObligationsCurrent',
  ]),
  money('shortTermBorrowings', 'instant', ['ShortTermBorrowings', 'CommercialPaper']),
  // Total debt including current maturities (and capital/finance leases), used only when no
  // current/non-current split is tagged at all (Ford FY2008–FY2017: 154,287 M at 2017-12-31).
  money('debtTotal', 'instant', [
    'DebtAndCapitalLeaseObligations',
    'DebtLongtermAndShorttermCombinedAmount',
  ]),
  money('sellingAndMarketing', 'duration', ['SellingAndMarketingExpense']),
  money('generalAndAdministrative', 'duration', ['GeneralAndAdministrativeExpense']),
  money('pretaxDomestic', 'duration', [
    'IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic',
  ]),
  money('pretaxForeign', 'duration', [
    'IncomeLossFromContinuingOperationsBeforeIncomeTaxesForeign',
  ]),
  money('discontinuedOperations', 'duration', [
    'IncomeLossFromDiscontinuedOperationsNetOfTaxAttributableToReportingEntity',
    'IncomeLossFromDiscontinuedOperationsNetOfTax',
  ]),
  money('costsAndExpenses', 'duration', ['CostsAndExpenses']),
  money('financialServicesRevenue', 'duration', ['FinancialServicesRevenue']),
  money('exciseTaxes', 'duration', ['ExciseAndSalesTaxes']),
];

/** Concepts whose annual duration facts define a company's fiscal years (net income). */
export const FISCAL_YEAR_CONCEPTS: readonly string[] = [
  g('NetIncomeLoss'),
  g('ProfitLoss'),
  g('NetIncomeLossAvailableToCommonStockholdersBasic'),
];

/** Cover-page share count, used when the balance sheet does not tag shares outstanding. */
export const DEI_SHARES_OUTSTANDING = 'dei:EntityCommonStockSharesOutstanding';

/** Split ratio the filer tags in its equity note (an instant at the split date). */
export const SPLIT_RATIO_CONCEPT = g('StockholdersEquityNoteStockSplitConversionRatio1');

/** SEC forms whose facts are annual-report facts (research notes §2.1). */
export const ANNUAL_FORMS: ReadonlySet<string> = new Set(['10-K', '10-K/A', '10-KT', '10-KT/A']);
