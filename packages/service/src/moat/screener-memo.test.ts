import type { ScreenerMeta, ScreenerPage, ScreenerQuery } from '@svc/portfolio-store';
import { describe, expect, it } from 'vitest';
import { memoizeScreener } from './screener-memo.js';

function countingScreener() {
  const calls: string[] = [];
  let generation = 0;
  return {
    calls,
    bump: () => {
      generation += 1;
    },
    screener: {
      async screen(query: ScreenerQuery = {}): Promise<ScreenerPage> {
        calls.push(`screen ${JSON.stringify(query)}`);
        return { items: [], page: query.page ?? 1, limit: 20, total: generation, totalPages: 0 };
      },
      async meta(): Promise<ScreenerMeta> {
        calls.push('meta');
        return {
          count: generation,
          lastUpdatedAt: null,
          verdicts: {},
          sectors: [],
          scoreRange: { min: null, max: null },
        };
      },
    },
  };
}

describe('memoizeScreener', () => {
  it('answers an equal query (fields in any order) from memory until cleared', async () => {
    const backing = countingScreener();
    const memo = memoizeScreener(backing.screener, { ttlMs: 60_000 });
    await memo.screener.screen({ scoreMin: 50, sortBy: 'score' });
    await memo.screener.screen({ sortBy: 'score', scoreMin: 50, verdict: undefined });
    await memo.screener.meta();
    await memo.screener.meta();
    expect(backing.calls).toHaveLength(2);

    backing.bump();
    memo.clear();
    expect((await memo.screener.screen({ scoreMin: 50, sortBy: 'score' })).total).toBe(1);
    expect((await memo.screener.meta()).count).toBe(1);
    expect(backing.calls).toHaveLength(4);
  });

  it('keeps different queries apart and forgets after the TTL', async () => {
    let clock = 5_000; // lru-cache treats a start time of 0 as "no TTL"
    const backing = countingScreener();
    const memo = memoizeScreener(backing.screener, { ttlMs: 1_000, now: () => clock });
    await memo.screener.screen({ page: 1 });
    await memo.screener.screen({ page: 2 });
    await memo.screener.screen({ page: 1 });
    expect(backing.calls).toHaveLength(2);
    clock = 6_001;
    await memo.screener.screen({ page: 1 });
    expect(backing.calls).toHaveLength(3);
  });

  it('passes every call through when the TTL is 0', async () => {
    const backing = countingScreener();
    const memo = memoizeScreener(backing.screener, { ttlMs: 0 });
    await memo.screener.meta();
    await memo.screener.meta();
    expect(backing.calls).toEqual(['meta', 'meta']);
  });
});
