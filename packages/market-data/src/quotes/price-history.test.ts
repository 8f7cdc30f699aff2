import { describe, expect, it } from 'vitest';
import type { PriceSeries } from './price-files.js';
import { dividendAnchors, quoteOnOrBefore, type SymbolHistory } from './price-history.js';
import type { StockSplit } from './splits.js';

// Hand-made: a 2:1 split on 2024-01-10; unadjusted closes to 2024-01-05, total-return to 01-20.
const splits: StockSplit[] = [
  { symbol: 'X', date: '2024-01-10', ratio: 2, evidence: 'public-record' },
];
const unadjusted: PriceSeries = {
  source: { folder: 'raw', kind: 'unadjusted' },
  basis: '2024-01-05',
  rows: [
    { date: '2024-01-02', close: 100 },
    { date: '2024-01-05', close: 110 },
  ],
};
const totalReturn: PriceSeries = {
  source: { folder: 'adj', kind: 'total-return' },
  basis: '2024-01-20',
  rows: [
    { date: '2024-01-02', close: 49 },
    { date: '2024-01-05', close: 54 },
    { date: '2024-01-08', close: 52 },
    { date: '2024-01-10', close: 26.5 },
    { date: '2024-01-20', close: 30 },
  ],
};
const history: SymbolHistory = {
  symbol: 'X',
  unadjusted: [unadjusted],
  totalReturn,
  splits,
  anchors: dividendAnchors([unadjusted], totalReturn, splits),
};
const options = { currency: 'USD', name: 'fixture' };

describe('price history', () => {
  it('anchors the dividend factor where actual closes are known', () => {
    // 100 / (49 × 2) = 1.0204082; 110 / (54 × 2) = 1.0185185; the adjusted series' last day = 1
    expect(history.anchors.map((a) => a.date)).toEqual(['2024-01-02', '2024-01-05', '2024-01-20']);
    expect(history.anchors[0]?.factor).toBeCloseTo(1.0204082, 6);
    expect(history.anchors[1]?.factor).toBeCloseTo(1.0185185, 6);
  });

  it('prefers the unadjusted close', () => {
    expect(quoteOnOrBefore(history, '2024-01-03', options)).toMatchObject({
      price: 100,
      asOf: '2024-01-02',
      adjustment: 'none',
      source: 'fixture:raw',
    });
  });

  it('un-adjusts a gap day: adjusted × splits after it × interpolated dividend factor', () => {
    // 2024-01-08 is 3/15 of the way from 01-05 to 01-20: D = 1.0185185 − 0.0185185 × 0.2
    // = 1.0148148; price = 52 × 2 × 1.0148148 = 105.5407 (pre-split basis)
    expect(quoteOnOrBefore(history, '2024-01-09', options)).toMatchObject({
      price: 105.5407,
      asOf: '2024-01-08',
      splitBasisAsOf: '2024-01-08',
      adjustment: 'dividends-estimated',
      maxRelativeError: 0.018519,
    });
    // 2024-01-10 (post-split): D = 1.0185185 − 0.0185185 / 3 = 1.0123457; 26.5 × 1.0123457 = 26.8272
    expect(quoteOnOrBefore(history, '2024-01-10', options)?.price).toBe(26.8272);
  });

  it('returns the adjusted series’ last day as is, and null before any data', () => {
    expect(quoteOnOrBefore(history, '2024-12-31', options)).toMatchObject({
      price: 30,
      maxRelativeError: 0,
    });
    expect(quoteOnOrBefore(history, '2023-12-31', options)).toBeNull();
  });

  it('builds no estimate on an anchor that contradicts the split table', () => {
    const wrongSplits: StockSplit[] = [];
    const anchors = dividendAnchors([unadjusted], totalReturn, wrongSplits);
    // 100 / 49 = 2.04: outside the plausible dividend range, dropped
    expect(anchors.map((a) => a.date)).toEqual(['2024-01-20']);
  });
});
