import type { FiscalYearFigures } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { compounderColumns, makeContext, makeFundamentals, repeat } from '../../test/fixtures.js';
import { assessGrossMargin } from '../criteria/gross-margin.js';
import { evaluateMoat } from '../evaluate-moat.js';
import { PARTIAL_COST_LINE_SHARE, partialCostLine, uncoveredCostShare } from './cost-coverage.js';
import { flattenYear } from './scoring-context.js';
import type { YearValues } from './year-values.js';

/** A year of revenue 100 with the given cost of revenue, SG&A, R&D and operating income. */
function year(cost: number, sga: number | null, rnd: number | null, ebit: number): YearValues {
  return flattenYear(
    makeFundamentals({
      startYear: 2017,
      columns: {
        revenue: [100],
        costOfRevenue: [cost],
        sellingGeneralAdministrative: [sga],
        researchDevelopment: [rnd],
        operatingIncome: [ebit],
      },
    }).years[0] as FiscalYearFigures,
  );
}

/**
 * An airline as a vendor standardises it: revenue 100, a "cost of revenue" of 60 (fuel and
 * maintenance), SG&A 5, operating income 12; the other 23 of operating costs (payroll, landing
 * fees, depreciation) sit outside all three lines: 23 / 40 = 57.5% of gross profit.
 */
function airline(n = 10) {
  return {
    ...compounderColumns(n),
    revenue: repeat(100, n),
    costOfRevenue: repeat(60, n),
    sellingGeneralAdministrative: repeat(5, n),
    researchDevelopment: repeat(null, n),
    operatingIncome: repeat(12, n),
  };
}

describe('uncoveredCostShare', () => {
  it('is the share of gross profit in operating costs outside cost of revenue, SG&A and R&D', () => {
    // GP 40, EBIT 12, SG&A 5: (40 − 12 − 5) / 40
    expect(uncoveredCostShare(year(60, 5, null, 12))).toBeCloseTo(23 / 40, 12);
    // a statement by function: GP 60 = SG&A 20 + R&D 10 + EBIT 30
    expect(uncoveredCostShare(year(40, 20, 10, 30))).toBeCloseTo(0, 12);
  });

  it('is null without operating income or SG&A, or with gross profit ≤ 0', () => {
    expect(uncoveredCostShare(year(100, 5, null, -5))).toBeNull();
    // a provider that does not read the filer's SG&A tag (SEC: MNST's "operating expenses")
    // must not make a statement by function look partial
    expect(uncoveredCostShare(year(45, null, null, 25))).toBeNull();
    const noEbit = { ...year(60, 5, null, 12), operatingIncome: null };
    expect(uncoveredCostShare(noEbit)).toBeNull();
  });
});

describe('partialCostLine', () => {
  it('finds a cost of revenue that leaves out a median ≥ 25% of gross profit', () => {
    const years = repeat(0, 5).map(() => year(60, 5, null, 12));
    expect(partialCostLine(years)).toEqual({ share: 23 / 40, years: 5 });
  });

  it('leaves a statement by function alone, even with one impairment year', () => {
    // 4 years with 0% outside the three lines, one with 20 of 60 (an impairment): median 0
    const years = [...repeat(0, 4).map(() => year(40, 20, 10, 30)), year(40, 20, 10, 10)];
    expect(partialCostLine(years)).toBeNull();
  });

  it('stays just below the threshold and needs 3 years', () => {
    // GP 40, SG&A 20, EBIT 10.4: 9.6 / 40 = 24% < 25%
    const below = repeat(0, 5).map(() => year(60, 20, null, 10.4));
    expect(uncoveredCostShare(below[0] as YearValues)).toBeLessThan(PARTIAL_COST_LINE_SHARE);
    expect(partialCostLine(below)).toBeNull();
    expect(partialCostLine([year(60, 5, null, 12), year(60, 5, null, 12)])).toBeNull();
  });
});

describe('gross margin on a partial cost line', () => {
  it('is scored on operating income + SG&A + R&D, not on the vendor line, and flagged', () => {
    const context = makeContext({ startYear: 2010, columns: airline() });
    expect(context.partialCostLine?.share).toBeCloseTo(0.575, 12);
    expect(context.dataQuality?.map((f) => f.code)).toContain('cost_line_partial');
    const result = outcome(assessGrossMargin(context, { roicPasses: false }));
    // (12 + 5) / 100 = 17% < 20%: q = 0.6·0 + 0.4·0.75 = 0.30 → 3.75 fail (the vendor's 40%
    // would have been 9.38, a pass)
    expect(result).toMatchObject({ kind: 'scored', score: 3.75, status: 'fail' });
    expect(result.numericValue).toBeCloseTo(17, 10);
  });

  it('puts the flag on the gross-margin criterion of the evaluation', () => {
    const e = evaluateMoat(makeFundamentals({ startYear: 2010, columns: airline() }));
    const gm = e.criteria.find((c) => c.key === 'gross_margin');
    expect(gm?.dataQuality?.map((f) => f.code)).toEqual(['cost_line_partial']);
    expect(e.dataQuality.map((f) => f.code)).toContain('cost_line_partial');
  });

  it('leaves a statement by function unchanged (the compounder, 11.7% outside the lines)', () => {
    const context = makeContext({ startYear: 2010, columns: compounderColumns() });
    expect(context.partialCostLine).toBeNull();
    const result = outcome(assessGrossMargin(context, { roicPasses: false }));
    expect(result.numericValue).toBeCloseTo(60, 10);
  });
});
