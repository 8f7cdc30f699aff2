import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { type Columns, grow, makeContext, repeat } from '../../test/fixtures.js';
import {
  assessRetainedEarnings,
  ENDPOINT_MEAN_MIN_YEARS,
  retentionReturn,
} from './retained-earnings.js';

const n = 10;
function company(columns: Columns) {
  return makeContext({
    startYear: 2015,
    columns: { revenue: repeat(5000, n), netIncome: repeat(500, n), ...columns },
  });
}
/** Buybacks 100/yr (Σ 1000 ≥ 10% of Σ NI 5000: material), FCF 600 − 100 = 500/yr. */
const buybackBase: Columns = {
  shareRepurchases: repeat(100, n),
  operatingCashFlow: repeat(600, n),
  capitalExpenditure: repeat(100, n),
};

describe('assessRetainedEarnings', () => {
  it('without buybacks: RE growing 7%/yr → q 0.75 → 9.38 pass', () => {
    const result = outcome(
      assessRetainedEarnings(company({ retainedEarnings: grow(1000, 0.07, n) })),
    );
    expect(result).toMatchObject({ score: 9.38, status: 'pass' });
    expect(result.numericValue).toBeCloseTo(7, 8);
  });

  it('without buybacks: RE shrinking → 0 and capped (rose in fewer than 70% of years)', () => {
    expect(
      outcome(assessRetainedEarnings(company({ retainedEarnings: grow(1000, -0.02, n) }))),
    ).toMatchObject({
      score: 0,
      status: 'fail',
    });
  });

  it('without buybacks: a deficit turned positive is a warning (growth rate n/m)', () => {
    const re = [-400, -300, -200, -100, 0, 100, 200, 300, 400, 500];
    expect(outcome(assessRetainedEarnings(company({ retainedEarnings: re })))).toMatchObject({
      score: 5,
      status: 'warning',
      numericValue: null,
    });
  });

  it('with buybacks covered 2× by FCF after dividends and flat net debt → 12.5', () => {
    // coverage = (Σ FCF 5000 − Σ dividends 3000) / Σ buybacks 1000 = 2.0 → q 1; no EPS → q = q(coverage)
    const result = outcome(
      assessRetainedEarnings(
        company({
          ...buybackBase,
          dividendsPaid: repeat(300, n),
          longTermDebt: repeat(1000, n),
          cash: repeat(200, n),
        }),
      ),
    );
    expect(result).toMatchObject({ score: 12.5, status: 'pass', numericValue: 2 });
    expect(result.value).toContain('covered 2.0× by FCF after dividends');
  });

  it('with buybacks covered 1× but net debt up by 75% of them → capped at warning (9.25)', () => {
    // coverage (5000 − 4000) / 1000 = 1.0 → 0.75; ΔND = 750 > 0.5·1000 → cap 0.74
    const result = outcome(
      assessRetainedEarnings(
        company({
          ...buybackBase,
          dividendsPaid: repeat(400, n),
          longTermDebt: [1000, ...repeat(1200, n - 2), 1750],
          cash: repeat(0, n),
        }),
      ),
    );
    expect(result).toMatchObject({ score: 9.25, status: 'warning' });
    expect(result.value).toContain('buybacks partly funded with debt');
  });

  it('attributes a debt rise to acquisitions before buybacks (issue 39)', () => {
    // Same company as above, but it paid 600 for a business in FY2024: of the 750 debt rise,
    // 600 bought the business, 150 (< ½ of 1000 buybacks) is left for buybacks → no cap, 9.38.
    const result = outcome(
      assessRetainedEarnings(
        company({
          ...buybackBase,
          dividendsPaid: repeat(400, n),
          longTermDebt: [1000, ...repeat(1200, n - 2), 1750],
          cash: repeat(0, n),
          acquisitions: [...repeat(null, n - 1), 600],
        }),
      ),
    );
    expect(result).toMatchObject({ score: 9.38, status: 'pass' });
    expect(result.value).toContain('acquisitions $600 attributed first');
    expect(result.value).not.toContain('funded with debt');
  });

  it('with debt-funded buybacks and negative equity (MCD) → fail', () => {
    // coverage (5000 − 4500) / 1000 = 0.5 → 0; ΔND = 2000 > Σ buybacks → cap 0.39
    const result = outcome(
      assessRetainedEarnings(
        company({
          ...buybackBase,
          dividendsPaid: repeat(450, n),
          longTermDebt: grow(1000, 0.1, n).map((d, i) => (i === n - 1 ? 3000 : d)),
          cash: repeat(0, n),
          totalEquity: repeat(-500, n),
        }),
      ),
    );
    expect(result).toMatchObject({ score: 0, status: 'fail' });
    expect(result.value).toContain('negative equity (buybacks)');
  });

  it('never assumes buybacks were not debt-funded when net debt is unknown', () => {
    // coverage 2.0 → q 1, but no cash line: net debt unknown → cap 0.74
    const result = outcome(
      assessRetainedEarnings(company({ ...buybackBase, dividendsPaid: repeat(300, n) })),
    );
    expect(result).toMatchObject({ score: 9.25, status: 'warning' });
  });

  it('computes the return on retained EPS', () => {
    // EPS 1 → 1.5 → 2, DPS 0.5 (dividends 50 / 100 shares); retained after year 1: 1.0 + 1.5 = 2.5;
    // R = (2 − 1) / 2.5 = 0.40
    const context = makeContext({
      startYear: 2015,
      columns: {
        revenue: repeat(1, 3),
        netIncome: [100, 150, 200],
        dilutedEps: [1, 1.5, 2],
        dilutedShares: repeat(100, 3),
        dividendsPaid: repeat(50, 3),
      },
    });
    expect(retentionReturn(context)).toBeCloseTo(0.4, 10);
  });

  it(`compares 3-year endpoint means with ${ENDPOINT_MEAN_MIN_YEARS}+ years: a recovery from a trough is no return on retained EPS (issue 39)`, () => {
    // EPS −2, 0.5, 1, 1.5, 2, 2.5, 5, 6, 7, no dividends. First and last year: (7 − (−2)) / Σ
    // retained after year 1 (0.5 + 1 + 1.5 + 2 + 2.5 + 5 + 6 + 7 = 25.5) = 0.353, a pass on the
    // trough. Endpoint means: (mean(5, 6, 7) = 6 − mean(−2, 0.5, 1) = −0.1667) / 25.5 = 0.2418.
    const eps = [-2, 0.5, 1, 1.5, 2, 2.5, 5, 6, 7];
    const context = makeContext({
      startYear: 2015,
      columns: {
        revenue: repeat(1, eps.length),
        netIncome: eps.map((e) => e * 100),
        dilutedEps: eps,
        dilutedShares: repeat(100, eps.length),
        dividendsPaid: repeat(0, eps.length),
      },
    });
    expect(retentionReturn(context)).toBeCloseTo((6 + 1 / 6) / 25.5, 10);
  });

  it('keeps the first and last year with fewer than 6 years (the 3-year ends would overlap)', () => {
    // 5 years: EPS 1, 2, 3, 4, 5, no dividends → (5 − 1) / (2 + 3 + 4 + 5) = 4 / 14
    const context = makeContext({
      startYear: 2015,
      columns: {
        revenue: repeat(1, 5),
        netIncome: [100, 200, 300, 400, 500],
        dilutedEps: [1, 2, 3, 4, 5],
        dilutedShares: repeat(100, 5),
        dividendsPaid: repeat(0, 5),
      },
    });
    expect(retentionReturn(context)).toBeCloseTo(4 / 14, 10);
  });
});
