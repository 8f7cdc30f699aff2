import { readCell } from './cells.js';
import { fold, hasWord } from './fold.js';
import { HEADER_WORDS, NOT_A_VALUE } from './header-words.js';
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
 * on the most rows where all three are filled (a factor of 1 tells nothing), at least two rows (or
 * the one row a one-row export has) and half of them. The quantity is told from the price by their
 * headers, then by which of the two is more often whole; headers decide the rest.
 */
export function productFit(profiles: readonly ColumnProfile[]): ProductFit | undefined {
  const numeric = profiles.filter(
    (p) =>
      p.numbers >= 0.95 &&
      p.dates < 0.9 && // compact dates (20230803) read as numbers too
      p.cells.length > 0 &&
      !NOT_A_VALUE.some((w) => hasWord(fold(p.name), w)),
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
        const [quantity, price] = quantityLike(x) >= quantityLike(y) ? [x, y] : [y, x];
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
    // 1 × a = a tells nothing (running numbers, a copy of the amount)
    if (x === 1 || y === 1) return;
    filled++;
    if (Math.abs(x * y - a) / a <= TOLERANCE) fits++;
  });
  // a single trade row is judged by itself (a one-row export), more need two fits
  const needed = Math.min(2, filled);
  return filled >= 1 && fits >= needed && fits / filled >= 0.5 ? fits / filled : undefined;
}

/** How much a column looks like the quantity rather than the price: its header, then whole values. */
function quantityLike(p: ColumnProfile): number {
  const folded = fold(p.name);
  const named = (field: 'quantity' | 'price') =>
    HEADER_WORDS[field].some(([word, weight]) => weight >= 3 && hasWord(folded, word));
  return (named('quantity') ? 2 : 0) - (named('price') ? 2 : 0) + wholeShare(p);
}

function wholeShare(p: ColumnProfile): number {
  const cells = p.cells;
  return cells.length === 0
    ? 0
    : cells.filter((c) => /^-?\d+$/.test(c.trim())).length / cells.length;
}
