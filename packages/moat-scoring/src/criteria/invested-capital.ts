import { orAbsent, type ScoringContext, type YearValues } from '../core/scoring-context.js';

/**
 * Financing-approach invested capital at a balance-sheet date: short-term debt + long-term debt
 * + total equity − cash (discountingcashflows.com ROIC; McKinsey). Requires equity; a debt or
 * cash line the company never reports in the window counts as none. `null` when data is missing.
 */
export function financingCapital(context: ScoringContext, year: YearValues): number | null {
  const equity = year.totalEquity;
  const shortDebt = orAbsent(year.shortTermDebt, context.reported.shortTermDebt);
  const longDebt = orAbsent(year.longTermDebt, context.reported.longTermDebt);
  const cash = orAbsent(year.cash, context.reported.cash);
  if (equity === null || shortDebt === null || longDebt === null || cash === null) return null;
  return shortDebt + longDebt + equity - cash;
}

/**
 * Operating-approach invested capital (Greenblatt / McKinsey): (current assets − cash) −
 * (current liabilities − short-term debt) + net PP&E + goodwill + other intangibles. Requires
 * current assets and liabilities; lines never reported in the window count as none.
 */
export function operatingCapital(context: ScoringContext, year: YearValues): number | null {
  const currentAssets = year.currentAssets;
  const currentLiabilities = year.currentLiabilities;
  const parts = [
    orAbsent(year.cash, context.reported.cash),
    orAbsent(year.shortTermDebt, context.reported.shortTermDebt),
    orAbsent(year.propertyPlantEquipmentNet, context.reported.propertyPlantEquipmentNet),
    orAbsent(year.goodwill, context.reported.goodwill),
    orAbsent(year.intangibleAssets, context.reported.intangibleAssets),
  ];
  if (currentAssets === null || currentLiabilities === null) return null;
  const [cash, shortDebt, ppe, goodwill, intangibles] = parts;
  if (cash == null || shortDebt == null || ppe == null || goodwill == null || intangibles == null) {
    return null;
  }
  return currentAssets - cash - (currentLiabilities - shortDebt) + ppe + goodwill + intangibles;
}

/** Mean of the opening and closing capital when the previous fiscal year is present, else closing. */
export function averageCapital(
  closing: number | null,
  opening: number | null,
  consecutive: boolean,
): number | null {
  if (closing === null) return null;
  if (opening === null || !consecutive) return closing;
  return (closing + opening) / 2;
}

/** Which invested capital a year's ROIC used, or why it has none. */
export type CapitalBasis = 'financing' | 'operating' | 'negative' | 'missing';

/** The invested capital chosen for one year. */
export interface ChosenCapital {
  readonly capital: number | null;
  readonly basis: CapitalBasis;
}

/** Financing capital below this share of revenue is too small to be meaningful (methodology §4.5). */
export const MIN_CAPITAL_TO_REVENUE = 0.1;

/**
 * A total debt (short + long) moving by this factor or more between two consecutive reported
 * years is a change of what the debt lines measure, not of the debt (Ford: 154,287 M including
 * Ford Credit at 2017-12-31, then a stray 600 M line at 2018-12-31). Judgement: a real
 * deleveraging of 90% in one year is rare enough to be checked by hand.
 */
export const DEBT_SCOPE_BREAK = 10;

/**
 * Why the debt series changes scope within the window, or `null` when it keeps one: a
 * year-over-year move by {@link DEBT_SCOPE_BREAK}× or more, or debt lines reported in some years
 * and missing in others.
 */
export function debtScopeBreak(context: ScoringContext): string | null {
  let previous: { year: number; debt: number | null } | undefined;
  let missing = 0;
  let present = 0;
  for (const year of context.years) {
    const shortDebt = orAbsent(year.shortTermDebt, context.reported.shortTermDebt);
    const longDebt = orAbsent(year.longTermDebt, context.reported.longTermDebt);
    const debt = shortDebt === null || longDebt === null ? null : shortDebt + longDebt;
    if (debt === null) missing += 1;
    else present += 1;
    if (previous?.debt != null && debt !== null && previous.debt > 0 && debt > 0) {
      const move = Math.max(debt / previous.debt, previous.debt / debt);
      if (move >= DEBT_SCOPE_BREAK) {
        return `debt moves ${move.toFixed(0)}× between FY${previous.year} and FY${year.fiscalYear}`;
      }
    }
    previous = { year: year.fiscalYear, debt };
  }
  return missing > 0 && present > 0 ? `debt lines missing in ${missing} of the years` : null;
}

/** The invested-capital approach used for every year of a window. */
export interface CapitalPlan {
  /** `financing`/`operating` for every year, or `mixed` (per year) when neither covers them all. */
  readonly basis: 'financing' | 'operating' | 'mixed';
  /** Why the financing approach was not used throughout, or `null`. */
  readonly reason: string | null;
}

function financingUsable(context: ScoringContext, index: number): boolean {
  const year = context.years[index] as YearValues;
  const financing = averageFinancing(context, index);
  const revenue = year.revenue;
  const minimum = revenue !== null && revenue > 0 ? MIN_CAPITAL_TO_REVENUE * revenue : 0;
  return financing !== null && financing > 0 && financing >= minimum;
}

function averageOf(
  context: ScoringContext,
  index: number,
  f: (context: ScoringContext, year: YearValues) => number | null,
): number | null {
  const year = context.years[index] as YearValues;
  const previous = index > 0 ? context.years[index - 1] : undefined;
  const consecutive = previous !== undefined && previous.fiscalYear === year.fiscalYear - 1;
  return averageCapital(
    f(context, year),
    previous === undefined ? null : f(context, previous),
    consecutive,
  );
}

const averageFinancing = (context: ScoringContext, index: number) =>
  averageOf(context, index, financingCapital);
const averageOperating = (context: ScoringContext, index: number) =>
  averageOf(context, index, operatingCapital);

/**
 * One invested-capital approach for the whole window, so that the ROIC series keeps one scope
 * (methodology §4.5 asks the same of leases): the financing approach when it is usable (positive,
 * at least 10% of revenue) in every year scored (`scored(index)`) and the debt series keeps one
 * scope ({@link debtScopeBreak}); otherwise the operating approach in every year when the
 * operating capital is available in every year scored; otherwise `mixed`, per year as
 * {@link chooseCapital} picks.
 */
export function planCapital(
  context: ScoringContext,
  scored: (index: number) => boolean,
): CapitalPlan {
  const indexes = context.years.map((_, i) => i).filter(scored);
  const debtBreak = debtScopeBreak(context);
  const unusable = indexes.filter((i) => !financingUsable(context, i));
  if (debtBreak === null && unusable.length === 0) return { basis: 'financing', reason: null };
  const reason =
    debtBreak ??
    `financing capital ≤ 0 or under ${MIN_CAPITAL_TO_REVENUE * 100}% of revenue in ${unusable.length} yrs`;
  if (indexes.every((i) => averageOperating(context, i) !== null)) {
    return { basis: 'operating', reason };
  }
  return { basis: 'mixed', reason };
}

/**
 * The capital of year `index` on the plan's approach (`mixed`: {@link chooseCapital}); capital
 * ≤ 0 on that approach is `negative` (N/M), data missing is `missing`.
 */
export function capitalOnPlan(
  context: ScoringContext,
  index: number,
  plan: CapitalPlan,
): ChosenCapital {
  if (plan.basis === 'mixed') return chooseCapital(context, index);
  const capital =
    plan.basis === 'financing'
      ? averageFinancing(context, index)
      : averageOperating(context, index);
  if (capital === null) return { capital: null, basis: 'missing' };
  // Capital ≤ 0 on the window's approach is "not meaningful" (McKinsey N/M), its own status and
  // never missing data: a business funded by its customers (deferred revenue, payables) earns
  // on no capital of its own (issue 39: VEEV's operating capital is negative while its small
  // financing capital is no evidence of the capital its operations use).
  if (capital <= 0) return { capital: null, basis: 'negative' };
  return { capital, basis: plan.basis };
}

/**
 * Picks the invested capital of year `index` (methodology §4.5): the average financing capital
 * when positive and at least 10% of revenue; otherwise the average operating capital when
 * positive; otherwise a positive financing capital even if small; otherwise `negative` (an
 * approach measured it ≤ 0 and none positive: ROIC is "N/M", McKinsey) or `missing` (neither
 * approach has the data).
 */
export function chooseCapital(context: ScoringContext, index: number): ChosenCapital {
  const year = context.years[index] as YearValues;
  const previous = index > 0 ? context.years[index - 1] : undefined;
  const consecutive = previous !== undefined && previous.fiscalYear === year.fiscalYear - 1;
  const opening = (f: typeof financingCapital) =>
    previous === undefined ? null : f(context, previous);
  const financing = averageCapital(
    financingCapital(context, year),
    opening(financingCapital),
    consecutive,
  );
  const revenue = year.revenue;
  const minimum = revenue !== null && revenue > 0 ? MIN_CAPITAL_TO_REVENUE * revenue : 0;
  if (financing !== null && financing > 0 && financing >= minimum) {
    return { capital: financing, basis: 'financing' };
  }
  const operating = averageCapital(
    operatingCapital(context, year),
    opening(operatingCapital),
    consecutive,
  );
  if (operating !== null && operating > 0) return { capital: operating, basis: 'operating' };
  if (financing !== null && financing > 0) return { capital: financing, basis: 'financing' };
  // No positive capital: N/M when an approach measured it ≤ 0, missing when none could.
  const measured = financing !== null || operating !== null;
  return { capital: null, basis: measured ? 'negative' : 'missing' };
}
