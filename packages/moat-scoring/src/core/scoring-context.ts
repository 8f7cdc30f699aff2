import type { Figure, FiscalYearFigures, Fundamentals } from '@svc/schemas';
import { MoatScoringError } from '../errors.js';
import { type PartialCostLine, partialCostLine, partialCostLineFlag } from './cost-coverage.js';
import type { DataQualityFlag } from './data-quality.js';
import { isFinancialSic, isRegulatedUtility } from './industry.js';
import { ppeRollForward, rollForwardFlag, withImpliedCapex } from './ppe-roll-forward.js';
import type { YearValues } from './year-values.js';

export type { YearValues } from './year-values.js';

function finite(figure: Figure | null | undefined): number | null {
  return figure !== null && figure !== undefined && Number.isFinite(figure.value)
    ? figure.value
    : null;
}

/**
 * Flattens a `FiscalYearFigures` record; a non-finite value counts as not reported. Written as one
 * literal so that every flattened year shares one object shape (fast property reads).
 */
export function flattenYear(year: FiscalYearFigures): YearValues {
  return {
    fiscalYear: year.fiscalYear,
    periodStart: year.periodStart,
    periodEnd: year.periodEnd,
    revenue: finite(year.revenue),
    costOfRevenue: finite(year.costOfRevenue),
    grossProfit: finite(year.grossProfit),
    sellingGeneralAdministrative: finite(year.sellingGeneralAdministrative),
    researchDevelopment: finite(year.researchDevelopment),
    depreciationAmortization: finite(year.depreciationAmortization),
    operatingIncome: finite(year.operatingIncome),
    interestExpense: finite(year.interestExpense),
    pretaxIncome: finite(year.pretaxIncome),
    incomeTaxExpense: finite(year.incomeTaxExpense),
    netIncome: finite(year.netIncome),
    incomeFromContinuingOperations: finite(year.incomeFromContinuingOperations),
    dilutedEps: finite(year.dilutedEps),
    dilutedShares: finite(year.dilutedShares),
    operatingCashFlow: finite(year.operatingCashFlow),
    capitalExpenditure: finite(year.capitalExpenditure),
    dividendsPaid: finite(year.dividendsPaid),
    shareRepurchases: finite(year.shareRepurchases),
    cash: finite(year.cash),
    shortTermDebt: finite(year.shortTermDebt),
    longTermDebt: finite(year.longTermDebt),
    totalEquity: finite(year.totalEquity),
    retainedEarnings: finite(year.retainedEarnings),
    currentAssets: finite(year.currentAssets),
    currentLiabilities: finite(year.currentLiabilities),
    propertyPlantEquipmentNet: finite(year.propertyPlantEquipmentNet),
    goodwill: finite(year.goodwill),
    intangibleAssets: finite(year.intangibleAssets),
    sharesOutstanding: finite(year.sharesOutstanding),
    acquisitions: finite(year.acquisitions),
    shareBasedCompensation: finite(year.shareBasedCompensation),
    amortizationOfIntangibles: finite(year.amortizationOfIntangibles),
    unusualItems: finite(year.unusualItems),
  };
}

/** A yearly series: `values[i]` belongs to fiscal year `years[i]`, oldest first. */
export interface YearSeries {
  readonly years: number[];
  readonly values: number[];
}

/**
 * The fiscal years a criterion scores, plus what every criterion needs to know about the company.
 * Built once per evaluation by {@link buildScoringContext}.
 */
export interface ScoringContext {
  /** Records inside the window, oldest first, one per fiscal year label. */
  readonly years: readonly YearValues[];
  /** Fiscal years the window spans, gaps included (SPGI's missing year counts here). */
  readonly spanYears: number;
  /** Bank, thrift or insurer by SIC code (see `isFinancialSic`). */
  readonly financial: boolean;
  /**
   * Regulated utility by SIC code or sector (see `isRegulatedUtility`): return, leverage and
   * capital intensity are judged against what regulators allow. Optional so that hand-built
   * contexts need not set it (absent = not a utility).
   */
  readonly regulatedUtility?: boolean;
  /** ISO 4217 reporting currency, for display. */
  readonly currency: string;
  /** Per structural line: reported (non-null) in at least one year of the window. */
  readonly reported: Readonly<ReportedLines>;
  /** Series shared by several criteria, computed once per evaluation (see {@link memoSeries}). */
  readonly memo: Map<string, YearSeries>;
  /**
   * What the provenance of the window's cost of revenue says about its scope, for display:
   * `excludesDepreciation` when a cost line excludes D&A (KR, UBER: the gross margin is before
   * D&A); `companyWide` when cost of revenue was widened to total costs less SG&A because revenue
   * includes a finance arm (GM, F). Optional so that hand-built contexts need not set it.
   */
  readonly costScope?: Readonly<CostScope>;
  /**
   * What the provenance of the window's capital expenditure says about its scope, for display
   * (see {@link capexScopeOf}). Optional so that hand-built contexts need not set it.
   */
  readonly capexScope?: Readonly<CapexScope>;
  /**
   * Data-quality findings about the window's series (issue 39), e.g. a capex that cannot explain
   * PP&E growth. Optional so that hand-built contexts need not set it.
   */
  readonly dataQuality?: readonly DataQualityFlag[];
  /**
   * Years of the window whose capex was raised to the PP&E roll-forward's (see
   * `withImpliedCapex`), for display. Optional like `dataQuality`.
   */
  readonly impliedCapexYears?: number;
  /**
   * A cost of revenue that leaves out costs of earning the revenue (see `partialCostLine`):
   * gross margin is not applicable. Optional so that hand-built contexts need not set it.
   */
  readonly partialCostLine?: PartialCostLine | null;
}

/** Scope facts about the cost of revenue of a window (see `ScoringContext.costScope`). */
export interface CostScope {
  readonly excludesDepreciation: boolean;
  readonly companyWide: boolean;
}

/** Reads {@link CostScope} from the provenance of the cost-of-revenue figures of `years`. */
export function costScopeOf(years: readonly FiscalYearFigures[]): CostScope {
  let excludesDepreciation = false;
  let companyWide = false;
  for (const year of years) {
    const source = year.costOfRevenue?.source;
    if (!source) continue;
    if (/ExcludingDepreciation/.test(source.tag)) excludesDepreciation = true;
    if (source.tag === 'derived:costsAndExpenses-sellingGeneralAdministrative') companyWide = true;
  }
  return { excludesDepreciation, companyWide };
}

/**
 * Capex sources that are purchases of fixed assets and intangibles net of disposals, not gross
 * purchases: SimFin's only capex column, "Change in Fixed Assets & Intangibles" (research notes
 * `shared/research/fundamentals-data.md` §5: "≈ −capex, net of disposals"; the bulk cash-flow file
 * has no gross column). It can be far from gross capex either way: KO FY2019 2,054 − 978 M
 * disposals; DAL FY2019 1,592 M against 4,936 M (its flight equipment is not in the column); GM
 * above gross (its finance arm's lease vehicles).
 */
export const NET_OF_DISPOSALS_CAPEX_TAGS: readonly string[] = [
  'simfin:Change in Fixed Assets & Intangibles',
];

/** Scope facts about the capital expenditure of a window (see `ScoringContext.capexScope`). */
export interface CapexScope {
  /** Years of the window whose capex is net of disposals ({@link NET_OF_DISPOSALS_CAPEX_TAGS}). */
  readonly netOfDisposalsYears: number;
}

/** Reads {@link CapexScope} from the provenance of the capex figures of `years`. */
export function capexScopeOf(years: readonly FiscalYearFigures[]): CapexScope {
  let netOfDisposalsYears = 0;
  for (const year of years) {
    const tag = year.capitalExpenditure?.source.tag;
    if (tag !== undefined && NET_OF_DISPOSALS_CAPEX_TAGS.includes(tag)) netOfDisposalsYears += 1;
  }
  return { netOfDisposalsYears };
}

/**
 * Lines whose complete absence from the window is structural (no cost-of-revenue line, no
 * borrowings, no capex line, no buybacks, no goodwill…) rather than missing data; see
 * {@link orAbsent} and the "not applicable vs. missing" rule of the README.
 */
export type StructuralLine =
  | 'costOfRevenue'
  | 'grossProfit'
  | 'capitalExpenditure'
  | 'dividendsPaid'
  | 'shareRepurchases'
  | 'cash'
  | 'shortTermDebt'
  | 'longTermDebt'
  | 'propertyPlantEquipmentNet'
  | 'goodwill'
  | 'intangibleAssets';

/** Per structural line: whether the company reports it in at least one year of the window. */
export type ReportedLines = Record<StructuralLine, boolean>;

/** Minimum usable fiscal years below which an evaluation is refused. */
export const MIN_USABLE_YEARS = 3;

/**
 * A line whose absence is structural: `value` when reported; `0` when the company reports that
 * line in no year of the window (`reported` false: it has no such item — no goodwill, no
 * borrowings, no buybacks); `null` when the line exists in other years but is missing this year
 * (missing data, never filled).
 *
 * @example `orAbsent(year.goodwill, context.reported.goodwill)`
 */
export function orAbsent(value: number | null, reported: boolean): number | null {
  if (value !== null) return value;
  return reported ? null : 0;
}

/** Collects `pick(year)` over the window, skipping years where it is `null` or not finite. */
export function collect(
  context: ScoringContext,
  pick: (year: YearValues, index: number) => number | null,
): YearSeries {
  const years: number[] = [];
  const values: number[] = [];
  context.years.forEach((year, index) => {
    const v = pick(year, index);
    if (v !== null && Number.isFinite(v)) {
      years.push(year.fiscalYear);
      values.push(v);
    }
  });
  return { years, values };
}

/**
 * {@link collect} once per evaluation under `name` (gross margin, operating margin, revenue are
 * read by several criteria). Callers must not mutate the returned series.
 */
export function memoSeries(
  context: ScoringContext,
  name: string,
  pick: (year: YearValues, index: number) => number | null,
): YearSeries {
  let series = context.memo.get(name);
  if (series === undefined) {
    series = collect(context, pick);
    context.memo.set(name, series);
  }
  return series;
}

function isUsable(year: YearValues): boolean {
  return year.revenue !== null && year.netIncome !== null;
}

function sortedUnique(years: readonly YearValues[]): readonly YearValues[] {
  let ordered = true;
  for (let i = 1; i < years.length && ordered; i += 1) {
    ordered = (years[i] as YearValues).fiscalYear > (years[i - 1] as YearValues).fiscalYear;
  }
  if (ordered) return years;
  const byYear = new Map<number, YearValues>();
  for (const year of years) byYear.set(year.fiscalYear, year);
  return [...byYear.values()].sort((a, b) => a.fiscalYear - b.fiscalYear);
}

/**
 * Which structural lines the company reports in at least one year of the window. Spelled out
 * line by line (rather than looping over `METRIC_KEYS` with computed keys) because this runs on
 * every evaluation and computed-key reads were a visible share of the bench profile.
 */
function reportedLines(years: readonly YearValues[]): ReportedLines {
  const r: ReportedLines = {
    costOfRevenue: false,
    grossProfit: false,
    capitalExpenditure: false,
    dividendsPaid: false,
    shareRepurchases: false,
    cash: false,
    shortTermDebt: false,
    longTermDebt: false,
    propertyPlantEquipmentNet: false,
    goodwill: false,
    intangibleAssets: false,
  };
  for (const y of years) {
    if (y.costOfRevenue !== null) r.costOfRevenue = true;
    if (y.grossProfit !== null) r.grossProfit = true;
    if (y.capitalExpenditure !== null) r.capitalExpenditure = true;
    if (y.dividendsPaid !== null) r.dividendsPaid = true;
    if (y.shareRepurchases !== null) r.shareRepurchases = true;
    if (y.cash !== null) r.cash = true;
    if (y.shortTermDebt !== null) r.shortTermDebt = true;
    if (y.longTermDebt !== null) r.longTermDebt = true;
    if (y.propertyPlantEquipmentNet !== null) r.propertyPlantEquipmentNet = true;
    if (y.goodwill !== null) r.goodwill = true;
    if (y.intangibleAssets !== null) r.intangibleAssets = true;
  }
  return r;
}

/**
 * Selects the evaluation window: the `windowYears` fiscal years ending with the latest usable
 * year (a year with revenue and net income), keyed by the fiscal-year label (so a January year
 * end, labelled the year before, sorts correctly).
 *
 * @throws {@link MoatScoringError} `insufficient_data` when fewer than 3 usable years fall in the
 * window.
 */
export function buildScoringContext(
  fundamentals: Fundamentals,
  windowYears: number,
): ScoringContext {
  const all = sortedUnique(fundamentals.years.map(flattenYear));
  const usable = all.filter(isUsable);
  const last = usable[usable.length - 1];
  const start = last === undefined ? 0 : last.fiscalYear - windowYears + 1;
  const selected = all.filter(
    (y) => last !== undefined && y.fiscalYear >= start && y.fiscalYear <= last.fiscalYear,
  );
  const check = ppeRollForward(selected);
  const { years, raisedYears } = withImpliedCapex(selected, check);
  const usableInWindow = years.filter(isUsable).length;
  if (last === undefined || usableInWindow < MIN_USABLE_YEARS) {
    throw new MoatScoringError(
      'insufficient_data',
      `${fundamentals.company.ticker}: ${usableInWindow} usable fiscal year(s) with revenue and net income; at least ${MIN_USABLE_YEARS} are needed`,
    );
  }
  const first = years[0] as YearValues;
  const partialCost = partialCostLine(years);
  const inWindow = fundamentals.years.filter(
    (y) => y.fiscalYear >= first.fiscalYear && y.fiscalYear <= last.fiscalYear,
  );
  return {
    years,
    costScope: costScopeOf(inWindow),
    capexScope: capexScopeOf(inWindow),
    spanYears: last.fiscalYear - first.fiscalYear + 1,
    financial: isFinancialSic(fundamentals.company.sicCode),
    regulatedUtility: isRegulatedUtility(fundamentals.company),
    currency: fundamentals.company.currency,
    reported: reportedLines(years),
    memo: new Map(),
    dataQuality: [
      ...(check.flagged ? [rollForwardFlag(check, raisedYears)] : []),
      ...(partialCost === null ? [] : [partialCostLineFlag(partialCost)]),
    ],
    impliedCapexYears: raisedYears,
    partialCostLine: partialCost,
  };
}
