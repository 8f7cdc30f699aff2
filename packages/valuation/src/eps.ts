import type { FiscalYearFigures } from '@svc/schemas';

/** A per-share earnings figure of one fiscal year and whether it was derived. */
export interface EpsPoint {
  readonly fiscalYear: number;
  /** Diluted EPS, reporting currency per share, signed. */
  readonly value: number;
  /**
   * `true` when computed rather than reported: here as net income / diluted shares because the year
   * has no diluted EPS, or by the provider (its provenance says `derived: true`, e.g. the
   * companyfacts parser's `derived:netIncome/dilutedShares` for a filer that tags no EPS).
   */
  readonly derived: boolean;
}

/**
 * Diluted EPS of one fiscal year: the reported figure, else net income / weighted diluted shares
 * (the fallback of the luluventures SEC metrics guide, methodology §2; Visa reports no diluted
 * EPS). `null` when neither is available.
 */
export function epsOfYear(year: FiscalYearFigures): EpsPoint | null {
  if (year.dilutedEps !== null) {
    const derived = year.dilutedEps.source.derived;
    return { fiscalYear: year.fiscalYear, value: year.dilutedEps.value, derived };
  }
  const netIncome = year.netIncome?.value;
  const shares = year.dilutedShares?.value;
  if (netIncome === undefined || shares === undefined || shares <= 0) return null;
  const value = netIncome / shares;
  return Number.isFinite(value) ? { fiscalYear: year.fiscalYear, value, derived: true } : null;
}

/** The fiscal years sorted by `fiscalYear`, oldest first (the schema asks for it; we make sure). */
export function sortedYears(years: readonly FiscalYearFigures[]): FiscalYearFigures[] {
  return [...years].sort((a, b) => a.fiscalYear - b.fiscalYear);
}

/**
 * Relative gap between reported diluted EPS and net income / diluted shares, as a fraction, or
 * `null` when either side is missing. A large gap hints at a share-basis (split) mismatch.
 */
export function epsConsistencyGap(year: FiscalYearFigures): number | null {
  const eps = year.dilutedEps?.value;
  const netIncome = year.netIncome?.value;
  const shares = year.dilutedShares?.value;
  if (eps === undefined || netIncome === undefined || shares === undefined) return null;
  if (eps === 0 || shares <= 0) return null;
  const gap = Math.abs(netIncome / shares - eps) / Math.abs(eps);
  return Number.isFinite(gap) ? gap : null;
}
