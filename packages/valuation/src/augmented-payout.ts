import type { FiscalYearFigures } from '@svc/schemas';

/** Which cash returns an augmented payout ratio counts. */
export type PayoutComponents = 'dividends+buybacks' | 'dividends-only' | 'buybacks-only';

/** Result of {@link augmentedPayout}. */
export type AugmentedPayout =
  | {
      readonly ok: true;
      /** (dividends + buybacks) / net income × 100, in PERCENT. */
      readonly percent: number;
      readonly components: PayoutComponents;
      /** Set when one component was not reported: the ratio is then a lower bound. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * Augmented (cash-return) payout ratio of one fiscal year, in percent:
 * `(dividends paid + share repurchases) / net income × 100` (Damodaran's cash return payout,
 * methodology §1.4 and §5; outflows are positive amounts in `Fundamentals`).
 *
 * - Net income missing or `≤ 0`: not meaningful.
 * - Both components missing: not computed.
 * - One component missing: computed from the reported one and flagged as a lower bound in `note`;
 *   the missing component is never silently taken as 0.
 */
export function augmentedPayout(year: FiscalYearFigures): AugmentedPayout {
  const fy = `FY${year.fiscalYear}`;
  const netIncome = year.netIncome?.value;
  if (netIncome === undefined) {
    return { ok: false, reason: `no net income for ${fy}: augmented payout not computed` };
  }
  if (netIncome <= 0) {
    return { ok: false, reason: `loss year ${fy}: augmented payout not meaningful` };
  }
  const dividends = year.dividendsPaid?.value;
  const buybacks = year.shareRepurchases?.value;
  if (dividends === undefined && buybacks === undefined) {
    return {
      ok: false,
      reason: `neither dividends paid nor share repurchases reported for ${fy}: augmented payout not computed`,
    };
  }
  const percent = (((dividends ?? 0) + (buybacks ?? 0)) / netIncome) * 100;
  if (!Number.isFinite(percent)) {
    return { ok: false, reason: `augmented payout for ${fy} is not finite` };
  }
  if (dividends === undefined) {
    return {
      ok: true,
      percent,
      components: 'buybacks-only',
      note: `dividends paid not reported for ${fy}: augmented payout counts buybacks only (a lower bound)`,
    };
  }
  if (buybacks === undefined) {
    return {
      ok: true,
      percent,
      components: 'dividends-only',
      note: `share repurchases not reported for ${fy}: augmented payout counts dividends only (a lower bound)`,
    };
  }
  return { ok: true, percent, components: 'dividends+buybacks' };
}
