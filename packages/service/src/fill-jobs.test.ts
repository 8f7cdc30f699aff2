import { resolve } from 'node:path';
import { createSnapshotProvider } from '@svc/fundamentals-client';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import { createQuoteSource } from '@svc/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillCacheOnJobs } from './fill-jobs.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const fundamentals = createSnapshotProvider({
  dir: resolve(SHARED, 'fundamentals/raw/companyfacts'),
});
const { quotes, splitsOf } = createQuoteSource({
  provider: 'csv',
  pricesDir: resolve(SHARED, 'prices'),
});

describe.each(backends)('fill-cache on the job queue over $name', (backend) => {
  let database: TestDatabase;
  const schema = `pgboss_${Math.random().toString(36).slice(2, 10)}`;
  beforeAll(async () => {
    database = await backend.open();
  }, 60_000);
  afterAll(async () => {
    await database.pool.query(`drop schema if exists ${schema} cascade`);
    await database.cleanup();
  });

  it('shares one fill between two workers: every ticker done once', async () => {
    const repos = createRepositories(database.db);
    const tickers = await fundamentals.listTickers();
    expect(tickers.length).toBeGreaterThanOrEqual(30);
    const common = {
      pool: database.pool,
      schema,
      evaluate: { fundamentals, quotes, splitsOf, now: () => new Date() },
      db: database.db,
      concurrency: 2,
    };
    const first = fillCacheOnJobs({ ...common, tickers: [...tickers, 'aapl'] });
    // a second process joins while the first works (here: a second pg-boss on the same database)
    const second = fillCacheOnJobs(common);
    const [a, b] = await Promise.all([first, second]);
    const done = a.evaluated + a.failed.length + b.evaluated + b.failed.length;
    expect(done).toBe(tickers.length);
    expect(a.jobs + b.jobs).toBe(Math.ceil(tickers.length / 10));
    // nothing twice: one kept evaluation per cached company
    const cached = await repos.evaluations.symbols();
    expect(cached).toHaveLength(a.evaluated + b.evaluated);
    for (const symbol of cached) {
      expect((await repos.evaluationHistory.list(symbol, { limit: 5, offset: 0 })).total).toBe(1);
    }
    // the queue is empty: a third worker finds nothing to do
    expect(await fillCacheOnJobs(common)).toEqual({ evaluated: 0, failed: [], jobs: 0 });
  }, 120_000);
});
