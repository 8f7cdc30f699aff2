import { describe, expect, it } from 'vitest';
import { compounderColumns, makeFundamentals } from '../../test/fixtures.js';
import { evaluateMoat } from '../evaluate-moat.js';
import { ppeRollForward, withImpliedCapex } from './ppe-roll-forward.js';
import { flattenYear } from './scoring-context.js';

/** The flattened years of a fixture, before any scoring (the roll-forward's input). */
const yearsOf = (options: Parameters<typeof makeFundamentals>[0]) =>
  makeFundamentals(options).years.map(flattenYear);

// An airline-like company whose provider's capex leaves out flight equipment: PP&E grows by
// 200 a year while the reported capex is 80 (DAL on SimFin, FY2019: PP&E +2,975 M, capex 1,592 M).
const airline = (capex: number) => ({
  startYear: 2015,
  columns: {
    propertyPlantEquipmentNet: [1000, 1200, 1400, 1600, 1800, 2000],
    capitalExpenditure: [capex, capex, capex, capex, capex, capex],
    depreciationAmortization: [100, 100, 100, 100, 100, 100],
    revenue: [1000, 1000, 1000, 1000, 1000, 1000],
    netIncome: [100, 100, 100, 100, 100, 100],
  },
});

describe('ppeRollForward', () => {
  it('flags capex that cannot explain PP&E growth even before depreciation', () => {
    const check = ppeRollForward(yearsOf(airline(80)));
    expect(check).toMatchObject({
      pairs: 5,
      unexplainedYears: [2016, 2017, 2018, 2019, 2020],
      excess: 600,
      capex: 400,
      flagged: true,
    });
  });

  it('does not flag capex that explains the growth, nor one acquisition year', () => {
    expect(ppeRollForward(yearsOf(airline(300))).flagged).toBe(false);
    const oneDeal = airline(300);
    oneDeal.columns.propertyPlantEquipmentNet = [1000, 1200, 2400, 2500, 2600, 2700];
    const check = ppeRollForward(yearsOf(oneDeal));
    expect(check.unexplainedYears).toEqual([2017]);
    expect(check.flagged).toBe(false);
  });

  it('skips pairs across a gap or without PP&E', () => {
    const gappy = airline(80);
    gappy.columns.propertyPlantEquipmentNet = [1000, null, 1400, 1600, 1800, 2000] as never;
    const check = ppeRollForward(yearsOf({ ...gappy, skipYears: [2018] }));
    // 2016 and 2017 lack PP&E at one end; 2018 is missing, so 2019 has no previous year.
    expect(check.pairs).toBe(1);
    expect(check.flagged).toBe(false);
  });

  it('scores a flagged window on the PP&E growth, the least capex that explains it', () => {
    const raw = yearsOf(airline(80));
    const { years, raisedYears } = withImpliedCapex(raw, ppeRollForward(raw));
    expect(raisedYears).toBe(5);
    expect(years.map((y) => y.capitalExpenditure)).toEqual([80, 200, 200, 200, 200, 200]);
  });
});

describe('evaluateMoat with a capex that cannot explain PP&E growth', () => {
  it('says so on the evaluation and on the criteria resting on capex, and earns no points from the gap', () => {
    const e = evaluateMoat(makeFundamentals(airline(80)));
    expect(e.dataQuality).toEqual([
      expect.objectContaining({ code: 'capex_below_ppe_growth', series: 'capitalExpenditure' }),
    ]);
    const capex = e.criteria.find((c) => c.key === 'capex_efficiency');
    expect(capex?.dataQuality.map((q) => q.code)).toEqual(['capex_below_ppe_growth']);
    // Σ capex scored: 80 + 5 × 200 = 1,080 of Σ net income 600 → 180%, 0 points (80 would pass).
    expect(capex?.numericValue).toBeCloseTo(180, 6);
    expect(capex?.score).toBe(0);
    expect(capex?.value).toContain('PP&E roll-forward in 5 yrs');
    expect(e.criteria.find((c) => c.key === 'retained_earnings')?.dataQuality).toHaveLength(1);
    expect(e.criteria.find((c) => c.key === 'gross_margin')?.dataQuality).toEqual([]);
  });

  it('leaves a clean company without flags', () => {
    const e = evaluateMoat(makeFundamentals({ startYear: 2015, columns: compounderColumns() }));
    expect(e.dataQuality).toEqual([]);
    expect(e.criteria.every((c) => c.dataQuality.length === 0)).toBe(true);
  });
});
