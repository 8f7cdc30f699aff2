import type { EvaluationRecord } from '@svc/portfolio-store';
import type { Criterion } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { diffEvaluations } from '../src/moat/evaluation-diff.js';

const NET = (score: number, value: string, trend: number[], years: number[]): Criterion => ({
  key: 'net_margin',
  name: 'Net Margin',
  status: score >= 10 ? 'pass' : 'warning',
  value,
  numericValue: trend.at(-1) ?? null,
  score,
  maxScore: 12.5,
  trend,
  _trendYears: years,
});

const GROSS: Criterion = {
  key: 'gross_margin',
  name: 'Gross Margin',
  status: 'pass',
  value: 'Median 45%',
  score: 12.5,
  maxScore: 12.5,
};

function record(
  id: string,
  criteria: Criterion[],
  filings: EvaluationRecord['filings'],
  fiscalYears: number[],
): EvaluationRecord {
  const totalScore = criteria.reduce((sum, c) => sum + c.score, 0);
  return {
    id,
    symbol: 'TEST',
    totalScore,
    maxScore: 25,
    verdict:
      totalScore >= 17.5
        ? 'Strong Durable Competitive Advantage'
        : 'Moderate Competitive Advantage',
    scoreChange: null,
    provider: 'snapshot',
    fiscalYears,
    filings,
    trigger: 'request',
    cause: null,
    evaluatedAt: '2026-01-01T00:00:00.000Z',
    evaluation: {
      symbol: 'TEST',
      companyName: 'Test Inc.',
      totalScore,
      maxScore: 25,
      verdict: 'Moderate Competitive Advantage',
      criteria,
    },
  };
}

const K2024 = { form: '10-K', accession: 'A-2024', filed: '2025-02-01', fiscalYears: [2023, 2024] };
const K2025 = { form: '10-K', accession: 'A-2025', filed: '2026-02-01', fiscalYears: [2024, 2025] };

describe('diffEvaluations', () => {
  const older = record(
    'o',
    [NET(6.25, '9.0%', [0.1, 0.3, 0.09], [2022, 2023, 2024]), GROSS],
    [K2024],
    [2022, 2023, 2024],
  );
  // FY2025 arrives; FY2024 is restated by the new 10-K; FY2022 leaves the window; 0.1 + 0.2 noise.
  const newer = record(
    'n',
    [NET(12.5, '12.0%', [0.1 + 0.2, 0.1, 0.12], [2023, 2024, 2025])],
    [K2025, K2024],
    [2023, 2024, 2025],
  );
  const diff = diffEvaluations(older, newer);

  it('gives total, verdict and the moved criteria', () => {
    expect(diff.totalScore).toEqual({ from: 18.75, to: 12.5, change: -6.25 });
    expect(diff.verdict).toEqual({
      from: 'Strong Durable Competitive Advantage',
      to: 'Moderate Competitive Advantage',
      changed: true,
    });
    expect(diff.moved).toEqual(['net_margin', 'gross_margin']);
  });

  it('names the figures that changed by fiscal year, ignoring float noise', () => {
    const net = diff.criteria.find((c) => c.key === 'net_margin');
    expect(net?.score).toEqual({ from: 6.25, to: 12.5, change: 6.25 });
    expect(net?.value).toEqual({ from: '9.0%', to: '12.0%' });
    expect(net?.numericValue.change).toBe(0.03);
    expect(net?.figures).toEqual([
      { fiscalYear: 2022, from: 0.1, to: null },
      { fiscalYear: 2024, from: 0.09, to: 0.1 },
      { fiscalYear: 2025, from: null, to: 0.12 },
    ]);
    // The filings behind those years in the newer evaluation, the new one marked.
    expect(net?.filings).toEqual([
      { form: '10-K', accession: 'A-2025', filed: '2026-02-01', new: true },
      { form: '10-K', accession: 'A-2024', filed: '2025-02-01', new: false },
    ]);
  });

  it('treats a criterion present on one side only as moved to or from nothing', () => {
    const gross = diff.criteria.find((c) => c.key === 'gross_margin');
    expect(gross).toMatchObject({
      moved: true,
      score: { from: 12.5, to: null, change: null },
      status: { from: 'pass', to: null },
      figures: [],
      filings: [],
    });
  });

  it('lists the filings and fiscal years that came and went, and says so in the summary', () => {
    expect(diff.newFilings.map((f) => f.accession)).toEqual(['A-2025']);
    expect(diff.droppedFilings).toEqual([]);
    expect(diff.newFiscalYears).toEqual([2025]);
    expect(diff.droppedFiscalYears).toEqual([2022]);
    expect(diff.summary).toBe(
      'Total 18.75 → 12.5 (-6.25); verdict Strong Durable Competitive Advantage → Moderate Competitive Advantage. ' +
        'Moved: net_margin +6.25 (FY2022; FY2024; FY2025; 10-K A-2025; 10-K A-2024), gross_margin no longer scored. ' +
        'New since the older evaluation: 10-K A-2025 filed 2026-02-01, fiscal year 2025.',
    );
  });

  it('finds nothing moved between an evaluation and itself', () => {
    const same = diffEvaluations(newer, newer);
    expect(same.moved).toEqual([]);
    expect(same.criteria.every((c) => c.figures.length === 0 && c.score.change === 0)).toBe(true);
    expect(same.summary).toBe('Total unchanged at 12.5. No criterion moved.');
  });
});
