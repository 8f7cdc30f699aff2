import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { makeContext, makeFundamentals, repeat } from '../../test/fixtures.js';
import { isRegulatedUtility } from '../core/industry.js';
import { evaluateMoat } from '../evaluate-moat.js';
import { assessCapexEfficiency } from './capex-efficiency.js';
import { assessDebtSustainability } from './debt-sustainability.js';
import { assessReturnOnInvestedCapital } from './return-on-invested-capital.js';

const n = 10;
/**
 * A utility-shaped company: EBIT 250, interest 50 (20% of EBIT), net income 150 on equity 1,600
 * (ROE 9.375%), debt 2,000, operating cash flow 360 (18% of debt), capex 500 (333% of net income).
 */
const columns = {
  revenue: repeat(1000, n),
  costOfRevenue: repeat(400, n),
  operatingIncome: repeat(250, n),
  interestExpense: repeat(50, n),
  pretaxIncome: repeat(200, n),
  incomeTaxExpense: repeat(50, n),
  netIncome: repeat(150, n),
  operatingCashFlow: repeat(360, n),
  capitalExpenditure: repeat(500, n),
  totalEquity: repeat(1600, n),
  longTermDebt: repeat(2000, n),
  cash: repeat(0, n),
};
const utility = (sicCode: string) => makeContext({ startYear: 2010, sicCode, columns });

describe('isRegulatedUtility', () => {
  it.each([
    [{ sicCode: '4911', sector: null, industry: null }, true],
    [{ sicCode: '4931', sector: null, industry: null }, true],
    [{ sicCode: '4941', sector: null, industry: null }, true],
    // Sanitary services and cogeneration (independent power) are not rate-regulated.
    [{ sicCode: '4953', sector: null, industry: null }, false],
    [{ sicCode: '4991', sector: null, industry: null }, false],
    // A SIC code decides over a sector name.
    [{ sicCode: '2080', sector: 'Utilities', industry: null }, false],
    [{ sicCode: null, sector: 'Utilities', industry: 'Utilities - Regulated' }, true],
    [{ sicCode: null, sector: 'utilities', industry: null }, true],
    [{ sicCode: null, sector: 'Utilities', industry: 'Independent Power Producers' }, false],
    [{ sicCode: null, sector: 'Energy', industry: null }, false],
    [{ sicCode: null, sector: null, industry: null }, false],
  ])('%o → %s', (company, expected) => {
    expect(isRegulatedUtility(company)).toBe(expected);
  });
});

describe('regulated utility criteria', () => {
  it('ROE on average equity against the allowed ROE: 9.375% → q 0.825 (pass)', () => {
    // q = 0.75 + (0.09375 − 0.09) / (0.1025 − 0.09) · 0.25 = 0.825 → 10.31
    const result = outcome(assessReturnOnInvestedCapital(utility('4911')));
    expect(result).toMatchObject({ kind: 'scored', score: 10.31, status: 'pass' });
    expect(result.value).toContain('median ROE 9.4% (10/10 yrs ≥ 9%)');
    expect(result.value).toContain('regulated utility');
  });

  it('the same company outside a regulated SIC code is scored on ROIC at the 15% hurdle', () => {
    const result = outcome(assessReturnOnInvestedCapital(utility('2080')));
    expect(result.value).toContain('ROIC');
    expect(result.score).toBeLessThan(5);
  });

  it("debt on Moody's utility grid: CFO 18% of debt, interest 20% of EBIT → 8.39 (warning)", () => {
    // 0.7 · (0.40 + (0.18 − 0.13) / 0.09 · 0.35) + 0.3 · (0.75 + (1/4.5 − 0.2) / (1/4.5 − 1/6) · 0.25)
    // = 0.7 · 0.5944 + 0.3 · 0.85 = 0.6711 → 8.39
    const result = outcome(assessDebtSustainability(utility('4931')));
    expect(result).toMatchObject({ kind: 'scored', score: 8.39, status: 'warning' });
    expect(result.numericValue).toBeCloseTo(18, 6);
    expect(result.value).toContain('operating cash flow 18.0% of debt');
    // On the general rule the same debt is 13.3 years of net income: payoff part 0.
    const general = outcome(assessDebtSustainability(utility('2080')));
    expect(general.score).toBe(1.5);
  });

  it('capex efficiency is not applicable to a regulated utility (the rate base is the design)', () => {
    const result = outcome(assessCapexEfficiency(utility('4911'), { roicPasses: true }));
    expect(result.kind).toBe('not_applicable');
    expect(result.value).toContain('rate base');
    expect(outcome(assessCapexEfficiency(utility('2080'), { roicPasses: false })).kind).toBe(
      'scored',
    );
  });

  it('evaluateMoat reads the sector from the fundamentals: a utility leaves capex out of the maximum', () => {
    const fundamentals = makeFundamentals({ startYear: 2010, sicCode: '4911', columns });
    const evaluation = evaluateMoat(fundamentals);
    const capex = evaluation.criteria.find((c) => c.key === 'capex_efficiency');
    expect(capex?.maxScore).toBe(0);
    const other = evaluateMoat(makeFundamentals({ startYear: 2010, sicCode: '2080', columns }));
    expect(evaluation.totalScore / evaluation.maxScore).toBeGreaterThan(
      other.totalScore / other.maxScore,
    );
  });
});
