import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { type Columns, makeContext, makeYear as makeRawYear, repeat } from '../../test/fixtures.js';
import { flattenYear } from '../core/scoring-context.js';
import { assessReturnOnInvestedCapital } from './return-on-invested-capital.js';
import { nopatTaxRate, statutoryRate } from './tax-rate.js';

const makeYear = (...args: Parameters<typeof makeRawYear>) => flattenYear(makeRawYear(...args));

const n = 10;
/** EBIT and balance sheet held flat for 10 years; taxes at 25% of pretax income (= EBIT). */
function company(ebit: number, balance: Columns, sicCode?: string) {
  return makeContext({
    startYear: 2015,
    sicCode,
    columns: {
      revenue: repeat(1000, n),
      operatingIncome: repeat(ebit, n),
      pretaxIncome: repeat(ebit, n),
      incomeTaxExpense: repeat(ebit * 0.25, n),
      netIncome: repeat(ebit * 0.75, n),
      ...balance,
    },
  });
}
const plain: Columns = {
  totalEquity: repeat(800, n),
  longTermDebt: repeat(200, n),
  cash: repeat(0, n),
};

describe('assessReturnOnInvestedCapital', () => {
  it.each([
    // NOPAT 150·0.75 = 112.5; IC = 200 + 800 − 0 = 1000 → 11.25%; q = 0.40 + (1.25/5)·0.35
    // = 0.4875 → 6.09 warning
    { name: 'ROIC 11.25%', ebit: 150, balance: plain, score: 6.09, status: 'warning', roic: 11.25 },
    // NOPAT 225 → 22.5%; q = 0.75 + (7.5/10)·0.25 = 0.9375 → 11.72 pass
    { name: 'ROIC 22.5%', ebit: 300, balance: plain, score: 11.72, status: 'pass', roic: 22.5 },
    // Negative equity (MCD): financing IC = 1500 − 2000 − 100 = −600 → operating approach:
    // (300 − 100) − (400 − 0) + 1500 + 200 = 1500; NOPAT 400·0.75 = 300 → 20%;
    // q = 0.75 + 0.5·0.25 = 0.875 → 10.94 pass
    {
      name: 'negative equity, operating approach',
      ebit: 400,
      balance: {
        totalEquity: repeat(-2000, n),
        longTermDebt: repeat(1500, n),
        cash: repeat(100, n),
        currentAssets: repeat(300, n),
        currentLiabilities: repeat(400, n),
        propertyPlantEquipmentNet: repeat(1500, n),
        goodwill: repeat(200, n),
      },
      score: 10.94,
      status: 'pass',
      roic: 20,
    },
  ])('$name → $score ($status)', ({ ebit, balance, score, status, roic }) => {
    const result = outcome(assessReturnOnInvestedCapital(company(ebit, balance)));
    expect(result).toMatchObject({ kind: 'scored', score, status });
    expect(result.numericValue).toBeCloseTo(roic, 8);
  });

  it('scores a profitable company with negative capital under both approaches 0.85 (capital-light)', () => {
    // financing: 0 + 100 − 500 − 50 < 0; operating: (100 − 50) − 500 + 50 = −400 < 0 → 10.625 → 10.63
    const result = outcome(
      assessReturnOnInvestedCapital(
        company(200, {
          totalEquity: repeat(-500, n),
          longTermDebt: repeat(100, n),
          cash: repeat(50, n),
          currentAssets: repeat(100, n),
          currentLiabilities: repeat(500, n),
          propertyPlantEquipmentNet: repeat(50, n),
        }),
      ),
    );
    expect(result).toMatchObject({ score: 10.63, status: 'pass', numericValue: null });
    expect(result.value).toContain('capital-light');
  });

  it('uses ROE on average equity for banks, never for others', () => {
    // NI 90 (EBIT 120 · 0.75) / equity 1000 = 9%; q = 0 + (4/5)·0.40 = 0.32 → 4.00 fail
    const bank = outcome(
      assessReturnOnInvestedCapital(company(120, { totalEquity: repeat(1000, n) }, '6021')),
    );
    expect(bank).toMatchObject({ score: 4, status: 'fail' });
    expect(bank.value).toContain('ROE');
    expect(bank.numericValue).toBeCloseTo(9, 8);
  });

  it('averages opening and closing capital', () => {
    // year 2: IC 1000 → 2000, average 1500; NOPAT 225 → 15%
    const context = makeContext({
      startYear: 2015,
      columns: {
        revenue: [1000, 1000, 1000],
        operatingIncome: [300, 300, 300],
        pretaxIncome: [300, 300, 300],
        incomeTaxExpense: [75, 75, 75],
        netIncome: [225, 225, 225],
        totalEquity: [1000, 2000, 2000],
      },
    });
    const result = outcome(assessReturnOnInvestedCapital(context));
    expect(result.trend?.values.map((v) => Number(v.toFixed(6)))).toEqual([22.5, 15, 11.25]);
  });

  it('scores negative capital on the window’s approach as n/m, never as missing data (issue 39)', () => {
    // Financing IC = 100 + 100 − 150 = 50, under 10% of revenue 1000 → operating approach in
    // every year: (200 − 150) − 500 + 100 = −350 (customers fund the business). Before issue 39
    // this was "missing" (the small financing capital was positive) and ROIC failed for lack of
    // data. Profitable in 4 of 10 years only, so not capital-light: the 4 profitable N/M years
    // count at the 15% hurdle, the 6 loss years as no return → median 0% → 0 points, as n/m.
    const balance: Columns = {
      totalEquity: repeat(100, n),
      longTermDebt: repeat(100, n),
      cash: repeat(150, n),
      currentAssets: repeat(200, n),
      currentLiabilities: repeat(500, n),
      propertyPlantEquipmentNet: repeat(100, n),
    };
    const ebit = [100, -50, 100, -50, 100, -50, 100, -50, -50, -50];
    const mixed = makeContext({
      startYear: 2015,
      columns: {
        revenue: repeat(1000, n),
        operatingIncome: ebit,
        pretaxIncome: ebit,
        incomeTaxExpense: ebit.map((e) => e * 0.25),
        netIncome: ebit.map((e) => e * 0.75),
        ...balance,
      },
    });
    const result = outcome(assessReturnOnInvestedCapital(mixed));
    expect(result.kind).toBe('scored');
    expect(result.value).toContain('n/m (capital ≤ 0) in 10 yrs, 4 of them profitable');
    expect(result.score).toBe(0);
    // Profitable in 6 of 10 years: the median of 6 × 15% and 4 × 0 is 15% → 0.75, a pass
    // (capped at warning: 40% of years below the hurdle is not over 40%).
    const ebit6 = [100, 100, 100, -50, 100, -50, 100, -50, 100, -50];
    const better = makeContext({
      startYear: 2015,
      columns: {
        revenue: repeat(1000, n),
        operatingIncome: ebit6,
        pretaxIncome: ebit6,
        incomeTaxExpense: ebit6.map((e) => e * 0.25),
        netIncome: ebit6.map((e) => e * 0.75),
        ...balance,
      },
    });
    expect(outcome(assessReturnOnInvestedCapital(better))).toMatchObject({
      kind: 'scored',
      score: 9.38,
      status: 'pass',
      numericValue: 15,
    });
  });

  it('is insufficient without any capital data (never a default pass)', () => {
    expect(assessReturnOnInvestedCapital(company(300, {})).kind).toBe('insufficient');
  });
});

describe('tax rate', () => {
  it('blends the statutory rate by days for a fiscal year straddling 1 January 2018 (WMT)', () => {
    // 2017-02-01 … 2018-01-31: 31 of 365 days at 21% → 0.35 − 0.14 · 31/365 = 0.338110
    const walmart = makeYear(2017, {}, '01-31');
    expect(walmart.periodEnd).toBe('2018-01-31');
    expect(statutoryRate(walmart)).toBeCloseTo(0.35 - (0.14 * 31) / 365, 10);
    expect(statutoryRate(makeYear(2016, {}))).toBe(0.35);
    expect(statutoryRate(makeYear(2018, {}))).toBe(0.21);
  });

  it('uses the 3-year effective rate, or the statutory rate when it is outside [0, 50%]', () => {
    const years = [
      makeYear(2018, { pretaxIncome: 100, incomeTaxExpense: 20 }),
      makeYear(2019, { pretaxIncome: 100, incomeTaxExpense: 30 }),
      makeYear(2020, { pretaxIncome: -50, incomeTaxExpense: 0 }),
    ];
    // (20 + 30 + 0) / (100 + 100 − 50) = 1/3
    expect(nopatTaxRate(years, 2)).toBeCloseTo(1 / 3, 10);
    // only 2020: pretax ≤ 0 → statutory 21%
    expect(nopatTaxRate([years[2] as (typeof years)[number]], 0)).toBe(0.21);
  });
});
