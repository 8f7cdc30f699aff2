import { describe, expect, it } from 'vitest';
import {
  cleanSplitRatio,
  filedBeforeSplit,
  formatRatio,
  type SplitEvent,
  splitFactorSince,
} from './stock-splits.js';

describe('cleanSplitRatio', () => {
  it.each([
    [4, 4],
    [3.99, 4],
    [10.03, 10], // MA FY2012 weighted shares restated ×10.03
    [1.5, 1.5],
    [1.25, 1.25],
    [0.1, 0.1], // 1-for-10 reverse split
    [1, null],
    [1.1, null],
    [1000, null], // a scale error, not a split
    [Number.NaN, null],
    [-4, null],
  ])('%f → %s', (ratio, expected) => {
    expect(cleanSplitRatio(ratio)).toBe(expected);
  });
});

describe('split timing', () => {
  const split: SplitEvent = {
    ratio: 4,
    lastPreSplitFiled: '2019-10-31',
    firstPostSplitFiled: '2020-10-30',
    tagDate: '2020-08-28',
    evidence: '',
  };
  it.each([
    ['2018-11-05', true],
    ['2019-10-31', true],
    ['2020-07-30', true], // a 10-Q before the tagged split date
    ['2020-08-28', false],
    ['2020-10-30', false],
  ])('a value filed %s predates the split: %s', (filed, expected) => {
    expect(filedBeforeSplit(split, filed)).toBe(expected);
  });

  it('multiplies the ratios of every later split', () => {
    const later: SplitEvent = {
      ...split,
      ratio: 10,
      lastPreSplitFiled: '2024-02-21',
      firstPostSplitFiled: '2025-02-26',
      tagDate: null,
    };
    expect(splitFactorSince([split, later], '2010-03-18')).toBe(40);
    expect(splitFactorSince([split, later], '2021-02-26')).toBe(10);
    expect(splitFactorSince([split, later], '2025-02-26')).toBe(1);
  });

  it.each([
    [4, '4:1'],
    [1.5, '3:2'],
    [1.25, '5:4'],
    [0.1, '1:10'],
  ])('formats %f as %s', (ratio, text) => {
    expect(formatRatio(ratio)).toBe(text);
  });
});
