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
 * Picks the invested capital of year `index` (methodology §4.5): the average financing capital
 * when positive and at least 10% of revenue; otherwise the average operating capital when
 * positive; otherwise a positive financing capital even if small; otherwise `negative` (both
 * approaches ≤ 0: ROIC is "N/M", McKinsey) or `missing`.
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
  const bothNegative = financing !== null && financing <= 0 && operating !== null && operating <= 0;
  return { capital: null, basis: bothNegative ? 'negative' : 'missing' };
}
