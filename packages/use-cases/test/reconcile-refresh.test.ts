/**
 * Issue 39 (review): a cached evaluation reconciled otherwise than the server is configured now
 * (`RECONCILE_PROVIDER` set, changed or turned off) is not computed again on a user's read: the
 * read path serves it as it is, and the refresh pass's methodology step computes it again, with a
 * change event whose cause is `methodology` (the way the server scores changed, not the
 * company). On PostgreSQL and PGlite, with two hand-made in-memory providers.
 */
import type { FundamentalsProvider } from '@svc/fundamentals-client';
import { METHODOLOGY_VERSION } from '@svc/moat-scoring';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import type { QuotaService } from '@svc/quota';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rescoreOlderMethodology } from '../src/jobs/methodology-refresh.js';
import { refreshDepsFor } from '../src/jobs/refresh.js';
import { EvaluationChangeEvent } from '../src/moat/evaluation-changes.js';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import { keepEvaluation } from '../src/moat/keep-evaluation.js';
import { disagreeing, primary } from './support/two-providers.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const now = () => new Date('2026-11-28T12:00:00Z');
const noSec = {
  dailyIndex: async () => ({ found: false as const, status: 404 }),
  tickers: async () => new Map<string, never>(),
};

describe.each(backends)('a change of RECONCILE_PROVIDER on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  /** The server's pieces with `reconcile` as its second provider (null: off). */
  function server(reconcile: FundamentalsProvider | null) {
    let fetches = 0;
    const fundamentals: FundamentalsProvider = {
      name: 'first',
      getFundamentals: (symbol, options) => {
        fetches += 1;
        return primary.provider.getFundamentals(symbol, options);
      },
    };
    const evaluate = { fundamentals, reconcile, quotes: null, now };
    const repos = createRepositories(database.db);
    const withQuota: QuotaService['withQuota'] = async (_id, _plan, _quota, work) => work();
    const service = createEvaluationService({
      ...evaluate,
      cache: repos.evaluations,
      quotas: { withQuota },
      keep: (input) => keepEvaluation(database.db, input),
    });
    const deps = refreshDepsFor(database.db, { sec: noSec, evaluate });
    const staleSymbols = deps.staleSymbols as NonNullable<typeof deps.staleSymbols>;
    return {
      read: () =>
        service.getEvaluation({ symbol: 'test', fresh: false, actor: { id: 'u1', plan: 'pro' } }),
      sweep: () => rescoreOlderMethodology({ ...deps, staleSymbols }),
      fetches: () => fetches,
      repos,
    };
  }

  const events = async () => {
    const { items } = await createRepositories(database.db).evaluationEvents.feed({
      since: new Date(0),
      symbol: 'TEST',
      limit: 50,
    });
    return items.map((item) => EvaluationChangeEvent.parse(item));
  };
  const history = async () =>
    (await createRepositories(database.db).evaluationHistory.list('TEST', { limit: 50, offset: 0 }))
      .items;

  it('serves the cached row on read and leaves it to the methodology step, whose event names the methodology', async () => {
    // kept while reconciliation was off
    const off = server(null);
    const first = await off.read();
    expect(first._cached).toBe(false);
    expect(first._reconciliation).toBeNull();
    expect(await history()).toHaveLength(1);

    // RECONCILE_PROVIDER=second: a read serves the unreconciled row, computes and keeps nothing
    const on = server(disagreeing.provider);
    const served = await on.read();
    expect(served).toMatchObject({ _cached: true, _reconciliation: null });
    expect(served.totalScore).toBe(first.totalScore);
    expect(on.fetches()).toBe(0);
    expect(await history()).toHaveLength(1);
    expect(await events()).toEqual([]);

    // the refresh pass's methodology step computes it again, once
    const swept = await on.sweep();
    expect(swept).toEqual([
      {
        symbol: 'TEST',
        outcome: 'evaluated',
        totalScore: expect.any(Number),
        previousVersion: METHODOLOGY_VERSION,
        previousReconcileProvider: null,
      },
    ]);
    expect(on.fetches()).toBe(1);
    const reconciled = (await on.repos.evaluations.get('TEST'))?.evaluation as Record<
      string,
      unknown
    > & { totalScore: number; dataQuality: { code: string }[] };
    expect(reconciled._reconciliation).toEqual({ provider: 'second', status: 'compared' });
    expect(reconciled.dataQuality.map((f) => f.code)).toContain('provider_mismatch');
    expect(reconciled.totalScore).toBeLessThan(first.totalScore);
    expect((await history())[0]).toMatchObject({ trigger: 'fill-cache' });
    // the change is the server's way of scoring, not the company: cause `methodology`
    const [switchedOn, ...none] = await events();
    expect(none).toEqual([]);
    expect(switchedOn?.data).toMatchObject({
      symbol: 'TEST',
      cause: 'methodology',
      previous: { methodologyVersion: METHODOLOGY_VERSION, reconciledWith: null },
      current: { methodologyVersion: METHODOLOGY_VERSION, reconciledWith: 'second' },
    });
    // now current: read from the cache, nothing left to sweep
    expect(await on.read()).toMatchObject({
      _cached: true,
      _reconciliation: { provider: 'second' },
    });
    expect(await on.sweep()).toEqual([]);
    expect(on.fetches()).toBe(1);

    // turned off again: served as it is on read, computed again by the step
    const offAgain = server(null);
    expect(await offAgain.read()).toMatchObject({
      _cached: true,
      _reconciliation: { provider: 'second' },
    });
    expect(offAgain.fetches()).toBe(0);
    expect(await offAgain.sweep()).toMatchObject([
      { symbol: 'TEST', outcome: 'evaluated', previousReconcileProvider: 'second' },
    ]);
    expect((await offAgain.repos.evaluations.get('TEST'))?.evaluation).toMatchObject({
      _reconciliation: null,
    });
    const all = await events();
    expect(all.map((e) => e.data.cause)).toEqual(['methodology', 'methodology']);
    expect(all[1]?.data).toMatchObject({
      previous: { reconciledWith: 'second' },
      current: { reconciledWith: null },
    });
    expect(await history()).toHaveLength(3);
  });
});
