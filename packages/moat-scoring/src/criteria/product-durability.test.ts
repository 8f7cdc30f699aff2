import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { type Columns, grow, makeContext, repeat } from '../../test/fixtures.js';
import { assessProductDurability, maxDrawdown, revenueChanges } from './product-durability.js';

const n = 10;
/**
 * Ratios of revenue: GM 60%, SG&A 18% (30% of GP), D&A 4.8% (8% of GP, inside cost of revenue and
 * SG&A as in a statement by function), operating margin 42% = GM − SG&A (a fixture leaving 17% of
 * revenue outside the three lines would read as a partial cost line: `cost-coverage.ts`).
 */
function ideal(revenue: number[], overrides: Columns = {}): Columns {
  return {
    revenue,
    costOfRevenue: revenue.map((r) => r * 0.4),
    sellingGeneralAdministrative: revenue.map((r) => r * 0.18),
    depreciationAmortization: revenue.map((r) => r * 0.048),
    operatingIncome: revenue.map((r) => r * 0.42),
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
    // a: flat revenue → 1 (weight 0.3); b: OM peak 10% − trough −10% = 20 pp → 0 (0.3);
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
    expect(result.value).toContain('operating margin fell at most 20.0 pp below its running peak');
  });

  it('does not count a margin that rises and holds as a dip (maximum drawdown, not median − min)', () => {
    // GM rising 40% → 58% by 2 pp a year: no fall below a running peak → b = 1; the old
    // median − min reading gave 49% − 40% = 9 pp → 0.1.
    const revenue = Array.from({ length: n }, () => 1000);
    const cost = revenue.map((r, i) => r * (0.6 - 0.02 * i));
    const result = outcome(
      assessProductDurability(context(ideal(revenue, { costOfRevenue: cost })), {
        roicPasses: true,
      }),
    );
    expect(result.value).not.toContain('margin fell');
    expect(maxDrawdown([0.4, 0.42, 0.44, 0.43, 0.46])).toBeCloseTo(0.01, 12);
    expect(maxDrawdown([0.3, 0.5, 0.2, 0.45])).toBeCloseTo(0.3, 12);
  });

  it('does not count revenue that falls while operating income rises (refranchising)', () => {
    // revenue −7% a year for 4 years while operating income rises 5% a year, then flat: the falls
    // are by design → worst counted change 0% → a = 1 → q = 1 → 12.5. The same falls with
    // operating income falling alongside count: worst −7% → a = 0.75 − 0.02/0.10·0.35 = 0.68.
    const revenue = [1000, 930, 864.9, 804.4, 748.1, 748.1, 748.1, 748.1, 748.1, 748.1];
    const rising = [250, 262.5, 275.6, 289.4, 303.9, 303.9, 303.9, 303.9, 303.9, 303.9];
    const byDesign = outcome(
      assessProductDurability(
        context(ideal(revenue, { operatingIncome: rising, netIncome: rising })),
        { roicPasses: true },
      ),
    );
    const shrinking = outcome(
      assessProductDurability(context(ideal(revenue)), { roicPasses: true }),
    );
    expect(shrinking.value).toContain('worst revenue year -7.0%');
    expect(byDesign.score).toBeGreaterThan(shrinking.score);
  });

  it('caps a steady thin-margin business at warning unless ROIC passes (KR vs COST)', () => {
    // Grocer: steady revenue and margins, net margin 1.6% → steadiness alone would pass.
    const revenue = grow(1000, 0.03, n);
    const grocer = ideal(revenue, { netIncome: revenue.map((r) => r * 0.016) });
    const capped = outcome(assessProductDurability(context(grocer), { roicPasses: false }));
    expect(capped).toMatchObject({ score: 9.25, status: 'warning' });
    expect(capped.value).toContain('thin margin (median net 1.6%) without ROIC ≥ 15%');
    const lowCost = outcome(assessProductDurability(context(grocer), { roicPasses: true }));
    expect(lowCost.status).toBe('pass');
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
