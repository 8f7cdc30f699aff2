import type { DataQualityFlag } from './data-quality.js';
import type { YearValues } from './year-values.js';

/** Years whose PP&E grew by more than their capex, at least this many… (judgement). */
export const UNEXPLAINED_MIN_YEARS = 3;
/** …and at least this share of the year pairs checked (judgement)… */
export const UNEXPLAINED_MIN_SHARE = 1 / 3;
/** …and growth beyond capex summing to at least this share of Σ capex (judgement). */
export const UNEXPLAINED_MIN_EXCESS = 0.25;

/** What the PP&E roll-forward check found over a window (see {@link ppeRollForward}). */
export interface PpeRollForward {
  /** Consecutive year pairs with PP&E at both ends and capex in the later year. */
  readonly pairs: number;
  /** Fiscal years whose net PP&E grew by more than that year's capex. */
  readonly unexplainedYears: readonly number[];
  /** Σ (ΔPP&E − capex) over those years, currency units. */
  readonly excess: number;
  /** Σ capex over the pairs checked, currency units. */
  readonly capex: number;
  /** Whether the capex series cannot explain PP&E growth (the thresholds above all met). */
  readonly flagged: boolean;
}

/**
 * The PP&E roll-forward check (issue 39): net PP&E at the end of a year ≈ at the start + capex −
 * depreciation − disposals ± acquisitions, so without an acquisition PP&E cannot grow by more
 * than the year's capex even before depreciation. A year where it does is unexplained; a capex
 * series with unexplained years in at least 3 and a third of the year pairs, whose growth beyond
 * capex sums to a quarter of Σ capex or more, leaves out an asset class (SimFin's capex for DAL
 * omits flight equipment: FY2019 1,592 M against 4,936 M in the 10-K, while PP&E grew 2,975 M) and
 * is flagged. A single acquisition year is not enough to flag. Pure; years in window order.
 */
export function ppeRollForward(years: readonly YearValues[]): PpeRollForward {
  let pairs = 0;
  let excess = 0;
  let capex = 0;
  const unexplainedYears: number[] = [];
  for (let i = 1; i < years.length; i += 1) {
    const before = years[i - 1] as YearValues;
    const year = years[i] as YearValues;
    if (year.fiscalYear !== before.fiscalYear + 1) continue;
    const start = before.propertyPlantEquipmentNet;
    const end = year.propertyPlantEquipmentNet;
    const spent = year.capitalExpenditure;
    if (start === null || end === null || spent === null) continue;
    pairs += 1;
    capex += Math.abs(spent);
    const growth = end - start;
    if (growth > Math.abs(spent)) {
      unexplainedYears.push(year.fiscalYear);
      excess += growth - Math.abs(spent);
    }
  }
  const flagged =
    unexplainedYears.length >= UNEXPLAINED_MIN_YEARS &&
    unexplainedYears.length >= UNEXPLAINED_MIN_SHARE * pairs &&
    capex > 0 &&
    excess >= UNEXPLAINED_MIN_EXCESS * capex;
  return { pairs, unexplainedYears, excess, capex, flagged };
}

/**
 * The capex a flagged window is scored on: per year the larger of the reported capex and the
 * least capex the roll-forward proves, the growth of net PP&E itself (depreciation and disposals
 * only lower PP&E, so buying less than ΔPP&E cannot explain it; D&A is not added because it holds
 * the amortisation of intangibles too, which would overstate the capex of an acquirer). So a
 * criterion never earns points from capex the provider left out, and never loses points to a
 * guess. Years without PP&E at both ends keep the reported figure. Returns `years` itself when
 * the check did not flag the window.
 */
export function withImpliedCapex(
  years: readonly YearValues[],
  check: PpeRollForward,
): { readonly years: readonly YearValues[]; readonly raisedYears: number } {
  if (!check.flagged) return { years, raisedYears: 0 };
  let raisedYears = 0;
  const out = years.map((year, i) => {
    const before = years[i - 1];
    const spent = year.capitalExpenditure;
    if (
      before === undefined ||
      before.fiscalYear !== year.fiscalYear - 1 ||
      spent === null ||
      before.propertyPlantEquipmentNet === null ||
      year.propertyPlantEquipmentNet === null
    ) {
      return year;
    }
    const implied = year.propertyPlantEquipmentNet - before.propertyPlantEquipmentNet;
    if (implied <= Math.abs(spent)) return year;
    raisedYears += 1;
    return { ...year, capitalExpenditure: implied };
  });
  return { years: out, raisedYears };
}

/** The data-quality flag of a flagged check (series `capitalExpenditure`). */
export function rollForwardFlag(check: PpeRollForward, raisedYears: number): DataQualityFlag {
  const share = Math.round((100 * check.excess) / check.capex);
  return {
    code: 'capex_below_ppe_growth',
    series: 'capitalExpenditure',
    message: `net PP&E grew by more than the reported capex in ${check.unexplainedYears.length} of ${check.pairs} years (FY${check.unexplainedYears.join(', FY')}), by ${share}% of the capex in all: the capex leaves out an asset class; ${raisedYears} year(s) scored on the PP&E growth instead (the least capex that explains it)`,
  };
}
