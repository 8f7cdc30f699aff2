import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { makeContext, repeat } from '../../test/fixtures.js';
import { assessCapexEfficiency } from './capex-efficiency.js';
import { cashEarnings, earningsLabel } from './cash-earnings.js';
import { assessDebtSustainability } from './debt-sustainability.js';
import { assessNetMargin } from './net-margin.js';

const n = 5;
/** An acquirer: net income 100 after writing off 200 a year of acquired intangibles; tax 25%. */
const acquirer = (amortisation: number | null) =>
  makeContext({
    startYear: 2019,
    columns: {
      revenue: repeat(1000, n),
      pretaxIncome: repeat(400 / 3, n),
      incomeTaxExpense: repeat(100 / 3, n),
      netIncome: repeat(100, n),
      amortizationOfIntangibles: repeat(amortisation, n),
      shareBasedCompensation: repeat(50, n),
      capitalExpenditure: repeat(150, n),
      longTermDebt: repeat(1000, n),
      cash: repeat(0, n),
      interestExpense: repeat(10, n),
      operatingIncome: repeat(400 / 3 + 10, n),
    },
  });

describe('cashEarnings (issue 39)', () => {
  it('adds the amortisation of intangibles back after tax and leaves stock pay deducted', () => {
    const context = acquirer(200);
    // 100 + 200 × (1 − 25%) = 250; the 50 of stock-based compensation stays an expense.
    expect(cashEarnings(context, 4)).toBeCloseTo(250, 9);
    expect(earningsLabel(context)).toBe('cash earnings');
  });

  it('is net income when no amortisation is reported', () => {
    const context = acquirer(null);
    expect(cashEarnings(context, 4)).toBe(100);
    expect(earningsLabel(context)).toBe('net income');
  });

  it('is what debt payoff and capex intensity divide by, shown as such', () => {
    // Debt 1000 ÷ 250 = 4.0 yrs (GAAP: 10 yrs, a fail); capex 150 ÷ 250 = 60% (GAAP: 150%).
    const debt = outcome(assessDebtSustainability(acquirer(200)));
    expect(debt.numericValue).toBeCloseTo(4, 9);
    expect(debt.value).toContain('4.0 yrs of cash earnings (GAAP net income: 10.0 yrs)');
    const capex = outcome(assessCapexEfficiency(acquirer(200), { roicPasses: false }));
    expect(capex.numericValue).toBeCloseTo(60, 9);
    expect(capex.value).toContain(
      'capex 60.0% of cash earnings over 5 yrs (150.0% of GAAP net income)',
    );
    expect(outcome(assessDebtSustainability(acquirer(null))).numericValue).toBeCloseTo(10, 9);
  });

  it('shows stock-based pay beside GAAP net income, as a cost, never added back', () => {
    const margin = outcome(assessNetMargin(acquirer(200)));
    expect(margin.value).toContain('stock-based pay 50.0% of net income, kept as a cost');
    expect(margin.numericValue).toBeCloseTo(10, 9); // 100 / 1000: GAAP, untouched
  });
});
