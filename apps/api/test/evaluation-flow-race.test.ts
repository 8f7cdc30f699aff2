import type { CachedEvaluation } from '@svc/service/testing';
import { createEvaluationService, type EvaluationKeeper } from '@svc/use-cases';
import { describe, expect, it, vi } from 'vitest';
import { countingProvider, csvQuotes } from './helpers.js';

/**
 * Regression test of the evaluation flow the app is built on: a cache read that began before a
 * concurrent fetch stored its row, and ended after that fetch left the in-flight table, must not
 * start a second fetch. The cache here answers what it held when the read began (a database
 * snapshot taken before the other transaction committed), released by hand.
 */
describe('evaluation flow: a cache read overlapping the end of a fetch', () => {
  it('reads the cache once more instead of fetching the symbol again', async () => {
    const rows = new Map<string, CachedEvaluation>();
    const gates: Promise<void>[] = [];
    const cache = {
      async get(symbol: string) {
        const snapshot = rows.get(symbol);
        const gate = gates.shift();
        if (gate) await gate;
        return gate ? snapshot : rows.get(symbol);
      },
    };
    // keeps the cache row only (this test is about the flow, not the history)
    const keep: EvaluationKeeper = async ({ evaluation, evaluatedAt }) => {
      rows.set(evaluation.symbol, {
        symbol: evaluation.symbol,
        evaluation,
        marketCap: null,
        cachedAt: evaluatedAt.toISOString(),
      });
      return {
        record: { id: evaluation.symbol } as Awaited<ReturnType<EvaluationKeeper>>['record'],
      };
    };
    const counting = countingProvider();
    const service = createEvaluationService({
      fundamentals: counting.provider,
      quotes: csvQuotes.quotes,
      splitsOf: csvQuotes.splitsOf,
      now: () => new Date('2026-03-01T00:00:00Z'),
      cache,
      keep,
      quotas: { withQuota: (_user, _plan, _name, work) => work() },
    });
    const actor = { id: 'u1', plan: 'free' as const };

    const leader = service.getEvaluation({ symbol: 'MCD', fresh: false, actor });
    await vi.waitFor(() => expect(counting.calls).toEqual(['MCD']));
    let release = () => {};
    gates.push(new Promise<void>((resolve) => (release = resolve)));
    const late = service.getEvaluation({ symbol: 'MCD', fresh: false, actor });
    const first = await leader;
    release();
    const second = await late;

    expect(counting.calls).toEqual(['MCD']);
    expect(first._cached).toBe(false);
    expect(second._cached).toBe(true);
    expect(second._cachedAt).toBe(first._cachedAt);
  });
});
