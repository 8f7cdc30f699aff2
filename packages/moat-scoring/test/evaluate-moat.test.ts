import { MoatEvaluation, type Valuation } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { CRITERIA, evaluateMoat, MoatScoringError, verdictFor } from '../src/index.js';
import { type Columns, compounderColumns, grow, makeFundamentals, repeat } from './fixtures.js';

const byKey = (e: ReturnType<typeof evaluateMoat>, key: string) => {
  const c = e.criteria.find((x) => x.key === key);
  if (c === undefined) throw new Error(key);
  return c;
};
function evaluate(columns: Columns, extra: Partial<Parameters<typeof makeFundamentals>[0]> = {}) {
  const evaluation = evaluateMoat(makeFundamentals({ startYear: 2015, columns, ...extra }));
  expect(MoatEvaluation.safeParse(evaluation).success).toBe(true);
  return evaluation;
}

describe('evaluateMoat', () => {
  it('scores a 10-year compounder as a strong moat, with the total equal to the sum of scores', () => {
    const e = evaluate(compounderColumns());
    expect(e.maxScore).toBe(100);
    expect(e.criteriaCount).toBe(8);
    expect(e.totalScore).toBeCloseTo(
      e.criteria.reduce((s, c) => s + c.score, 0),
      10,
    );
    expect(e.verdict).toBe('Strong Durable Competitive Advantage');
    expect(e.criteria.map((c) => [c.name, c.benchmark])).toEqual(
      CRITERIA.map((c) => [c.name, c.benchmark]),
    );
    expect(e._fiscalYears).toEqual([2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024]);
  });

  it('copies evaluatedAt and valuation, and never reads the clock', () => {
    const valuation: Valuation = {
      peRatio: 25,
      forwardPE: null,
      pegRatio: 1.2,
      augmentedPayoutRatio: 80,
      sellTrigger: false,
    };
    const f = makeFundamentals({ startYear: 2015, columns: compounderColumns() });
    const e = evaluateMoat(f, { evaluatedAt: '2026-01-02T03:04:05.000Z', valuation });
    expect(e._evaluatedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(e.valuation).toBe(valuation);
    expect(evaluateMoat(f)).not.toHaveProperty('_evaluatedAt');
  });

  it('scores only the last windowYears fiscal years', () => {
    const e = evaluateMoat(makeFundamentals({ startYear: 2010, columns: compounderColumns(15) }), {
      windowYears: 5,
    });
    expect(e._fiscalYears).toEqual([2020, 2021, 2022, 2023, 2024]);
    expect(() =>
      evaluateMoat(makeFundamentals({ startYear: 2010, columns: compounderColumns() }), {
        windowYears: 2.5,
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  it('throws insufficient_data with fewer than 3 usable fiscal years', () => {
    const f = makeFundamentals({
      startYear: 2020,
      columns: { revenue: [1, 2, 3], netIncome: [1, null, 1] },
    });
    expect(() => evaluateMoat(f)).toThrow(MoatScoringError);
    expect(() => evaluateMoat(f)).toThrow(expect.objectContaining({ code: 'insufficient_data' }));
  });

  it('excludes criteria that cannot apply to a bank from the maximum (87.5 → 62.5)', () => {
    const e = evaluate(compounderColumns(), { sicCode: '6021' });
    const na = e.criteria.filter((c) => c.maxScore === 0).map((c) => c.key);
    expect(na).toEqual(['gross_margin', 'debt_sustainability', 'capex_efficiency']);
    expect(e.maxScore).toBe(62.5);
    expect(e.criteriaCount).toBe(5);
    for (const c of e.criteria.filter((x) => x.maxScore === 0)) {
      expect(c).toMatchObject({ status: 'warning', score: 0, numericValue: null });
      expect(c.value).toMatch(/^N\/A — bank or insurer/);
    }
    expect(e.verdict).toBe(verdictFor(e.totalScore, 62.5));
  });

  it('treats a missing cost-of-revenue line as not applicable (airline, payment network)', () => {
    const { costOfRevenue: _drop, ...columns } = compounderColumns();
    const e = evaluate(columns);
    expect(byKey(e, 'gross_margin').value).toBe(
      'N/A — no cost-of-revenue line reported in any year',
    );
    expect(e.maxScore).toBe(87.5);
  });

  it('MCD: negative equity from debt-funded buybacks is judged, not failed by default', () => {
    const base = compounderColumns();
    const revenue = base.revenue as number[];
    const e = evaluate({
      ...base,
      totalEquity: repeat(-3000, 10),
      retainedEarnings: grow(5000, 0.05, 10),
      shareRepurchases: revenue.map((r) => r * 0.25),
      longTermDebt: grow(2000, 0.12, 10),
      cash: repeat(100, 10),
    });
    const roic = byKey(e, 'return_on_invested_capital');
    expect(roic.value).toMatch(/operating-approach capital in every year \(financing capital ≤ 0/);
    expect(roic.status).toBe('pass');
    const retained = byKey(e, 'retained_earnings');
    expect(retained.value).toContain('negative equity (buybacks)');
    expect(retained.status).not.toBe('pass');
    expect(byKey(e, 'debt_sustainability').maxScore).toBe(12.5);
  });

  it('UAL/CCL/F: loss years fail earnings consistency and net margin and rule out a strong verdict', () => {
    const revenue = [38, 37, 36, 38, 41, 43, 15, 24, 45, 51].map((r) => r * 1000);
    const e = evaluate({
      revenue,
      operatingIncome: [5, 5.5, 4.5, 3.5, 4.2, 4.3, -6.4, -1, 2.3, 5.2].map((x) => x * 1000),
      netIncome: [1.1, 7.3, 2.3, 2.1, 2.1, 3, -7.1, -2, -0.7, 2.6].map((x) => x * 1000),
      dilutedEps: [3, 19.5, 7, 7.5, 7.7, 11.6, -25, -6.1, -2.2, 8],
      interestExpense: repeat(700, 10),
      longTermDebt: [...repeat(11000, 6), 25000, 30000, 31000, 30000],
      cash: repeat(4000, 10),
      capitalExpenditure: repeat(4000, 10),
      operatingCashFlow: [...repeat(6000, 6), -4000, 2000, 6000, 9000],
    });
    expect(byKey(e, 'earnings_consistency').status).toBe('fail');
    expect(byKey(e, 'net_margin').status).toBe('fail');
    expect(byKey(e, 'capex_efficiency').status).toBe('fail');
    expect(e.verdict).not.toBe('Strong Durable Competitive Advantage');
  });

  it('SNOW: 7 years of losses are scored on what exists (no history cap at 7 years) and fail', () => {
    const revenue = grow(100, 0.6, 7);
    const e = evaluate(
      {
        revenue,
        costOfRevenue: revenue.map((r) => r * 0.35),
        // the operating costs add up (65% − 75% − 30% = −40%): without them the cost of revenue
        // would read as partial (cost-coverage.ts)
        sellingGeneralAdministrative: revenue.map((r) => r * 0.75),
        researchDevelopment: revenue.map((r) => r * 0.3),
        operatingIncome: revenue.map((r) => r * -0.4),
        netIncome: revenue.map((r) => r * -0.38),
        dilutedEps: revenue.map((r) => r * -0.01),
        totalEquity: repeat(5000, 7),
        cash: repeat(4000, 7),
      },
      { startYear: 2019 },
    );
    expect(e._fiscalYears).toHaveLength(7);
    expect(byKey(e, 'gross_margin').status).toBe('pass');
    expect(byKey(e, 'gross_margin').value).not.toContain('limited history');
    expect(byKey(e, 'earnings_consistency')).toMatchObject({ status: 'fail', score: 0 });
    expect(byKey(e, 'return_on_invested_capital').status).toBe('fail');
    expect(byKey(e, 'debt_sustainability').value).toBe('N/A — no borrowings reported in any year');
    expect(e.verdict).toBe('No Clear Moat Detected');
  });

  it('UBER: 8 years, losses turning to profits, cannot pass earnings consistency yet', () => {
    const e = evaluate(
      {
        revenue: grow(10000, 0.25, 8),
        netIncome: [-4000, -8500, -6800, -500, -9100, 1900, 9800, 10000],
        operatingIncome: [-3000, -8600, -4900, -3800, -1800, 1100, 2800, 4000],
      },
      { startYear: 2018 },
    );
    expect(byKey(e, 'earnings_consistency').status).toBe('fail');
    expect(byKey(e, 'net_margin').status).toBe('fail');
    expect(e._fiscalYears).toHaveLength(8);
  });

  it('SPGI: a missing fiscal year is a gap, not a zero (coverage 9 of 10 years)', () => {
    const e = evaluate(compounderColumns(), { skipYears: [2019] });
    expect(e._fiscalYears).toEqual([2015, 2016, 2017, 2018, 2020, 2021, 2022, 2023, 2024]);
    const earnings = byKey(e, 'earnings_consistency');
    expect(earnings._trendYears).not.toContain(2019);
    expect(earnings.status).toBe('pass');
    expect(e.verdict).toBe('Strong Durable Competitive Advantage');
  });

  it('WMT/TGT/KR/BBY: January fiscal year ends are keyed by the fiscal-year label', () => {
    const f = makeFundamentals({
      startYear: 2015,
      fiscalYearEnd: '01-31',
      columns: compounderColumns(),
    });
    expect(f.years[0]?.periodEnd).toBe('2016-01-31');
    const e = evaluateMoat(f);
    expect(e._fiscalYears).toEqual([2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024]);
    expect(byKey(e, 'net_margin')._trendYears).toEqual(e._fiscalYears);
    // same numbers as the December compounder: same score (the fiscal calendar does not matter)
    const december = evaluateMoat(
      makeFundamentals({ startYear: 2015, columns: compounderColumns() }),
    );
    expect(e.totalScore).toBeCloseTo(december.totalScore, 1);
  });

  it('gives no points for missing data: an empty balance sheet never passes', () => {
    const e = evaluate({ revenue: grow(100, 0.1, 10), netIncome: grow(25, 0.1, 10) });
    expect(byKey(e, 'return_on_invested_capital')).toMatchObject({
      status: 'fail',
      score: 0,
      maxScore: 12.5,
    });
    expect(byKey(e, 'return_on_invested_capital').value).toMatch(/^Insufficient data — /);
  });
});

describe('verdictFor', () => {
  it.each([
    [70, 100, 'Strong Durable Competitive Advantage'],
    [69.99, 100, 'Moderate Competitive Advantage'],
    [50, 100, 'Moderate Competitive Advantage'],
    [35, 100, 'Narrow Moat — Proceed with Caution'],
    [34.99, 100, 'No Clear Moat Detected'],
    [0, 100, 'No Clear Moat Detected'],
    // 61.25 / 87.5 = exactly 70% despite floating point
    [61.25, 87.5, 'Strong Durable Competitive Advantage'],
    [0, 0, 'No Clear Moat Detected'],
  ])('%d of %d → %s', (total, max, label) => {
    expect(verdictFor(total, max)).toBe(label);
  });

  it('rejects negative or non-finite scores', () => {
    expect(() => verdictFor(Number.NaN, 100)).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => verdictFor(-1, 100)).toThrow(MoatScoringError);
  });
});
