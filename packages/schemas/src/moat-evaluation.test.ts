import { describe, expect, it } from 'vitest';
import {
  CRITERION_KEYS,
  MoatEvaluation,
  VERDICT_BANDS,
  VERDICT_LABELS,
} from './moat-evaluation.js';

const criterion = {
  key: 'gross_margin',
  name: 'Gross Margin',
  status: 'pass',
  value: '43.1%',
  numericValue: 43.1,
  score: 12.5,
  maxScore: 12.5,
} as const;

describe('MoatEvaluation schema', () => {
  it('accepts a minimal evaluation and keeps extension fields', () => {
    const parsed = MoatEvaluation.parse({
      symbol: 'AAPL',
      companyName: 'Apple Inc.',
      totalScore: 12.5,
      maxScore: 12.5,
      verdict: 'Strong Durable Competitive Advantage',
      criteria: [criterion],
      _fiscalYears: [2025],
    });
    expect(parsed._fiscalYears).toEqual([2025]);
  });

  it('rejects unknown verdicts, criterion keys and out-of-range scores', () => {
    const base = { symbol: 'X', companyName: 'X', totalScore: 0, maxScore: 100, criteria: [] };
    expect(MoatEvaluation.safeParse({ ...base, verdict: 'Great' }).success).toBe(false);
    expect(
      MoatEvaluation.safeParse({
        ...base,
        verdict: 'No Clear Moat Detected',
        criteria: [{ ...criterion, key: 'roe' }],
      }).success,
    ).toBe(false);
    expect(
      MoatEvaluation.safeParse({
        ...base,
        verdict: 'No Clear Moat Detected',
        criteria: [{ ...criterion, score: 13 }],
      }).success,
    ).toBe(false);
  });

  it('lists 8 criterion keys and verdict bands in the order of the spec', () => {
    expect(CRITERION_KEYS).toHaveLength(8);
    expect(VERDICT_BANDS.map((b) => b.label)).toEqual([...VERDICT_LABELS]);
    expect(VERDICT_BANDS.map((b) => b.minPercent)).toEqual([70, 50, 35, 0]);
  });
});
