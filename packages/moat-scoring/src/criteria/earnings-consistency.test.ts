import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { grow, makeContext, repeat } from '../../test/fixtures.js';
import { trendGrowth } from '../core/growth.js';
import {
  assessEarningsConsistency,
  continuingEps,
  countDownYears,
  DRAWDOWN_FAIL,
  deepestDrawdown,
  earningsBasis,
  flagOneOff,
} from './earnings-consistency.js';

function eps(
  values: (number | null)[],
  extra: { dilutedShares?: (number | null)[]; netIncome?: (number | null)[] } = {},
) {
  return makeContext({
    startYear: 2015,
    columns: {
      revenue: repeat(1000, values.length),
      netIncome: extra.netIncome ?? values.map((v) => (v === null ? 1 : v * 100)),
      dilutedEps: values,
      dilutedShares: extra.dilutedShares ?? repeat(100, values.length),
    },
  });
}

describe('assessEarningsConsistency', () => {
  it('gives a compounder growing exactly 10%/yr: q = 0.5·0.9 + 0.5·1 = 0.95 → 11.88 pass', () => {
    // log-linear fit is exact: g = 10%, R² = 1; q(g) = 0.75 + (3/5)·0.25 = 0.90, q(R²) = 1, no down-year
    const result = outcome(assessEarningsConsistency(eps(grow(2, 0.1, 10))));
    expect(result).toMatchObject({ score: 11.88, status: 'pass' });
    expect(result.numericValue).toBeCloseTo(10, 8);
    expect(result.value).toBe('EPS +10.0%/yr, R² 1.00, 0 down-years');
  });

  it('gives flat earnings half marks: growth 0 → 0, R² 1 (no variance) → q 0.5 → 6.25 warning', () => {
    expect(outcome(assessEarningsConsistency(eps(repeat(2, 10))))).toMatchObject({
      score: 6.25,
      status: 'warning',
    });
  });

  it('gives a steady decline no consistency credit: growth < 0 → 0, R² ignored → 0', () => {
    expect(outcome(assessEarningsConsistency(eps(grow(2, -0.05, 10))))).toMatchObject({
      score: 0,
      status: 'fail',
    });
  });

  it('caps a loss in the last 3 years at fail', () => {
    const values = [...grow(2, 0.1, 9), -0.5];
    const result = outcome(assessEarningsConsistency(eps(values)));
    expect(result.status).toBe('fail');
    expect(result.score).toBeLessThanOrEqual(4.88);
  });

  it('caps 2 early loss years at warning and 3 at fail (8 of 10 positive, dassus98)', () => {
    const two = [-1, -0.5, ...grow(1, 0.12, 8)];
    const three = [-1, -0.5, -0.2, ...grow(1, 0.12, 7)];
    expect(outcome(assessEarningsConsistency(eps(two))).score).toBeLessThanOrEqual(9.25);
    expect(outcome(assessEarningsConsistency(eps(three))).status).toBe('fail');
  });

  it('falls back to net income when diluted EPS is missing (Visa files none)', () => {
    const context = eps(repeat(null, 10), { netIncome: grow(100, 0.1, 10) });
    const result = outcome(assessEarningsConsistency(context));
    expect(result.value.startsWith('net income +10.0%/yr')).toBe(true);
  });

  it('falls back to net income when the share count jumps > 30% in a year (unrestated split)', () => {
    const context = eps([1, 1.1, 1.21, 0.6655, 0.732, 0.805, 0.886, 0.974, 1.072, 1.179], {
      dilutedShares: [100, 100, 100, 200, 200, 200, 200, 200, 200, 200],
      netIncome: grow(100, 0.1, 10),
    });
    expect(earningsBasis(context).label).toBe('net income');
    expect(outcome(assessEarningsConsistency(context)).score).toBe(11.88);
  });

  it('uses EPS when it covers as many years as net income', () => {
    expect(earningsBasis(eps(grow(2, 0.1, 5))).label).toBe('EPS');
  });
});

describe('earnings on continuing operations', () => {
  it('replaces EPS by continuing income ÷ diluted shares where continuing operations differ', () => {
    // EPS 2.00 … growing 10%/yr; in the last year net income (and EPS) jumps on a disposal gain:
    // EPS 10.00, net income 1000, but continuing operations earned 471.59 on 100 shares, i.e.
    // 4.7159 = 2 × 1.1^9, the trend value. Without the fix the jump would be scored as growth.
    const values = grow(2, 0.1, 10);
    const context = makeContext({
      startYear: 2015,
      columns: {
        revenue: repeat(1000, 10),
        netIncome: [...values.slice(0, 9).map((v) => v * 100), 1000],
        incomeFromContinuingOperations: [...repeat(null, 9), 2 * 1.1 ** 9 * 100],
        dilutedEps: [...values.slice(0, 9), 10],
        dilutedShares: repeat(100, 10),
      },
    });
    const basis = earningsBasis(context);
    expect(basis.label).toBe('EPS');
    expect(basis.series.values.at(-1)).toBeCloseTo(2 * 1.1 ** 9, 10);
    const result = outcome(assessEarningsConsistency(context));
    // exact 10%/yr again: q = 0.5·0.90 + 0.5·1 = 0.95 → 11.88
    expect(result).toMatchObject({ score: 11.88, status: 'pass' });
    expect(result.value).toBe('EPS +10.0%/yr, R² 1.00, 0 down-years, continuing ops in 1 yr');
  });

  it('keeps reported EPS when continuing income equals net income, and has none without shares', () => {
    const year = makeContext({
      startYear: 2020,
      columns: {
        revenue: repeat(10, 3),
        netIncome: [5, 5, 5],
        incomeFromContinuingOperations: [5, 4, 4],
        dilutedEps: [0.51, 0.5, 0.5],
        dilutedShares: [10, 10, null],
      },
    }).years;
    expect(year.map(continuingEps)).toEqual([0.51, 0.4, null]);
  });
});

describe('earnings helpers', () => {
  it('counts down-years beyond a 2% tolerance', () => {
    // 1 → 0.99 is −1% (noise); 0.99 → 0.9 is −9.1%; 1 → 0.5 is −50% → 2
    expect(countDownYears([1, 0.99, 0.9, 1, 0.5])).toBe(2);
  });

  it('annualises 3-year endpoint means when a value is not positive', () => {
    // first 3 mean (−1 + 1 + 2)/3 = 2/3 centred on 2016; last 3 mean (3+4+5)/3 = 4 centred on 2019
    // g = (4 / (2/3))^(1/3) − 1 = 6^(1/3) − 1 = 0.81712
    const { growth } = trendGrowth({
      years: [2015, 2016, 2017, 2018, 2019, 2020],
      values: [-1, 1, 2, 3, 4, 5],
    });
    expect(growth).toBeCloseTo(6 ** (1 / 3) - 1, 10);
  });

  it('has no growth when an endpoint mean is not positive', () => {
    // first-2 mean (−3 + 1)/2 = −1 → not meaningful
    expect(
      trendGrowth({ years: [2015, 2016, 2017, 2018], values: [-3, 1, 2, 3] }).growth,
    ).toBeNull();
  });
});

describe('robust to one isolated one-off year', () => {
  // 10%/yr compounder with one impairment year (FY2019 at 40% of trend), like PG FY2019.
  const compounder = grow(2, 0.1, 10);
  const impaired = compounder.map((v, i) => (i === 4 ? v * 0.4 : v));

  it('sets the one-off aside: growth, R² and down-years as without it; the display names it', () => {
    const result = outcome(assessEarningsConsistency(eps(impaired)));
    // nine years on the exact 10% line → g = 10%, R² = 1, 0 down-years → 11.88 as the clean series
    expect(result).toMatchObject({ score: 11.88, status: 'pass' });
    expect(result.numericValue).toBeCloseTo(10, 8);
    expect(result.value).toBe(
      `EPS +10.0%/yr, R² 1.00, 0 down-years; FY2019 (${((compounder[4] as number) * 0.4).toFixed(2)}) set aside as a one-off`,
    );
    expect(
      flagOneOff({
        years: [2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024],
        values: impaired,
      }),
    ).toMatchObject({ fiscalYear: 2019 });
  });

  it('keeps a real decline failing: −8%/yr with one bad year is still a fall', () => {
    const decline = grow(5, -0.08, 10).map((v, i) => (i === 5 ? v * 0.4 : v));
    const result = outcome(assessEarningsConsistency(eps(decline)));
    expect(result.status).toBe('fail');
    expect(result.numericValue).toBeLessThan(0);
  });

  it('sets nothing aside when two years are off (a pattern), nor the first or last year', () => {
    const twice = compounder.map((v, i) => (i === 3 || i === 6 ? v * 0.4 : v));
    const years = compounder.map((_, i) => 2015 + i);
    expect(flagOneOff({ years, values: twice })).toBeNull();
    const lastCrash = compounder.map((v, i) => (i === 9 ? v * 0.3 : v));
    expect(flagOneOff({ years, values: lastCrash })).toBeNull();
    expect(outcome(assessEarningsConsistency(eps(lastCrash))).value).not.toContain('one-off');
  });

  it('does not flag ordinary noise around a steady trend', () => {
    const noisy = compounder.map((v, i) => v * (1 + (i % 2 === 0 ? 0.05 : -0.05)));
    expect(flagOneOff({ years: compounder.map((_, i) => 2015 + i), values: noisy })).toBeNull();
  });
});

describe('earnings consistency through the cycle (issue 39)', () => {
  it('measures the deepest fall below a running positive peak', () => {
    const series = { years: [2015, 2016, 2017, 2018, 2019, 2020], values: [1, 2, 4, 1.5, 3, 5] };
    expect(deepestDrawdown(series)).toEqual({ depth: 0.625, peakYear: 2017, troughYear: 2018 });
    // a rise out of an early loss is no fall
    expect(deepestDrawdown({ years: [2015, 2016, 2017, 2018], values: [-1, 0.5, 1, 2] })).toEqual({
      depth: 0,
      peakYear: null,
      troughYear: null,
    });
    // a loss after a profit falls more than 100%
    expect(deepestDrawdown({ years: [2015, 2016, 2017], values: [2, -1, 3] }).depth).toBe(1.5);
  });

  it('names a fall to a loss as such (one loss year: the loss gates alone would not bind)', () => {
    // 2 → −0.2 in FY2019 (one loss year, not in the last 3): capped at fail by the drawdown
    const result = outcome(
      assessEarningsConsistency(eps([1, 1.3, 1.6, 2, -0.2, 1, 2.2, 2.6, 3, 3.5])),
    );
    expect(result.status).toBe('fail');
    expect(result.value).toContain('from the FY2018 peak to a loss in FY2019');
  });

  it('fails a recovery from a cyclical trough however steep its trend (EPS halves over two years)', () => {
    // Peak 4 in FY2017, trough 1 in FY2019 (−75%), then a rise to 6: without the gate the trend
    // from the trough would score; with it the criterion is at best a fail.
    const result = outcome(assessEarningsConsistency(eps([2, 3, 4, 1.5, 1, 1.8, 3, 4, 5, 6])));
    expect(result.status).toBe('fail');
    expect(result.score).toBeLessThanOrEqual(4.88);
    expect(result.value).toContain('fell by more than half from the FY2017 peak in FY2019');
  });

  it(`does not cap a fall of ${DRAWDOWN_FAIL * 100}% or less`, () => {
    // Peak 4 in FY2017, 2.2 and 2.4 after it (−45%): down-years count, the gate does not bind
    const result = outcome(assessEarningsConsistency(eps([2, 3, 4, 2.2, 2.4, 3, 4, 5, 6, 7])));
    expect(result.value).not.toContain('more than half');
  });

  it('does not count a one-off year set aside (an impairment year between steady years)', () => {
    const values = [1, 1.1, 1.2, 1.3, 0.3, 1.5, 1.6, 1.7, 1.8, 2];
    const result = outcome(assessEarningsConsistency(eps(values)));
    expect(result.value).toContain('FY2019 (0.30) set aside as a one-off');
    expect(result.value).not.toContain('more than half');
    expect(result.status).toBe('pass');
  });
});
