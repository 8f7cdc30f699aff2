import { createSnapshotProvider, type FundamentalsProvider } from '@svc/fundamentals-client';
import {
  createDatabase,
  createRepositories,
  type Database,
  migrateToLatest,
} from '@svc/portfolio-store';
import { createFundamentalsProvider, createQuoteSource } from '@svc/providers';
import { MoatEvaluation } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FillCacheProgress, fillEvaluationCache } from '../src/jobs/fill-cache.js';
import { COMPANYFACTS_DIR, PRICES_DIR, SHARED_DATA_DIR } from './shared-data.js';
import { withFault } from './support/faults.js';

let database: Database;
let repos: ReturnType<typeof createRepositories>;
const snapshot = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
const now = () => new Date('2026-11-21T10:00:00Z');

beforeAll(async () => {
  database = await createDatabase({});
  await migrateToLatest(database.db);
  repos = createRepositories(database.db);
});
afterAll(() => database.close());

describe('fillEvaluationCache (PGlite, real companyfacts and prices)', () => {
  it('evaluates and stores each ticker, reports the unknown one, and feeds the screener', async () => {
    const progress: FillCacheProgress[] = [];
    const summary = await fillEvaluationCache({
      tickers: ['AAPL', 'ZZZZ', 'mnst', 'BF.B', 'BF-B', 'F'],
      evaluate: { fundamentals: snapshot, quotes, splitsOf, now },
      db: database.db,
      concurrency: 2,
      onProgress: (p) => progress.push(p),
    });

    expect(summary.evaluated).toBe(4);
    expect(summary.failed).toEqual([
      { ticker: 'ZZZZ', code: 'insufficient_data', message: expect.stringContaining('ZZZZ') },
    ]);
    // BF.B and BF-B are one company: five distinct tickers, five progress events.
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.every((p) => p.total === 5)).toBe(true);
    expect(progress.find((p) => p.ticker === 'ZZZZ')?.failure?.code).toBe('insufficient_data');

    const aapl = await repos.evaluations.get('AAPL');
    expect(aapl?.cachedAt).toBe('2026-11-21T10:00:00.000Z');
    expect(MoatEvaluation.safeParse(aapl?.evaluation).success).toBe(true);
    expect(aapl?.evaluation.companyName).toBe('Apple Inc.');
    // Apple's market value has been above $1 trillion since 2020 (price × ~15 billion shares).
    expect(Number(aapl?.marketCap)).toBeGreaterThan(1e12);
    expect(await repos.evaluations.get('ZZZZ')).toBeUndefined();

    const page = await repos.screener.screen({ sortBy: 'symbol' });
    expect(page.total).toBe(4);
    expect(page.items.map((r) => r.symbol)).toEqual(['AAPL', 'BF-B', 'F', 'MNST']);
    const byScore = await repos.screener.screen({});
    const scores = byScore.items.map((r) => r.totalScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const row of page.items) {
      const cached = await repos.evaluations.get(row.symbol);
      expect(row.totalScore).toBe(cached?.evaluation.totalScore);
      expect(row.verdict).toBe(cached?.evaluation.verdict);
    }
  });

  it('upserts: a second run replaces the rows instead of adding to them', async () => {
    const later = () => new Date('2026-11-22T10:00:00Z');
    const summary = await fillEvaluationCache({
      tickers: ['AAPL'],
      evaluate: { fundamentals: snapshot, quotes, splitsOf, now: later },
      db: database.db,
    });
    expect(summary).toEqual({ evaluated: 1, failed: [] });
    expect((await repos.evaluations.get('AAPL'))?.cachedAt).toBe('2026-11-22T10:00:00.000Z');
    expect((await repos.screener.screen({})).total).toBe(4);
  });

  it('keeps at most `concurrency` evaluations in flight and goes on past failures', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow: FundamentalsProvider = {
      name: 'slow',
      async getFundamentals(ticker, options) {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        return snapshot.getFundamentals(ticker, options);
      },
    };
    const stored: string[] = [];
    let analyzed = 0;
    const watched = withFault(database.db, (statement) => {
      if (statement.into === 'evaluation_cache') stored.push(String(statement.index));
      if (statement.kind === 'RawNode' && stored.length === 5) analyzed += 1;
      return false;
    });
    const summary = await fillEvaluationCache({
      tickers: ['AAPL', 'bad symbol', 'MNST', 'F', 'GM', 'KR', 'NOPE'],
      evaluate: { fundamentals: slow, quotes: null, now },
      db: watched.db,
      concurrency: 3,
    });
    expect(peak).toBe(3);
    // five cache rows, and after the last one the planner statistics (`analyze`), once
    expect(stored).toHaveLength(5);
    expect(analyzed).toBe(1);
    for (const symbol of ['GM', 'KR']) {
      expect((await repos.evaluations.get(symbol))?.evaluation.symbol).toBe(symbol);
    }
    expect(summary.failed.map((f) => [f.ticker, f.code])).toEqual([
      ['bad symbol', 'invalid_symbol'],
      ['NOPE', 'insufficient_data'],
    ]);
  });

  it('records a failing cache write as a failure of that ticker, keeping nothing of it', async () => {
    const kept = (await repos.evaluationHistory.list('PG', { limit: 1, offset: 0 })).total;
    const faulty = withFault(database.db, (statement) => statement.into === 'evaluation_cache');
    const summary = await fillEvaluationCache({
      tickers: ['PG'],
      evaluate: { fundamentals: snapshot, quotes: null, now },
      db: faulty.db,
    });
    expect(summary).toEqual({
      evaluated: 0,
      failed: [
        { ticker: 'PG', code: 'internal', message: expect.stringContaining('evaluation_cache') },
      ],
    });
    // one unit of work: the history row written before the cache row was rolled back with it
    expect((await repos.evaluationHistory.list('PG', { limit: 1, offset: 0 })).total).toBe(kept);
    expect(await repos.evaluations.get('PG')).toBeUndefined();
  });

  it('rejects a concurrency below 1', async () => {
    await expect(
      fillEvaluationCache({
        tickers: ['AAPL'],
        evaluate: { fundamentals: snapshot, quotes: null, now },
        db: database.db,
        concurrency: 0,
      }),
    ).rejects.toThrow(RangeError);
  });
});

describe('fillEvaluationCache with the simfin provider (real SimFin bulk CSVs)', () => {
  it('evaluates SimFin companies into the cache, named by ticker', async () => {
    const simfin = createFundamentalsProvider({
      provider: 'simfin',
      simfinDir: `${SHARED_DATA_DIR}/fundamentals/raw/simfin_us_annual_2021-04`,
    });
    expect(simfin.name).toBe('simfin');
    const summary = await fillEvaluationCache({
      tickers: ['KO', 'MCO', 'NOPE'],
      evaluate: { fundamentals: simfin, quotes: null, now },
      db: database.db,
    });
    expect(summary.evaluated).toBe(2);
    expect(summary.failed.map((f) => f.code)).toEqual(['insufficient_data']);
    const ko = (await repos.evaluations.get('KO'))?.evaluation as MoatEvaluation & {
      _provider?: string;
      _fiscalYears?: number[];
    };
    expect(ko).toMatchObject({ symbol: 'KO', companyName: 'KO', _provider: 'simfin' });
    expect(ko._fiscalYears).toContain(2019);
  });
});
