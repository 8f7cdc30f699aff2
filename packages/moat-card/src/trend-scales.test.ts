import { describe, expect, it } from 'vitest';
import { formatThreshold, formatTrendValue, trendScaleOf } from './trend-scales.js';

describe('formatTrendValue', () => {
  it.each([
    [43.21, 'percent', undefined, '43.2%'],
    [1.84, 'years', undefined, '1.8 yrs'],
    [6.1149, 'perShare', undefined, '6.11'],
    [394_328_000_000, 'money', 'USD', '394.3B USD'],
    [-14_264_000_000, 'money', undefined, '-14.3B'],
  ] as const)('%d %s %s → %s', (value, unit, currency, text) => {
    expect(formatTrendValue(value, unit, currency)).toBe(text);
  });
});

describe('formatThreshold', () => {
  it('says the side and leaves whole numbers without decimals', () => {
    expect(formatThreshold({ value: 40, side: 'atLeast' }, 'percent')).toBe('≥ 40%');
    expect(formatThreshold({ value: 4, side: 'atMost' }, 'years')).toBe('≤ 4 yrs');
    expect(formatThreshold({ value: 12.5, side: 'atLeast' }, 'percent')).toBe('≥ 12.5%');
  });
});

describe('trendScaleOf', () => {
  it('reads earnings consistency scored on net income as money, on EPS per share', () => {
    const key = 'earnings_consistency';
    expect(trendScaleOf({ key, value: 'EPS +16.1%/yr, R² 0.93, 0 down-years' }).unit).toBe(
      'perShare',
    );
    expect(trendScaleOf({ key, value: 'net income +4.0%/yr, R² 0.51, 2 down-years' }).unit).toBe(
      'money',
    );
  });

  it('gives the margins their benchmark line', () => {
    expect(trendScaleOf({ key: 'gross_margin', value: '' }).threshold).toEqual({
      value: 40,
      side: 'atLeast',
    });
    expect(trendScaleOf({ key: 'retained_earnings', value: '' }).threshold).toBeUndefined();
  });
});
