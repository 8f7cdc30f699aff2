/**
 * Provider reconciliation in the evaluation flow (issue 39): a second provider's figures of the
 * same ticker and `asOf` reach the scoring as `reconcileWith`; when it lacks the company the
 * evaluation goes on without it and says so; the read path serves a cached evaluation reconciled
 * otherwise than the server is configured as it is (the refresh pass's methodology step computes
 * it again: `reconcile-refresh.test.ts`). Two hand-made in-memory providers.
 */
import type { FundamentalsProvider } from '@svc/fundamentals-client';
import type { CachedEvaluation } from '@svc/portfolio-store';
import { MoatEvaluation } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { evaluateCompany, RECONCILE_UNAVAILABLE } from '../src/moat/evaluate-company.js';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import type { EvaluationKeeper } from '../src/moat/keep-evaluation.js';
import { company, disagreeing, inMemory, primary } from './support/two-providers.js';

const now = () => new Date('2026-11-28T12:00:00Z');
const base = { fundamentals: primary.provider, quotes: null, now };
const capexOf = (e: { criteria: { key: string; score: number; dataQuality?: unknown }[] }) =>
  e.criteria.find((c) => c.key === 'capex_efficiency');

describe('evaluateCompany with a second provider (issue 39)', () => {
  it('passes the second provider’s figures as reconcileWith: the capex criterion is flagged and earns no points from the gap', async () => {
    const alone = await evaluateCompany('TEST', base);
    const reconciled = await evaluateCompany('TEST', { ...base, reconcile: disagreeing.provider });

    expect(alone._reconciliation).toBeNull();
    expect(alone.dataQuality.some((f) => f.code === 'provider_mismatch')).toBe(false);
    expect(reconciled._reconciliation).toEqual({ provider: 'second', status: 'compared' });
    const mismatch = reconciled.dataQuality.filter((f) => f.code === 'provider_mismatch');
    expect(mismatch).toHaveLength(1);
    expect(mismatch[0]).toMatchObject({ series: 'capitalExpenditure' });
    expect(mismatch[0]?.message).toMatch(/first .* vs second .* FY2019/);

    const capex = capexOf(reconciled);
    const capexAlone = capexOf(alone);
    expect(capex?.dataQuality).toEqual(expect.arrayContaining([mismatch[0]]));
    // scored on the provider whose figures give the lower quality: fewer points, never more
    expect(capexAlone?.score).toBeGreaterThan(0);
    expect(capex?.score).toBeLessThan(capexAlone?.score ?? 0);
    expect(reconciled.totalScore).toBeLessThan(alone.totalScore);
    // criteria that do not rest on capex are untouched
    const gross = (e: typeof alone) => e.criteria.find((c) => c.key === 'gross_margin')?.score;
    expect(gross(reconciled)).toBe(gross(alone));
    expect(MoatEvaluation.safeParse(reconciled).success).toBe(true);
  });

  it('asks the second provider for the same ticker and asOf', async () => {
    disagreeing.asked.length = 0;
    const evaluation = await evaluateCompany(
      'TEST',
      { ...base, reconcile: disagreeing.provider },
      { asOf: '2021-06-30' },
    );
    expect(disagreeing.asked).toEqual([{ symbol: 'TEST', asOf: '2021-06-30' }]);
    expect(evaluation._reconciliation?.status).toBe('compared');
  });

  it('goes on without a second provider that lacks the ticker, and says so', async () => {
    const lacking = inMemory('second', null);
    const alone = await evaluateCompany('TEST', base);
    const evaluation = await evaluateCompany('TEST', { ...base, reconcile: lacking.provider });

    expect(lacking.asked).toEqual([{ symbol: 'TEST', asOf: undefined }]);
    expect(evaluation.totalScore).toBe(alone.totalScore);
    expect(evaluation._reconciliation).toEqual({
      provider: 'second',
      status: 'unavailable',
      detail: 'second has no company TEST',
    });
    const notes = evaluation.dataQuality.filter((f) => f.code === RECONCILE_UNAVAILABLE);
    expect(notes).toEqual([
      {
        code: RECONCILE_UNAVAILABLE,
        series: 'fundamentals',
        message:
          "Not reconciled with second: second has no company TEST; scored on one provider's figures.",
      },
    ]);
    // a note about the evaluation as a whole: no criterion carries it
    for (const c of evaluation.criteria) expect(c.dataQuality ?? []).toEqual([]);
  });

  it('a second provider that cannot read asOf is not compared', async () => {
    const latestOnly: FundamentalsProvider = {
      name: 'latest-only',
      getFundamentals: async () => company('latest-only', () => 6),
    };
    const evaluation = await evaluateCompany(
      'TEST',
      { ...base, reconcile: latestOnly },
      { asOf: '2021-06-30' },
    );
    expect(evaluation._reconciliation).toMatchObject({ status: 'unavailable' });
    expect(evaluation.dataQuality.some((f) => f.code === 'provider_mismatch')).toBe(false);
  });
});

describe('the evaluation cache and reconciliation', () => {
  /** The evaluation flow over an in-memory cache, with or without the second provider. */
  function flow(rows: Map<string, CachedEvaluation>, reconcile: FundamentalsProvider | null) {
    let fetches = 0;
    const keep: EvaluationKeeper = async ({ evaluation, evaluatedAt }) => {
      rows.set(evaluation.symbol, {
        symbol: evaluation.symbol,
        evaluation,
        marketCap: null,
        cachedAt: evaluatedAt.toISOString(),
      });
      return { record: {} as never };
    };
    const fundamentals: FundamentalsProvider = {
      name: 'first',
      getFundamentals: (symbol, options) => {
        fetches += 1;
        return primary.provider.getFundamentals(symbol, options);
      },
    };
    const service = createEvaluationService({
      fundamentals,
      reconcile,
      quotes: null,
      now,
      cache: { get: async (symbol) => rows.get(symbol) },
      quotas: {
        withQuota: (_id: string, _plan: string, _quota: string, work: () => unknown) => work(),
      } as never,
      keep,
    });
    const actor = { id: 'u1', plan: 'pro' as const };
    return {
      get: () => service.getEvaluation({ symbol: 'TEST', fresh: false, actor }),
      fetches: () => fetches,
    };
  }

  it('a cached evaluation reconciled otherwise is served as it is: the read path computes nothing (the refresh pass does)', async () => {
    const rows = new Map<string, CachedEvaluation>();
    const off = flow(rows, null);
    const first = await off.get();
    expect(first._reconciliation).toBeNull();
    expect((await off.get())._cached).toBe(true);

    // the server now reconciles: the unreconciled row is served, saying it is not reconciled
    const on = flow(rows, disagreeing.provider);
    const served = await on.get();
    expect(served._cached).toBe(true);
    expect(served._reconciliation).toBeNull();
    expect(served.totalScore).toBe(first.totalScore);
    expect(on.fetches()).toBe(0);

    // a reconciled row, once the refresh pass made it, is served when reconciliation is off again
    const reconciled = await evaluateCompany('TEST', { ...base, reconcile: disagreeing.provider });
    rows.set('TEST', {
      symbol: 'TEST',
      evaluation: reconciled,
      marketCap: null,
      cachedAt: now().toISOString(),
    });
    const offAgain = flow(rows, null);
    const kept = await offAgain.get();
    expect(kept._cached).toBe(true);
    expect(kept._reconciliation).toEqual({ provider: 'second', status: 'compared' });
    expect(offAgain.fetches()).toBe(0);

    // an older methodology is still computed again on read
    rows.set('TEST', {
      symbol: 'TEST',
      evaluation: { ...reconciled, methodologyVersion: '1' },
      marketCap: null,
      cachedAt: now().toISOString(),
    });
    const rescored = await offAgain.get();
    expect(rescored._cached).toBe(false);
    expect(offAgain.fetches()).toBe(1);
  });
});
