import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { type Columns, grow, makeContext, repeat } from '../../test/fixtures.js';
import { assessCapexEfficiency, maintenanceCapex } from './capex-efficiency.js';

const n = 10;
function company(columns: Columns, sicCode?: string) {
  return makeContext({
    startYear: 2015,
    sicCode,
    columns: { revenue: repeat(1000, n), ...columns },
  });
}

describe('assessCapexEfficiency', () => {
  it.each([
    // Σ capex / Σ NI = 20% → beyond the 25% excellent anchor → 1 → 12.5
    {
      name: '20%',
      capex: repeat(20, n),
      ni: repeat(100, n),
      score: 12.5,
      status: 'pass',
      ratio: 20,
    },
    // 50% → 0.75 → 9.38
    {
      name: '50%',
      capex: repeat(50, n),
      ni: repeat(100, n),
      score: 9.38,
      status: 'pass',
      ratio: 50,
    },
    // 90% → (100 − 90)/25 · 0.40 = 0.16 → 2.00
    { name: '90%', capex: repeat(90, n), ni: repeat(100, n), score: 2, status: 'fail', ratio: 90 },
    // loss years count through the sums: Σ NI = 8·100 − 2·300 = 200, Σ capex 200 → 100% → 0
    {
      name: 'losses',
      capex: repeat(20, n),
      ni: [...repeat(100, 8), -300, -300],
      score: 0,
      status: 'fail',
      ratio: 100,
    },
    // negative capex (a filing error) is read as its magnitude: same as 50%
    {
      name: 'sign error',
      capex: repeat(-50, n),
      ni: repeat(100, n),
      score: 9.38,
      status: 'pass',
      ratio: 50,
    },
  ])('$name → $score ($status)', ({ capex, ni, score, status, ratio }) => {
    const result = outcome(
      assessCapexEfficiency(company({ capitalExpenditure: capex, netIncome: ni }), {
        roicPasses: false,
      }),
    );
    expect(result).toMatchObject({ kind: 'scored', score, status });
    expect(result.numericValue).toBeCloseTo(ratio, 8);
  });

  it('says when the capex is net of disposals (SimFin), and scores the same ratio', () => {
    const context = company({ capitalExpenditure: repeat(20, n), netIncome: repeat(100, n) });
    const net = outcome(
      assessCapexEfficiency(
        { ...context, capexScope: { netOfDisposalsYears: n } },
        { roicPasses: false },
      ),
    );
    expect(net.value).toBe(
      'capex 20.0% of net income over 10 yrs; capex net of disposals in 10 yrs, not gross purchases',
    );
    expect(net.score).toBe(12.5);
    const gross = outcome(assessCapexEfficiency(context, { roicPasses: false }));
    expect(gross.value).toBe('capex 20.0% of net income over 10 yrs');
  });

  it('scores 0 with n/m when cumulative net income is not positive', () => {
    const result = outcome(
      assessCapexEfficiency(
        company({ capitalExpenditure: repeat(10, n), netIncome: repeat(-5, n) }),
        { roicPasses: true },
      ),
    );
    expect(result).toMatchObject({ score: 0, status: 'fail', numericValue: null });
  });

  it('sets growth capex aside only for a fast-growing company whose ROIC passes', () => {
    const revenue = grow(1000, 0.1, n);
    const columns: Columns = {
      revenue,
      netIncome: revenue.map((r) => r * 0.1),
      capitalExpenditure: revenue.map((r) => r * 0.08),
      depreciationAmortization: revenue.map((r) => r * 0.03),
      propertyPlantEquipmentNet: revenue.map((r) => r * 0.5),
    };
    const plain = outcome(assessCapexEfficiency(company(columns), { roicPasses: false }));
    const adjusted = outcome(assessCapexEfficiency(company(columns), { roicPasses: true }));
    // all capex: Σ 0.08·r / Σ 0.1·r = 80%
    expect(plain.numericValue).toBeCloseTo(80, 8);
    // from year 2: growth capex = 0.5 · 0.1·r(t−1) = 0.04545·r(t) → maintenance 0.03455·r(t) < 80%
    expect(adjusted.numericValue ?? 100).toBeLessThan(50);
    expect(adjusted.value).toContain('growth capex set aside');
  });

  it('computes Greenwald maintenance capex', () => {
    // PP&E/revenue of the prior years 0.5; revenue +100 → growth capex 50 → maintenance 80 − 50 = 30
    const context = makeContext({
      startYear: 2015,
      columns: {
        revenue: [1000, 1000, 1100],
        netIncome: [1, 1, 1],
        propertyPlantEquipmentNet: [500, 500, 550],
      },
    });
    expect(maintenanceCapex(context, 2, 80)).toBeCloseTo(30, 10);
    expect(maintenanceCapex(context, 2, 40)).toBe(0);
    expect(maintenanceCapex(context, 0, 80)).toBe(80);
  });

  it('does not apply to insurers, nor without any capex line', () => {
    expect(
      assessCapexEfficiency(
        company({ netIncome: repeat(1, n), capitalExpenditure: repeat(1, n) }, '6311'),
        { roicPasses: true },
      ).kind,
    ).toBe('not_applicable');
    expect(
      assessCapexEfficiency(company({ netIncome: repeat(1, n) }), { roicPasses: true }).kind,
    ).toBe('not_applicable');
  });
});
