import { CRITERION_KEYS, Fundamentals, MoatEvaluation } from '@svc/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateMoat, MoatScoringError, verdictFor } from '../src/index.js';
import { denseFundamentalsArb, fundamentalsArb } from './arbitraries.js';

/** Every number anywhere in a value, with its path. */
function numbersIn(value: unknown, path = '$'): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersIn(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${path}.${k}`));
  }
  return [];
}

/** Checks the invariants; returns whether an evaluation (rather than the error) came out. */
function checkInvariants(fundamentals: Fundamentals): boolean {
  expect(Fundamentals.safeParse(fundamentals).success).toBe(true);
  let evaluation: ReturnType<typeof evaluateMoat>;
  try {
    evaluation = evaluateMoat(fundamentals);
  } catch (error) {
    expect(error).toBeInstanceOf(MoatScoringError);
    expect((error as MoatScoringError).code).toBe('insufficient_data');
    return false;
  }
  const parsed = MoatEvaluation.safeParse(evaluation);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(numbersIn(evaluation).filter(([, n]) => !Number.isFinite(n))).toEqual([]);
  expect(evaluation.criteria.map((c) => c.key)).toEqual([...CRITERION_KEYS]);
  let sum = 0;
  let max = 0;
  for (const c of evaluation.criteria) {
    expect(c.score).toBeGreaterThanOrEqual(0);
    expect(c.score).toBeLessThanOrEqual(c.maxScore);
    expect([0, 12.5]).toContain(c.maxScore);
    expect(Math.round(c.score * 100)).toBeCloseTo(c.score * 100, 6);
    expect(c.trend?.length).toBe(c._trendYears?.length);
    if (c.maxScore === 0) {
      expect(c.status).toBe('warning');
      expect(c.score).toBe(0);
      expect(c.numericValue).toBeNull();
      expect(c.value.startsWith('N/A — ')).toBe(true);
    }
    if (c.status === 'pass') expect(c.score).toBeGreaterThanOrEqual(9.37);
    if (c.status === 'fail') expect(c.score).toBeLessThanOrEqual(5);
    sum += c.score;
    max += c.maxScore;
  }
  expect(evaluation.totalScore).toBeCloseTo(sum, 9);
  expect(evaluation.maxScore).toBeCloseTo(max, 9);
  expect(evaluation.totalScore).toBeLessThanOrEqual(evaluation.maxScore);
  expect(evaluation.criteriaCount).toBe(evaluation.criteria.filter((c) => c.maxScore > 0).length);
  expect(evaluation.passedCount).toBe(
    evaluation.criteria.filter((c) => c.status === 'pass').length,
  );
  const percent =
    evaluation.maxScore === 0 ? 0 : (evaluation.totalScore / evaluation.maxScore) * 100;
  const expected =
    percent >= 70 - 1e-9
      ? 'Strong Durable Competitive Advantage'
      : percent >= 50 - 1e-9
        ? 'Moderate Competitive Advantage'
        : percent >= 35 - 1e-9
          ? 'Narrow Moat — Proceed with Caution'
          : 'No Clear Moat Detected';
  expect(evaluation.verdict).toBe(expected);
  expect(verdictFor(evaluation.totalScore, evaluation.maxScore)).toBe(expected);
  return true;
}

describe('evaluateMoat invariants (fast-check)', () => {
  it('holds for any schema-valid input: bounded scores, exact total, verdict, 8 keys, finite, valid schema', () => {
    fc.assert(
      fc.property(fundamentalsArb, (f) => {
        checkInvariants(f);
      }),
      { numRuns: 600 },
    );
  }, 60_000); // CPU-bound runs; on a loaded shared machine they outlast the 5 s default

  it('holds for dense realistic inputs (the scored paths)', () => {
    let scoredRuns = 0;
    fc.assert(
      fc.property(denseFundamentalsArb, (f) => {
        if (checkInvariants(f)) scoredRuns += 1;
      }),
      { numRuns: 400 },
    );
    expect(scoredRuns).toBe(400);
  }, 60_000); // CPU-bound runs; on a loaded shared machine they outlast the 5 s default

  it('is deterministic: the same input gives the same output', () => {
    fc.assert(
      fc.property(denseFundamentalsArb, (f) => {
        expect(evaluateMoat(f)).toEqual(evaluateMoat(structuredClone(f)));
      }),
      { numRuns: 50 },
    );
  });
});
