import { describe, expect, it } from 'vitest';
import { KNOWN_SPLITS, splitFactor } from './splits.js';

const nvda = KNOWN_SPLITS.filter((s) => s.symbol === 'NVDA');

describe('splitFactor', () => {
  it.each([
    ['2021-07-19', '2024-03-08', 4], // the 4:1 of 2021-07-20 only
    ['2021-07-20', '2024-03-08', 1], // the split day itself is already on the new basis
    ['2024-06-07', '2024-06-10', 10],
    ['2006-04-06', '2024-06-10', 2 * 1.5 * 4 * 10],
    ['2024-06-10', '2021-01-01', 1], // to ≤ from
  ])('NVDA from %s to %s = %d', (from, to, expected) => {
    expect(splitFactor(nvda, from, to)).toBeCloseTo(expected, 10);
  });

  it('has no duplicate entries and only ratios above 1', () => {
    const keys = KNOWN_SPLITS.map((s) => `${s.symbol} ${s.date}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(KNOWN_SPLITS.every((s) => s.ratio > 1)).toBe(true);
  });
});
