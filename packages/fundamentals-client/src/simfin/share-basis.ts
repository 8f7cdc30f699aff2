import type { SimfinRow } from './columns.js';

/**
 * A known stock split, as a caller passes it (structurally the `StockSplit` of
 * `@svc/market-data`, whose `KNOWN_SPLITS` is the usual source).
 */
export interface KnownSplit {
  /** The ticker the split belongs to (matched after upper-casing). */
  readonly symbol: string;
  /** First trading day on the new share basis (the ex-date), `YYYY-MM-DD`. */
  readonly date: string;
  /** New shares per old share: 4 for a 4-for-1 split, 1.5 for 3-for-2. */
  readonly ratio: number;
}

/** A split applied to one SimFin row's shares, and why. */
export interface AppliedSplit {
  readonly split: KnownSplit;
  readonly why: string;
}

/** What puts one SimFin income row's shares on the latest basis. */
export interface ShareAdjustment {
  /** Product of the applied ratios: shares × factor, EPS ÷ factor. 1 when none applies. */
  readonly factor: number;
  readonly applied: readonly AppliedSplit[];
}

const NONE: ShareAdjustment = { factor: 1, applied: [] };

/** The day a row's share counts were last put on a basis: Restated Date, else Publish Date. */
const rowBasisDate = (row: SimfinRow): string => row.restatedDate ?? row.publishDate ?? '';

/**
 * Which known splits each SimFin income row's shares still lack, keyed by Report Date.
 *
 * A split is a candidate for a row when it is dated after the row's own basis date
 * ({@link rowBasisDate}). It is applied:
 * - always when it is dated after `downloadBasisDate`, the day SimFin built the download: SimFin
 *   cannot have restated for it (NVDA's 4:1 of 2021-07-20 and 10:1 of 2024-06-10 in the
 *   2021-04 download);
 * - otherwise only when the shares show it is missing: the next fiscal year's diluted share count
 *   on the new basis exceeds this row's by more than √ratio (the geometric midpoint between "not
 *   split" and "split"). The research notes' rule (moat-methodology.md §6, stock splits: "detect
 *   un-adjusted data by a share count ×2/×3/×4"), checked against a split known to have happened.
 *   The date alone is not enough: SimFin restated some rows whose Restated Date precedes the
 *   split (AAPL FY2008–FY2011 for the 7:1 of 2014 and FY2000–FY2019 for the 4:1 of 2020; CL
 *   FY2008–FY2010 for the 2:1 of 2013; MNST FY2009–FY2015 for the 3:1 of 2016) and not others
 *   (KR FY2008–FY2012: 537 M shares in FY2012 against 1,040 M in FY2013 after the 2:1 of 2015;
 *   MA FY2008–FY2010: 131 M against 1,284 M after the 10:1 of 2014). Without a next year on the
 *   new basis there is no evidence, and SimFin's share basis is trusted.
 *
 * When `downloadBasisDate` is null, every split needs that evidence. Rows are compared in period
 * order; a row without a share count is skipped (the comparison goes to the next one).
 *
 * @param rows - one company's income rows, one per fiscal year.
 * @param splits - that company's known splits (other symbols must already be filtered out).
 */
export function shareAdjustments(
  rows: readonly SimfinRow<'income'>[],
  splits: readonly KnownSplit[],
  downloadBasisDate: string | null,
): Map<string, ShareAdjustment> {
  const ordered = [...rows]
    .filter((r) => (r.values['Shares (Diluted)'] ?? 0) > 0)
    .sort((a, b) => (a.reportDate < b.reportDate ? 1 : -1)); // newest first
  const applied = new Map<string, AppliedSplit[]>();
  for (const split of splits) {
    if (!(split.ratio > 0) || split.ratio === 1) continue;
    let next: number | undefined; // the following year's shares on the split's new basis
    for (const row of ordered) {
      const shares = row.values['Shares (Diluted)'] as number;
      const why =
        rowBasisDate(row) < split.date ? lacking(split, shares, next, downloadBasisDate) : null;
      if (why !== null) {
        applied.set(row.reportDate, [...(applied.get(row.reportDate) ?? []), { split, why }]);
      }
      next = why === null ? shares : shares * split.ratio;
    }
  }
  const out = new Map<string, ShareAdjustment>();
  for (const row of rows) {
    const list = applied.get(row.reportDate);
    if (!list) {
      out.set(row.reportDate, NONE);
      continue;
    }
    const sorted = list.sort((a, b) => (a.split.date < b.split.date ? -1 : 1));
    out.set(row.reportDate, {
      factor: sorted.reduce((f, a) => f * a.split.ratio, 1),
      applied: sorted,
    });
  }
  return out;
}

/** Why a row's `shares` lack `split`, or null when they include it (or nothing tells). */
function lacking(
  split: KnownSplit,
  shares: number,
  next: number | undefined,
  downloadBasisDate: string | null,
): string | null {
  if (downloadBasisDate !== null && split.date > downloadBasisDate) {
    return `dated after SimFin's share basis of ${downloadBasisDate}`;
  }
  if (next === undefined) return null;
  const jump = next / shares;
  const threshold = Math.sqrt(split.ratio);
  const lacks = split.ratio > 1 ? jump > threshold : jump < threshold;
  return lacks
    ? `not restated by SimFin: this year's diluted shares ${shares}, the next year's ${next}`
    : null;
}
