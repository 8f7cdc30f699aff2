import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { type Columns, grow, makeContext, repeat } from '../../test/fixtures.js';
import { assessProductDurability, revenueChanges } from './product-durability.js';

const n = 10;
/** Ratios of revenue: GM 60%, SG&A 18% (30% of GP), D&A 4.8% (8% of GP), operating margin 25%. */
function ideal(revenue: number[], overrides: Columns = {}): Columns {
  return {
    revenue,
    costOfRevenue: revenue.map((r) => r * 0.4),
    sellingGeneralAdministrative: revenue.map((r) => r * 0.18),
    depreciationAmortization: revenue.map((r) => r * 0.048),
    operatingIncome: revenue.map((r) => r * 0.25),
    netIncome: revenue.map((r) => r * 0.2),
    ...overrides,
  };
}
const context = (columns: Columns) => makeContext({ startYear: 2015, columns });

describe('assessProductDurability', () => {
  it('scores a steady grower with flat margins and a lean cost structure 100/100', () => {
    // a: worst change +5% → 1; b: median − min GM = 0 → 1; c: SG&A/GP 30% → 1, D&A/GP 8% → 1;
    // d: σ(OM) 0 → 1 → q = 1 → 12.5
    const result = outcome(assessProductDurability(context(ideal(grow(1000, 0.05, n)))));
    expect(result).toMatchObject({ score: 12.5, status: 'pass' });
    expect(result.numericValue).toBeCloseTo(100, 8);
  });

  it('weighs one −15% revenue year: q = 0.3·0.40 + 0.7 = 0.82 → 10.25', () => {
    const revenue = [1000, 1000, 1000, 1000, 850, 850, 850, 850, 850, 850];
    const result = outcome(assessProductDurability(context(ideal(revenue))));
    expect(result).toMatchObject({ score: 10.25, status: 'pass' });
    expect(result.numericValue).toBeCloseTo(82, 8);
    expect(result.value).toContain('weakest: worst revenue year -15.0%');
  });

  it('uses the operating margin for pricing power when there is no gross margin (airline)', () => {
    // a: flat revenue → 1 (weight 0.3); b: OM median 10% − min −10% = 20 pp → 0 (0.3);
    // c: no gross profit → unavailable; d: σ(OM) = sqrt((9·2² + 18²)/9) = 6.325 pp →
    // 0.40 + (8 − 6.325)/4 · 0.35 = 0.5466 (0.15). q = (0.3 + 0 + 0.082) / 0.75 = 0.5093 → 6.37
    const om = [10, 10, 10, 10, 10, -10, 10, 10, 10, 10];
    const result = outcome(
      assessProductDurability(
        context({
          revenue: repeat(1000, n),
          operatingIncome: om.map((m) => m * 10),
          netIncome: repeat(1, n),
        }),
      ),
    );
    expect(result).toMatchObject({ score: 6.37, status: 'warning' });
    expect(result.value).toContain('operating margin dipped 20.0 pp');
  });

  it('caps at warning when 2 or more of the 4 signals lack data', () => {
    // only revenue (a = 1) and nothing else → q 1, capped at 0.74 → 9.25
    const result = outcome(
      assessProductDurability(context({ revenue: grow(1000, 0.05, n), netIncome: repeat(1, n) })),
    );
    expect(result).toMatchObject({ score: 9.25, status: 'warning' });
  });

  it('measures revenue changes between consecutive fiscal years only', () => {
    const gap = makeContext({
      startYear: 2015,
      skipYears: [2017],
      columns: { revenue: [100, 110, 0, 50, 55], netIncome: repeat(1, 5) },
    });
    // 2015→2016 +10%; 2016→2018 skipped (gap); 2018→2019 +10%
    expect(revenueChanges(gap).map((c) => Number(c.toFixed(10)))).toEqual([0.1, 0.1]);
  });
});
