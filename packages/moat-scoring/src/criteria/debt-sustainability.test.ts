import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { type Columns, makeContext, repeat } from '../../test/fixtures.js';
import {
  assessDebtSustainability,
  payoffYears,
  throughCycleEarnings,
} from './debt-sustainability.js';

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

describe('assessDebtSustainability: text and chart come from one value (issue 42)', () => {
  /** The figure the display value quotes for its debt year: "n/m", "net cash" or "3.0 yrs". */
  function quoted(value: string): { year: number; figure: string } {
    const match = /^(?:debt \S+ = (n\/m|[\d.]+ yrs)|(net cash)) .*?\(FY(\d{4})\)/.exec(value);
    if (match === null) throw new Error(`no payoff figure in "${value}"`);
    return { year: Number(match[3]), figure: (match[1] ?? match[2]) as string };
  }
  /** The chart's point of `year`, as the text would print it ("net cash" for 0 years). */
  function plotted(trend: { years: number[]; values: number[] }, year: number): string {
    const at = trend.years.indexOf(year);
    if (at < 0) return 'n/m';
    const v = trend.values[at] as number;
    return v === 0 ? 'net cash' : `${v.toFixed(1)} yrs`;
  }

  it.each([
    {
      // Carnival-like: losses FY2020–FY2023, a profit in FY2024: the mean of FY2022–FY2024
      // (−6100, −70, 1900) is ≤ 0 → "n/m (no earnings)", and FY2024 gets no point (it had
      // 27500 / 1900 = 14.5 yrs before).
      name: 'n/m after losses (CCL FY2024)',
      columns: {
        netIncome: [2100, 2600, 2600, 3000, 3000, -10200, -9500, -6100, -70, 1900],
        longTermDebt: [8000, 9000, 9200, 9700, 11500, 26700, 31700, 31700, 29500, 27500],
        cash: repeat(500, n),
      },
      figure: 'n/m',
    },
    {
      // Falling earnings: FY2024 alone would be 600 / 50 = 12 yrs; the score's mean of FY2022–
      // FY2024 (150, 100, 50) = 100 → 6.0 yrs, and the chart's FY2024 point says the same.
      name: 'mean of 3 years, not the last year alone',
      columns: {
        netIncome: [...repeat(150, n - 2), 100, 50],
        longTermDebt: repeat(600, n),
        cash: repeat(0, n),
      },
      figure: '6.0 yrs',
    },
    {
      // Debt 600, cash 900: net cash, 0 yrs in the score and on the chart (it plotted 600 / 100).
      name: 'net cash',
      columns: { netIncome: repeat(100, n), longTermDebt: repeat(600, n), cash: repeat(900, n) },
      figure: 'net cash',
    },
    {
      // No debt figure for FY2024: the FY2023 figure is scored on the whole window's earnings:
      // the mean of FY2022–FY2024 (100, 100, 400) = 200 is above the window median 100, so
      // through the cycle 600 / 100 = 6.0 yrs; FY2023's point is that figure.
      name: 'debt figure one year old',
      columns: {
        netIncome: [...repeat(100, n - 1), 400],
        longTermDebt: [...repeat(600, n - 1), null],
        cash: repeat(0, n),
      },
      figure: '6.0 yrs',
    },
  ])('$name: the text quotes $figure and the chart plots it', ({ columns, figure }) => {
    const result = outcome(assessDebtSustainability(company(columns)));
    const text = quoted(result.value);
    expect(text.figure).toBe(figure);
    expect(plotted(result.trend as { years: number[]; values: number[] }, text.year)).toBe(figure);
  });

  it('plots each year by the same rule (through-cycle earnings up to that year)', () => {
    const result = outcome(
      assessDebtSustainability(
        company({
          netIncome: [100, 200, 300, -900, 100, 100, 100, 100, 100, 100],
          longTermDebt: repeat(600, n),
          cash: repeat(0, n),
        }),
      ),
    );
    // (the lower of the 3-year mean and the median of the years so far; equal here until FY2018)
    // FY2015 600/100 = 6, FY2016 600/150 = 4, FY2017 600/200 = 3; FY2018 mean (200+300−900)/3
    // < 0 → none; FY2019 (300−900+100)/3 < 0 → none; FY2020 (−900+100+100)/3 < 0 → none;
    // FY2021–FY2024 600/100 = 6.
    expect(result.trend).toEqual({
      years: [2015, 2016, 2017, 2021, 2022, 2023, 2024],
      values: [6, 4, 3, 6, 6, 6, 6],
    });
  });
});

describe('assessDebtSustainability: through-cycle earnings (issue 39)', () => {
  it('takes the lower of the last 3 years mean and the window median', () => {
    // rising: mean of (8, 9, 10) = 9 > median 5.5 → 5.5
    expect(throughCycleEarnings([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toBe(5.5);
    // falling: mean of (3, 2, 1) = 2 < median 5.5 → 2 (the recent mean, as before)
    expect(throughCycleEarnings([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])).toBe(2);
    // steady: both 100
    expect(throughCycleEarnings(repeat(100, n) as number[])).toBe(100);
    expect(throughCycleEarnings([])).toBeNaN();
  });

  it('judges a cyclical company on the cycle, not on its peak (airline-like recovery)', () => {
    // A loss at the trough, then a recovery to a peak: the last 3 years' mean (500, 600, 700)
    // = 600 would repay debt 1,500 in 2.5 yrs (q 0.9375); the window median (150 + 150) / 2 = 150
    // takes 10 yrs (q 0). Interest 10 / EBIT 1,000 = 1% → q(IB) 1. q = 0.7·0 + 0.3·1 = 0.30 → 3.75.
    const result = outcome(
      assessDebtSustainability(
        company({
          netIncome: [-500, 50, 100, 100, 150, 150, 300, 500, 600, 700],
          longTermDebt: repeat(1500, n),
          cash: repeat(0, n),
          interestExpense: repeat(10, n),
          operatingIncome: repeat(1000, n),
        }),
      ),
    );
    expect(result).toMatchObject({ score: 3.75, status: 'fail', numericValue: 10 });
    expect(result.value).toContain('10.0 yrs of net income through the cycle (window median');
  });

  it('leaves steady earnings as they were (median = 3-year mean)', () => {
    const result = outcome(
      assessDebtSustainability(
        company({
          netIncome: repeat(100, n),
          longTermDebt: repeat(300, n),
          cash: repeat(0, n),
          interestExpense: repeat(20, n),
          operatingIncome: repeat(200, n),
        }),
      ),
    );
    expect(result).toMatchObject({ score: 10.94, numericValue: 3 });
  });
});
