import { MoatEvaluation } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { evaluateMoat, METHODOLOGY_VERSION } from '../src/index.js';
import { compounderColumns, makeFundamentals } from './fixtures.js';

/* What an evaluation says it was made from (issue 39): asOf, methodologyVersion, dataQuality. */
describe('evaluateMoat: asOf, methodologyVersion and dataQuality', () => {
  const latest = makeFundamentals({ startYear: 2015, columns: compounderColumns() });

  it('stamps the methodology version and empty flag lists on the evaluation and each criterion', () => {
    const e = evaluateMoat(latest);
    expect(METHODOLOGY_VERSION).toMatch(/^\S+$/);
    expect(e.methodologyVersion).toBe(METHODOLOGY_VERSION);
    expect(e.asOf).toBeNull();
    expect(e.dataQuality).toEqual([]);
    for (const c of e.criteria) expect(c.dataQuality).toEqual([]);
    expect(MoatEvaluation.parse(e)).toMatchObject({ methodologyVersion: METHODOLOGY_VERSION });
  });

  it('carries the point in time of its fundamentals', () => {
    const e = evaluateMoat({ ...latest, asOf: '2025-06-30' });
    expect(e.asOf).toBe('2025-06-30');
    // the same figures score the same at any date: asOf only says which figures they are
    expect(e.totalScore).toBe(evaluateMoat(latest).totalScore);
  });

  it('lists the flags it is given once each, and rejects malformed ones', () => {
    const flag = {
      code: 'provider_disagreement',
      series: 'capex',
      message: 'SEC 3.1 bn, SimFin 1.2 bn',
    };
    const e = evaluateMoat(latest, { dataQuality: [flag, { ...flag }] });
    expect(e.dataQuality).toEqual([flag]);
    expect(() =>
      evaluateMoat(latest, { dataQuality: [{ code: 'Not Snake', series: 'capex', message: 'x' }] }),
    ).toThrow(
      expect.objectContaining({ code: 'invalid_argument', path: 'options.dataQuality.0.code' }),
    );
  });

  it('rejects fundamentals whose asOf is not a date', () => {
    expect(() => evaluateMoat({ ...latest, asOf: '30/06/2025' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument', path: 'fundamentals.asOf' }),
    );
  });
});
