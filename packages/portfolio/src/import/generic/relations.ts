import { readCell } from './cells.js';
import { fold, hasWord } from './fold.js';
import { NOT_A_VALUE } from './header-words.js';
import type { ColumnProfile } from './profile.js';

/** Three number columns where quantity × price ≈ amount, and on what share of the rows. */
export interface ProductFit {
  readonly quantity: number;
  readonly price: number;
  readonly amount: number;
  readonly share: number;
}

const TOLERANCE = 0.03;

function numbersOf(p: ColumnProfile, rows: number): (number | undefined)[] {
  return Array.from({ length: rows }, (_, i) => {
    const cell = p.rowCells[i] ?? '';
    const value = cell === '' ? undefined : readCell(cell, p.decimal ?? '.');
    return value === undefined ? undefined : Math.abs(Number(value));
  });
}

/**
 * Finds the number columns (q, p, a) for which |q × p| is within 3% of |a| (fees and rounding)
 * on the most rows where all three are filled, at least two rows and half of them. The quantity is
 * told from the price by which of the two is more often whole; headers decide the rest.
 */
export function productFit(profiles: readonly ColumnProfile[]): ProductFit | undefined {
  const numeric = profiles.filter(
    (p) =>
      p.numbers >= 0.95 && p.cells.length > 0 && !NOT_A_VALUE.some((w) => hasWord(fold(p.name), w)),
  );
  const rows = Math.max(0, ...numeric.map((p) => p.rowCells.length));
  const values = new Map(numeric.map((p) => [p.index, numbersOf(p, rows)]));
  let best: ProductFit | undefined;
  for (const a of numeric) {
    for (const x of numeric) {
      for (const y of numeric) {
        if (x.index >= y.index || a.index === x.index || a.index === y.index) continue;
        const share = fitShare(values.get(x.index), values.get(y.index), values.get(a.index));
        if (share === undefined || (best && share <= best.share)) continue;
        const [quantity, price] = wholeShare(x) >= wholeShare(y) ? [x, y] : [y, x];
        best = { quantity: quantity.index, price: price.index, amount: a.index, share };
      }
    }
  }
  return best;
}

function fitShare(
  xs: readonly (number | undefined)[] = [],
  ys: readonly (number | undefined)[] = [],
  as: readonly (number | undefined)[] = [],
): number | undefined {
  let filled = 0;
  let fits = 0;
  xs.forEach((x, i) => {
    const y = ys[i];
    const a = as[i];
    if (x === undefined || y === undefined || a === undefined || a === 0 || x * y === 0) return;
    filled++;
    if (Math.abs(x * y - a) / a <= TOLERANCE) fits++;
  });
  return filled >= 2 && fits >= 2 && fits / filled >= 0.5 ? fits / filled : undefined;
}

function wholeShare(p: ColumnProfile): number {
  const cells = p.cells;
  return cells.length === 0
    ? 0
    : cells.filter((c) => /^-?\d+$/.test(c.trim())).length / cells.length;
}
