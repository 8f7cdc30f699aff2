import type { MoatEvaluation } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase } from '../test-support/backends.js';
import {
  type HistoryEvaluation,
  insertKeptEvaluation,
  latestKeptEvaluation,
} from './evaluation-history.js';
import { createRepositories, type Repositories } from './index.js';

const MODERATE = 'Moderate Competitive Advantage' as MoatEvaluation['verdict'];
const STRONG = 'Strong Durable Competitive Advantage' as MoatEvaluation['verdict'];

function made(symbol: string, totalScore: number, year: number): HistoryEvaluation {
  return {
    symbol,
    companyName: `${symbol} Inc.`,
    totalScore,
    maxScore: 100,
    verdict: totalScore >= 70 ? STRONG : MODERATE,
    criteria: [],
    _fiscalYears: [year - 2, year - 1, year],
    _provider: 'snapshot',
    _filings: [
      { form: '10-K', accession: `0000-${year}`, filed: `${year + 1}-02-01`, fiscalYears: [year] },
    ],
  };
}

describe.each(backends)('evaluation history on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  it('keeps every evaluation with its provenance; the latest is the last kept', async () => {
    const keep = (evaluation: HistoryEvaluation, scoreChange: number | null, evaluatedAt: Date) =>
      database.db
        .transaction()
        .execute((trx) =>
          insertKeptEvaluation(trx, { evaluation, scoreChange, trigger: 'request', evaluatedAt }),
        );
    expect(await latestKeptEvaluation(database.db, 'KOHI')).toBeUndefined();
    const first = await database.db.transaction().execute((trx) =>
      insertKeptEvaluation(trx, {
        evaluation: made('KOHI', 62.5, 2023),
        scoreChange: null,
        trigger: 'fill-cache',
        evaluatedAt: new Date('2026-01-01T00:00:00Z'),
      }),
    );
    expect(first).toMatchObject({
      symbol: 'KOHI',
      totalScore: 62.5,
      scoreChange: null,
      provider: 'snapshot',
      fiscalYears: [2021, 2022, 2023],
      filings: [{ accession: '0000-2023', filed: '2024-02-01', fiscalYears: [2023] }],
      trigger: 'fill-cache',
      cause: null,
      evaluatedAt: '2026-01-01T00:00:00.000Z',
    });
    // Same instant twice: insertion order decides which is newer.
    const at = new Date('2026-02-01T00:00:00Z');
    await keep(made('KOHI', 75, 2024), 12.5, at);
    const third = await keep(
      { ...made('KOHI', 68.75, 2024), _cached: true, _cachedAt: 'x' } as HistoryEvaluation,
      -6.25,
      at,
    );
    expect((await latestKeptEvaluation(database.db, 'KOHI'))?.id).toBe(third.id);
    await keep(made('OTHR', 10, 2024), null, at);

    const page = await repos.evaluationHistory.list('kohi', { limit: 2, offset: 0 });
    expect(page.total).toBe(3);
    expect(page.items.map((i) => [i.totalScore, i.scoreChange])).toEqual([
      [68.75, -6.25],
      [75, 12.5],
    ]);
    const rest = await repos.evaluationHistory.list('KOHI', { limit: 2, offset: 2 });
    expect(rest.items.map((i) => i.id)).toEqual([first.id]);

    const [latest, previous] = await repos.evaluationHistory.latest('KOHI', 2);
    expect(latest?.id).toBe(third.id);
    expect(latest?.evaluation).not.toHaveProperty('_cached');
    expect(latest?.evaluation._fiscalYears).toEqual([2022, 2023, 2024]);
    expect(previous?.totalScore).toBe(75);

    expect((await repos.evaluationHistory.get('kohi', first.id))?.evaluation.totalScore).toBe(62.5);
    // Another symbol's id, and a malformed id, are not found.
    expect(await repos.evaluationHistory.get('OTHR', first.id)).toBeUndefined();
    expect(await repos.evaluationHistory.get('KOHI', 'not-a-uuid')).toBeUndefined();
  });

  it('gives the cache the change since the evaluation it replaces, for the screener', async () => {
    const evaluate = (score: number) => made('SCRN', score, 2024);
    await repos.evaluations.upsert(evaluate(50));
    const once = await repos.screener.screen({ sortBy: 'symbol', limit: 100 });
    expect(once.items.find((r) => r.symbol === 'SCRN')?.scoreChange).toBeNull();
    expect((await repos.screener.screen({ minScoreChange: -100 })).items).toEqual([]);

    await repos.evaluations.upsert(evaluate(43.75));
    await repos.evaluations.upsert({ ...made('UPUP', 40, 2024) });
    await repos.evaluations.upsert({ ...made('UPUP', 52.5, 2024) });
    const fell = await repos.screener.screen({ maxScoreChange: -0.01 });
    expect(fell.items.map((r) => [r.symbol, r.scoreChange])).toEqual([['SCRN', -6.25]]);
    const rose = await repos.screener.screen({ minScoreChange: 10, maxScoreChange: 12.5 });
    expect(rose.items.map((r) => [r.symbol, r.scoreChange])).toEqual([['UPUP', 12.5]]);
    const moved = await repos.screener.screen({ minScoreChange: -10, sortBy: 'symbol' });
    expect(moved).toMatchObject({ total: 2, items: [{ symbol: 'SCRN' }, { symbol: 'UPUP' }] });
  });
});
