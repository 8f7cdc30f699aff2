import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { type Columns, makeContext, repeat } from '../../test/fixtures.js';
import { assessDebtSustainability, payoffYears } from './debt-sustainability.js';

const n = 10;
function company(columns: Columns, sicCode?: string) {
  return makeContext({
    startYear: 2015,
    sicCode,
    columns: { revenue: repeat(1000, n), ...columns },
  });
}

describe('assessDebtSustainability', () => {
  it.each([
    // cash 500 ≥ debt 100 → 0 years → q 1; not in debt → interest burden counts as 1 → 12.5
    {
      name: 'net cash',
      columns: { netIncome: repeat(100, n), longTermDebt: repeat(100, n), cash: repeat(500, n) },
      score: 12.5,
      status: 'pass',
      years: 0,
    },
    // debt 300 / NI 100 = 3 yrs → 0.75 + 0.5·0.25 = 0.875; interest 20/EBIT 200 = 10% →
    // 0.75 + 0.5·0.25 = 0.875; q = 0.875 → 10.94 pass
    {
      name: '3 years, 10% interest',
      columns: {
        netIncome: repeat(100, n),
        longTermDebt: repeat(300, n),
        cash: repeat(0, n),
        interestExpense: repeat(20, n),
        operatingIncome: repeat(200, n),
      },
      score: 10.94,
      status: 'pass',
      years: 3,
    },
    // 6 yrs → (8 − 6)/3 · 0.40 = 0.2667; interest 50/200 = 25% → 0.20; q = 0.7·0.2667 + 0.3·0.2
    // = 0.2467 → 3.08 fail
    {
      name: '6 years, 25% interest',
      columns: {
        netIncome: repeat(100, n),
        longTermDebt: repeat(600, n),
        cash: repeat(0, n),
        interestExpense: repeat(50, n),
        operatingIncome: repeat(200, n),
      },
      score: 3.08,
      status: 'fail',
      years: 6,
    },
    // debt split short + long: 100 + 200 = 300, NI mean of last 3 (50, 100, 150) = 100 → 3 yrs
    // q(Y) 0.875; interest not reported while in debt → q(IB) 0: 0.6125 → 7.66 warning
    {
      name: 'interest not reported',
      columns: {
        netIncome: [...repeat(100, n - 3), 50, 100, 150],
        shortTermDebt: repeat(100, n),
        longTermDebt: repeat(200, n),
      },
      score: 7.66,
      status: 'warning',
      years: 3,
    },
  ])('$name → $score ($status)', ({ columns, score, status, years }) => {
    const result = outcome(assessDebtSustainability(company(columns)));
    expect(result).toMatchObject({ kind: 'scored', score, status });
    expect(result.numericValue).toBeCloseTo(years, 10);
  });

  it('fails a company in debt whose recent earnings are losses (UAL 2020–2022)', () => {
    const result = outcome(
      assessDebtSustainability(
        company({
          netIncome: [...repeat(2000, 7), -7000, -2000, 700],
          operatingIncome: [...repeat(3000, 7), -6000, -1000, 2000],
          interestExpense: repeat(500, n),
          longTermDebt: repeat(30000, n),
          cash: repeat(10000, n),
        }),
      ),
    );
    // mean NI of the last 3 = −2767 ≤ 0 → payoff n/m → 0; Σ EBIT last 3 = −5000 → cap 0.39, q(IB) 0
    expect(result).toMatchObject({ score: 0, status: 'fail', numericValue: null });
  });

  it('does not apply to banks, nor to a company that reports no borrowing line at all', () => {
    expect(
      assessDebtSustainability(
        company({ netIncome: repeat(1, n), longTermDebt: repeat(1, n) }, '6029'),
      ).kind,
    ).toBe('not_applicable');
    expect(assessDebtSustainability(company({ netIncome: repeat(1, n) }))).toEqual({
      kind: 'not_applicable',
      reason: 'no borrowings reported in any year',
    });
  });

  it('computes payoff years', () => {
    expect(payoffYears(100, 200, 10)).toBe(0);
    expect(payoffYears(400, null, 100)).toBe(4);
    expect(payoffYears(400, 0, -5)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('assessDebtSustainability: is the debt figure current?', () => {
  // Ford-like: debt 150,000 until FY2017, then a stray 600 / 470 / 291 and nothing from FY2021,
  // while interest expense rises (the debt moved to tags the provider does not read).
  const fordLike = {
    netIncome: repeat(5000, n),
    operatingIncome: repeat(6000, n),
    interestExpense: [4000, 4000, 4300, 5100, 5400, 5000, 4600, 4600, 7600, null],
    longTermDebt: [130000, 140000, 150000, 600, 470, 291, null, null, null, null],
    cash: repeat(20000, n),
  };

  it('scores no payoff part for a stale figure after a collapse of scope (Ford FY2018–FY2024)', () => {
    const result = outcome(assessDebtSustainability(company(fordLike)));
    // payoff part 0 (unknown); interest FY2022–FY2023 (FY2024 has none): (4600 + 7600) /
    // (6000 + 6000) = 101.7% → q(IB) 0 → q = 0.3 × 0 = 0 → 0 points, fail
    expect(result).toMatchObject({ kind: 'scored', score: 0, status: 'fail', numericValue: null });
    expect(result.value).toContain('latest debt figure FY2020 ($291) is 4 yrs before FY2024');
    expect(result.value).toContain('debt scope collapsed in FY2018');
    expect(result.value).toContain('interest 101.7% of EBIT (FY2022–FY2023)');
  });

  it('never passes a stale figure, even with a light interest burden', () => {
    const result = outcome(
      assessDebtSustainability(
        company({
          ...fordLike,
          interestExpense: repeat(300, n),
          longTermDebt: [...repeat(1000, 6), null, null, null, null],
        }),
      ),
    );
    // stale (FY2020 vs FY2024), no collapse; interest 300 / 6000 = 5% → q(IB) 1;
    // q = 0.3 × 1 = 0.3 (< the 0.39 fail cap) → 3.75 fail
    expect(result).toMatchObject({ score: 3.75, status: 'fail', numericValue: null });
    expect(result.value).not.toContain('collapsed');
  });

  it('calls it insufficient data when the debt is stale and the interest burden is unknown', () => {
    const result = assessDebtSustainability(
      company({
        netIncome: repeat(100, n),
        longTermDebt: [...repeat(300, 5), ...repeat(null, 5)],
      }),
    );
    expect(result.kind).toBe('insufficient');
  });

  it('accepts a figure from the year before the last (the last year or two of the window)', () => {
    const result = outcome(
      assessDebtSustainability(
        company({
          netIncome: repeat(100, n),
          longTermDebt: [...repeat(300, n - 1), null],
          cash: repeat(0, n),
          interestExpense: repeat(20, n),
          operatingIncome: repeat(200, n),
        }),
      ),
    );
    // FY2023 debt 300 / NI 100 = 3 yrs → 0.875; interest 10% → 0.875 → 10.94 pass
    expect(result).toMatchObject({ score: 10.94, status: 'pass' });
  });

  it('does not take a real repayment for a collapse of scope (interest falls the next year)', () => {
    const result = outcome(
      assessDebtSustainability(
        company({
          netIncome: repeat(100, n),
          operatingIncome: repeat(200, n),
          longTermDebt: [...repeat(1000, 6), 50, 50, 50, 50],
          interestExpense: [...repeat(60, 6), 45, 3, 3, 3],
          cash: repeat(0, n),
        }),
      ),
    );
    // debt 50 / NI 100 = 0.5 yrs → 1; interest 9 / 600 = 1.5% → 1 → 12.5 pass
    expect(result).toMatchObject({ score: 12.5, status: 'pass' });
  });

  it('counts the interest burden of a net-cash company that reports interest (LUV)', () => {
    const result = outcome(
      assessDebtSustainability(
        company({
          netIncome: repeat(100, n),
          longTermDebt: repeat(6700, n),
          cash: repeat(9000, n),
          interestExpense: repeat(543, n),
          operatingIncome: repeat(1000, n),
        }),
      ),
    );
    // net cash → payoff 0 yrs → 1; interest 54.3% of EBIT > 30% → 0: q = 0.7 → 8.75 warning
    expect(result).toMatchObject({ score: 8.75, status: 'warning', numericValue: 0 });
  });
});
