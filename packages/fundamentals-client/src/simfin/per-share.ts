import type { Figure } from '@svc/schemas';
import type { SimfinRow } from './columns.js';
import type { ShareAdjustment } from './share-basis.js';

/** SimFin's share basis date and the splits one year's shares lack. */
export interface ShareBasis {
  readonly date: string | null;
  readonly adjustment: ShareAdjustment | undefined;
}

/** SimFin's "Net Extraordinary Gains (Losses)": discontinued operations and extraordinary items. */
export function extraordinary(row: SimfinRow<'income'>): number {
  const value = row.values['Net Extraordinary Gains (Losses)'];
  return value === null || value === undefined ? 0 : value;
}

/**
 * Diluted EPS of continuing operations (the snapshot reads continuing-operations EPS first):
 * (Net Income (Common) − Net Extraordinary Gains (Losses)) ÷ (Shares (Diluted) × the factor of
 * the splits those shares lack). `filed` = the basis the EPS is now on ({@link basisOf}).
 */
export function dilutedEps(row: SimfinRow<'income'>, basis: ShareBasis): Figure | undefined {
  const common = row.values['Net Income (Common)'];
  const income = common === null || common === undefined ? common : common - extraordinary(row);
  const shares = row.values['Shares (Diluted)'];
  if (income === null || income === undefined || !shares || shares <= 0) return undefined;
  const factor = basis.adjustment?.factor ?? 1;
  const value = income / (shares * factor);
  if (!Number.isFinite(value)) return undefined;
  const filed = basisOf(basis);
  return {
    value,
    source: {
      tag: 'derived:simfin:Net Income (Common)/simfin:Shares (Diluted)',
      form: null,
      accession: null,
      filed,
      derived: true,
      note: `Net Income (Common) less extraordinary items and discontinued operations = ${income}; Shares (Diluted) = ${shares} (SimFin, published ${row.publishDate ?? 'unknown'})${splitNote(basis, 'EPS ÷')}; ${filed ? `filed = ${filed}, the day of the share basis` : 'share basis date unknown'}`,
    },
  };
}

/**
 * The day whose share basis a year's adjusted shares and EPS are on: the latest of SimFin's
 * share basis date and the splits applied here (null when neither is known).
 */
function basisOf(basis: ShareBasis): string | null {
  const dates = (basis.adjustment?.applied ?? []).map((a) => a.split.date);
  if (basis.date) dates.push(basis.date);
  return dates.sort().at(-1) ?? null;
}

/** "; split-adjusted here (EPS ÷4): 4:1 of 2021-07-20 (why)", or "" when no split applies. */
function splitNote(basis: ShareBasis, what: string): string {
  const a = basis.adjustment;
  if (!a || a.applied.length === 0) return '';
  const list = a.applied.map((x) => `${x.split.ratio}:1 of ${x.split.date} (${x.why})`).join(', ');
  return `; split-adjusted here (${what}${a.factor}): ${list}`;
}

/** SimFin's diluted share count moved to the latest basis, like the EPS; unchanged if none. */
export function adjustedShares(figure: Figure, basis: ShareBasis): Figure {
  const factor = basis.adjustment?.factor ?? 1;
  if (factor === 1) return figure;
  return {
    value: figure.value * factor,
    source: {
      ...figure.source,
      filed: basisOf(basis),
      derived: true,
      note: `Shares (Diluted) = ${figure.value} (SimFin)${splitNote(basis, 'shares ×')}`,
    },
  };
}
