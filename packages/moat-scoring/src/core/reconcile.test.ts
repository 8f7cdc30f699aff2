import { describe, expect, it } from 'vitest';
import { compounderColumns, makeFundamentals } from '../../test/fixtures.js';
import { evaluateMoat } from '../evaluate-moat.js';
import { mismatchFlags, reconcileProviders, withSecondaryFigures } from './reconcile.js';

const columns = compounderColumns(10);
const primary = { ...makeFundamentals({ startYear: 2010, columns }), provider: 'simfin' };
/** The same company from a second provider whose capex is three times higher in 2017–2019. */
function secondaryWith(capexFactor: number, years: readonly number[] = [2017, 2018, 2019]) {
  const capex = (columns.capitalExpenditure as number[]).map((c, i) =>
    years.includes(2010 + i) ? c * capexFactor : c,
  );
  return {
    ...makeFundamentals({ startYear: 2010, columns: { ...columns, capitalExpenditure: capex } }),
    provider: 'sec-edgar',
  };
}

describe('reconcileProviders', () => {
  it('lists the years where a series differs beyond the tolerance, and only those', () => {
    const found = reconcileProviders(primary, secondaryWith(3));
    expect(found.map((d) => [d.series, d.fiscalYear])).toEqual([
      ['capitalExpenditure', 2017],
      ['capitalExpenditure', 2018],
      ['capitalExpenditure', 2019],
    ]);
    expect(found[0]?.secondary).toBeCloseTo(3 * (found[0]?.primary ?? 0), 6);
  });

  it('a gap within 15% is no dispute, nor a year outside the window', () => {
    expect(reconcileProviders(primary, secondaryWith(1.1))).toEqual([]);
    expect(reconcileProviders(primary, secondaryWith(3), { fiscalYears: [2012, 2013] })).toEqual(
      [],
    );
  });

  it('compares total debt, so a current portion moved between the lines is no dispute', () => {
    const moved = makeFundamentals({
      startYear: 2010,
      columns: {
        ...columns,
        shortTermDebt: (columns.shortTermDebt as number[]).map(() => 0),
        longTermDebt: (columns.longTermDebt as number[]).map(
          (d, i) => d + ((columns.shortTermDebt as number[])[i] ?? 0),
        ),
      },
    });
    expect(reconcileProviders(primary, moved)).toEqual([]);
  });

  it('one provider_mismatch flag per series, with both figures', () => {
    const secondary = secondaryWith(3);
    const flags = mismatchFlags(reconcileProviders(primary, secondary), primary, secondary);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ code: 'provider_mismatch', series: 'capitalExpenditure' });
    expect(flags[0]?.message).toMatch(
      /^capex: simfin \$\d.*vs sec-edgar \$\d.* in FY2019 \(67% apart\); also FY2017, FY2018/,
    );
  });

  it('withSecondaryFigures puts the other figures in for the disputed years only', () => {
    const secondary = secondaryWith(3);
    const swapped = withSecondaryFigures(
      primary,
      secondary,
      reconcileProviders(primary, secondary),
    );
    expect(swapped.years[9]?.capitalExpenditure).toEqual(secondary.years[9]?.capitalExpenditure);
    expect(swapped.years[6]?.capitalExpenditure).toEqual(secondary.years[6]?.capitalExpenditure);
    expect(swapped.years[5]?.capitalExpenditure).toEqual(primary.years[5]?.capitalExpenditure);
    expect(swapped.years[9]?.netIncome).toEqual(primary.years[9]?.netIncome);
  });
});

describe('evaluateMoat with reconcileWith', () => {
  it('flags the criteria resting on the disputed series and scores them on the lower side', () => {
    const alone = evaluateMoat(primary);
    const reconciled = evaluateMoat(primary, { reconcileWith: secondaryWith(6) });
    const capex = reconciled.criteria.find((c) => c.key === 'capex_efficiency');
    const capexAlone = alone.criteria.find((c) => c.key === 'capex_efficiency');
    expect(capex?.dataQuality?.map((f) => f.code)).toEqual(['provider_mismatch']);
    expect(capex?.score).toBeLessThan(capexAlone?.score ?? 0);
    expect(capex?.value).toContain(
      "with sec-edgar's figures for the disputed FY2017, FY2018, FY2019",
    );
    expect(reconciled.dataQuality.map((f) => f.code)).toContain('provider_mismatch');
    // A criterion not resting on capex is untouched.
    const margin = (e: typeof alone) => e.criteria.find((c) => c.key === 'net_margin');
    expect(margin(reconciled)).toEqual(margin(alone));
  });

  it('the gap never earns points: a second provider with lower capex changes no score', () => {
    const lower = secondaryWith(0.2);
    const reconciled = evaluateMoat(primary, { reconcileWith: lower });
    const alone = evaluateMoat(primary);
    expect(reconciled.totalScore).toBe(alone.totalScore);
    expect(reconciled.dataQuality.map((f) => f.code)).toContain('provider_mismatch');
  });

  it('agreeing providers: the same evaluation as without reconciliation', () => {
    expect(evaluateMoat(primary, { reconcileWith: secondaryWith(1) })).toEqual(
      evaluateMoat(primary),
    );
  });

  it('rejects a malformed second provider with invalid_argument', () => {
    expect(() =>
      evaluateMoat(primary, { reconcileWith: { nope: 1 } as unknown as typeof primary }),
    ).toThrow(/options\.reconcileWith/);
  });
});
