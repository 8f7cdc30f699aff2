import { describe, expect, it } from 'vitest';
import { outcome } from '../../test/criterion-helpers.js';
import { makeContext, repeat } from '../../test/fixtures.js';
import { assessGrossMargin, stabilityMultiplier, worstThreeYearDrop } from './gross-margin.js';

/** 10 years of revenue 100 with the given gross margins (percent). */
function margins(gm: (number | null)[], extra: { sicCode?: string } = {}) {
  return makeContext({
    startYear: 2015,
    sicCode: extra.sicCode,
    columns: {
      revenue: repeat(100, gm.length),
      costOfRevenue: gm.map((m) => (m === null ? null : 100 - m)),
      netIncome: repeat(10, gm.length),
    },
  });
}

describe('assessGrossMargin', () => {
  it.each([
    // q = 0.6·q(level) + 0.4·q(shift)·s(σ); flat margins: shift 0 → 0.75, σ 0 → s 1
    // 40%: 0.6·0.75 + 0.4·0.75 = 0.75 → 9.375 → 9.38 pass
    { name: 'flat 40%', gm: repeat(40, 10), roic: false, score: 9.38, status: 'pass' },
    // 60%: 0.6·1 + 0.4·0.75 = 0.90 → 11.25 pass
    { name: 'flat 60%', gm: repeat(60, 10), roic: false, score: 11.25, status: 'pass' },
    // 30%: 0.6·0.40 + 0.3 = 0.54 → 6.75 warning
    { name: 'flat 30%', gm: repeat(30, 10), roic: false, score: 6.75, status: 'warning' },
    // 15%: 0.6·0 + 0.3 = 0.30 → 3.75 fail (the < 20% cap 0.39 does not bind)
    { name: 'flat 15%', gm: repeat(15, 10), roic: false, score: 3.75, status: 'fail' },
    // 15%, σ 0 ≤ 1.5 pp and ROIC passes: low-cost operator, q = max(0.30, 0.74·0.75 = 0.555)
    // → 6.9375 → 6.94 warning
    { name: 'flat 15% low-cost', gm: repeat(15, 10), roic: true, score: 6.94, status: 'warning' },
    // 70% with one dip to 64%: median 70 → 1; shift 0 → 0.75; σ = sqrt((9·0.6² + 5.4²)/9)
    // = 1.90 pp → s 1; q = 0.9 but a 6 pp drop within 3 years caps at 0.74 → 9.25 warning
    {
      name: 'dip > 5 pp',
      gm: [70, 70, 70, 70, 70, 64, 70, 70, 70, 70],
      roic: false,
      score: 9.25,
      status: 'warning',
    },
    // 4 years at 60%: q 0.9, limited history caps at 0.74 → 9.25
    { name: '4 years', gm: repeat(60, 4), roic: false, score: 9.25, status: 'warning' },
    // 60% in 6 of 10 years: coverage 60% < 70% caps at 0.74 → 9.25
    {
      name: 'gaps',
      gm: [60, null, 60, null, 60, null, 60, null, 60, 60],
      roic: false,
      score: 9.25,
      status: 'warning',
    },
  ])('$name → $score ($status)', ({ gm, roic, score, status }) => {
    const result = outcome(assessGrossMargin(margins(gm), { roicPasses: roic }));
    expect(result).toMatchObject({ kind: 'scored', score, status });
  });

  it('reports the median in percent and the yearly margins as trend', () => {
    const result = outcome(assessGrossMargin(margins([40, 42, 44]), { roicPasses: false }));
    expect(result.numericValue).toBeCloseTo(42, 10);
    expect(result.trend?.values.map((v) => Math.round(v))).toEqual([40, 42, 44]);
    expect(result.trend?.years).toEqual([2015, 2016, 2017]);
  });

  it('explains a binding cap in the display value', () => {
    const result = outcome(
      assessGrossMargin(margins([70, 70, 70, 70, 70, 64, 70, 70, 70, 70]), { roicPasses: false }),
    );
    expect(result.value).toContain('capped: fell -6.0 pp within 3 years');
  });

  it('does not apply to banks and insurers (SIC), nor to a company with no cost-of-revenue line', () => {
    expect(
      assessGrossMargin(margins(repeat(60, 10), { sicCode: '6021' }), { roicPasses: true }).kind,
    ).toBe('not_applicable');
    expect(
      assessGrossMargin(margins(repeat(60, 10), { sicCode: '6331' }), { roicPasses: true }).kind,
    ).toBe('not_applicable');
    expect(assessGrossMargin(margins(repeat(null, 10)), { roicPasses: true })).toEqual({
      kind: 'not_applicable',
      reason: 'no cost-of-revenue line reported in any year',
    });
  });

  it('treats a line reported in only some years as missing data (fail, 0 points), not as N/A', () => {
    const result = assessGrossMargin(
      margins([60, 60, null, null, null, null, null, null, null, null]),
      { roicPasses: true },
    );
    expect(result.kind).toBe('insufficient');
  });

  it('uses reported gross profit when present', () => {
    const context = makeContext({
      startYear: 2020,
      columns: {
        revenue: repeat(200, 3),
        grossProfit: repeat(90, 3),
        costOfRevenue: repeat(1, 3),
        netIncome: repeat(1, 3),
      },
    });
    expect(outcome(assessGrossMargin(context, { roicPasses: false })).numericValue).toBeCloseTo(
      45,
      10,
    );
  });
});

describe('gross margin helpers', () => {
  it.each([
    [0.02, 1],
    [0.03, 1],
    [0.04, 0.9],
    [0.06, 0.7],
    [0.09, 0.5],
  ])('stabilityMultiplier(%d) = %d', (stdev, expected) => {
    expect(stabilityMultiplier(stdev)).toBe(expected);
  });

  it('finds the worst fall within a 3-year window only', () => {
    // pairs at most 2 years apart: 2016→2018 0.50→0.46 = 4 pp, 2017→2019 0.48→0.40 = 8 pp;
    // 2016→2019 0.50→0.40 = 10 pp spans 3 years and is ignored → worst 8 pp
    const series = { years: [2015, 2016, 2017, 2018, 2019], values: [0.5, 0.5, 0.48, 0.46, 0.4] };
    expect(worstThreeYearDrop(series)).toBeCloseTo(0.08, 10);
  });
});
