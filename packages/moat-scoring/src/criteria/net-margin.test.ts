import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { makeContext, repeat } from '../../test/fixtures.js';
import { assessNetMargin } from './net-margin.js';

/** Revenue 100 every year, net income = the given margin in percent. */
function margins(nm: (number | null)[], sicCode?: string) {
  return makeContext({
    startYear: 2015,
    sicCode,
    columns: { revenue: repeat(100, nm.length), netIncome: nm },
  });
}

describe('assessNetMargin', () => {
  it.each([
    // 20% flat: q(level) 0.90 → 11.25 pass
    { name: 'flat 20%', nm: repeat(20, 10), sic: undefined, score: 11.25, status: 'pass' },
    // 12%: 0.40 + (2/5)·0.35 = 0.54 → 6.75 warning
    { name: 'flat 12%', nm: repeat(12, 10), sic: undefined, score: 6.75, status: 'warning' },
    // 25% with 2 loss years: median 25 → 1; 8 profitable < ceil(9) → ×0.85 = 0.85 → 10.625 →
    // 10.63 pass; 8 ≥ ceil(0.8·10) = 8, so no fail cap
    {
      name: '2 losses',
      nm: [25, -5, 25, 25, 25, -5, 25, 25, 25, 25],
      sic: undefined,
      score: 10.63,
      status: 'pass',
    },
    // 3 loss years: 7 < 8 profitable → cap 0.39 → 4.875 → 4.88 fail
    {
      name: '3 losses',
      nm: [25, -5, 25, -5, 25, -5, 25, 25, 25, 25],
      sic: undefined,
      score: 4.88,
      status: 'fail',
    },
    // falling: sorted 12,12,12,14,16,18,20,20,20,20 → median 17 → 0.75 + (2/5)·0.15 = 0.81;
    // last-3 mean 12 − first-3 mean 20 = −8 pp < −5 → ×0.85 = 0.6885 → 8.61 warning
    {
      name: 'falling',
      nm: [20, 20, 20, 20, 18, 16, 14, 12, 12, 12],
      sic: undefined,
      score: 8.61,
      status: 'warning',
    },
    // bank at 30%: q 1 capped at 0.75 (high bank margins signal risk) → 9.375 → 9.38
    { name: 'bank 30%', nm: repeat(30, 10), sic: '6022', score: 9.38, status: 'pass' },
    // 3% margin: below the 5% floor → 0
    { name: 'thin 3%', nm: repeat(3, 10), sic: undefined, score: 0, status: 'fail' },
  ])('$name → $score ($status)', ({ nm, sic, score, status }) => {
    expect(outcome(assessNetMargin(margins(nm, sic)))).toMatchObject({
      kind: 'scored',
      score,
      status,
    });
  });

  it('shows the median net margin in percent', () => {
    const result = outcome(assessNetMargin(margins([10, 20, 30])));
    expect(result.numericValue).toBeCloseTo(20, 10);
    expect(result.value).toBe(
      'median 20.0%, profitable 3/3 yrs, shift +20.0 pp (capped: limited history (3 yrs))',
    );
  });

  it('skips years with non-positive revenue rather than dividing by them', () => {
    const context = makeContext({
      startYear: 2015,
      columns: { revenue: [100, 100, 0, 100, 100, 100], netIncome: [20, 20, 5, 20, 20, 20] },
    });
    expect(outcome(assessNetMargin(context)).trend?.years).toEqual([2015, 2016, 2018, 2019, 2020]);
  });
});

describe('assessNetMargin on continuing operations', () => {
  it('uses income from continuing operations in the years that report it (JNJ after Kenvue)', () => {
    // Revenue 100; net income 20 every year, but in the last 3 years it carries a discontinued
    // business: continuing operations earn 12, 12, 12 there (net income 20, 20, 45).
    const context = makeContext({
      startYear: 2015,
      columns: {
        revenue: repeat(100, 10),
        netIncome: [...repeat(20, 7), 20, 20, 45],
        incomeFromContinuingOperations: [...repeat(null, 7), 12, 12, 12],
      },
    });
    const result = outcome(assessNetMargin(context));
    // margins 20 ×7, 12 ×3 → sorted 12,12,12,20,… → median (20 + 20) / 2 = 20 % (not 20 with 45);
    // endpoint means: first 3 = 20, last 3 = 12 → shift −8 pp < −5 → ×0.85;
    // q = 0.90 × 0.85 = 0.765 → 9.5625 → 9.56 pass
    expect(result.trend?.values.slice(-3)).toEqual([12, 12, 12]);
    expect(result).toMatchObject({ score: 9.56, status: 'pass', numericValue: 20 });
    expect(result.value).toContain('continuing ops in 3 yrs');
  });

  it('falls back to net income, and says nothing, when continuing operations are never reported', () => {
    const result = outcome(assessNetMargin(margins(repeat(20, 10))));
    expect(result.value).not.toContain('continuing');
  });
});

describe('assessNetMargin before one-offs (issue 39)', () => {
  // Revenue 100; net income 15 except two years of a −40 impairment (−5) and one of a +20 gain
  // (30). No pretax line: the statutory 21% (FY2018 on) is the tax on the one-offs.
  const netIncome = [15, 15, -5, 15, 15, -5, 15, 15, 15, 30];
  const unusualItems = [null, null, -40, null, null, -40, null, null, null, 20];
  const context = makeContext({
    startYear: 2018,
    columns: { revenue: repeat(100, 10), netIncome, unusualItems },
  });

  it('adds charges back and takes gains out, after tax, both directions', () => {
    const result = outcome(assessNetMargin(context));
    // −5 + 40·0.79 = 26.6; 30 − 20·0.79 = 14.2; all 10 years profitable, median 15% → 0.75
    expect(result).toMatchObject({ kind: 'scored', score: 9.38, status: 'pass' });
    expect(result.trend?.values[2]).toBeCloseTo(26.6, 6);
    expect(result.trend?.values[9]).toBeCloseTo(14.2, 6);
    expect(result.value).toContain('profitable 10/10 yrs');
    expect(result.value).toContain('before one-offs in 3 yrs');
  });

  it('on GAAP alone the two charge years are losses (8/10 profitable → × 0.85)', () => {
    const gaap = makeContext({
      startYear: 2018,
      columns: { revenue: repeat(100, 10), netIncome },
    });
    // 0.75 × 0.85 = 0.6375 → 7.97 warning
    expect(outcome(assessNetMargin(gaap))).toMatchObject({ score: 7.97, status: 'warning' });
  });
});
