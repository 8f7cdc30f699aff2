import type { CachedEvaluation } from '@svc/portfolio-store';
import type { MoatEvaluation } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { memoizeEvaluationCache } from './evaluation-memo.js';

const row = (symbol: string): CachedEvaluation => ({
  symbol,
  evaluation: { symbol } as MoatEvaluation,
  marketCap: null,
  cachedAt: '2026-01-01T00:00:00.000Z',
});

describe('memoizeEvaluationCache getMany', () => {
  it('serves remembered rows and asks the cache once for the others', async () => {
    const asked: string[][] = [];
    const table = new Map(['AAPL', 'JNJ', 'PG'].map((s) => [s, row(s)]));
    const memo = memoizeEvaluationCache(
      {
        get: async (symbol) => table.get(symbol),
        async getMany(symbols) {
          asked.push([...symbols]);
          return symbols.flatMap((s) => table.get(s) ?? []);
        },
      },
      { ttlMs: 60_000 },
    );
    await memo.get('AAPL');
    const first = await memo.getMany(['AAPL', 'JNJ', 'NOPE']);
    expect(first.map((r) => r.symbol).sort()).toEqual(['AAPL', 'JNJ']);
    expect(asked).toEqual([['JNJ', 'NOPE']]);
    // JNJ is remembered now; a missing symbol is always asked again (another process may fill it)
    await memo.getMany(['JNJ', 'NOPE']);
    expect(asked).toEqual([['JNJ', 'NOPE'], ['NOPE']]);
    expect(await memo.getMany(['AAPL', 'JNJ'])).toHaveLength(2);
    expect(asked).toHaveLength(2);
  });
});
