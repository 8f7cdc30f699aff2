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

describe('memoizeEvaluationCache get', () => {
  /** A cache whose reads wait until `settle` is called, counting them. */
  const slowCache = () => {
    const pending: ((row: CachedEvaluation | undefined) => void)[] = [];
    let reads = 0;
    return {
      pending,
      reads: () => reads,
      cache: {
        get: (_symbol: string) => {
          reads += 1;
          return new Promise<CachedEvaluation | undefined>((resolve) => pending.push(resolve));
        },
        getMany: async () => [],
      },
    };
  };

  it('shares one read among the requests for a symbol that arrive while it runs', async () => {
    const slow = slowCache();
    const memo = memoizeEvaluationCache(slow.cache, { ttlMs: 60_000 });
    const together = [memo.get('AAPL'), memo.get('AAPL'), memo.get('AAPL')];
    expect(slow.reads()).toBe(1);
    const aapl = row('AAPL');
    slow.pending[0]?.(aapl);
    expect(await Promise.all(together)).toEqual([aapl, aapl, aapl]);
    expect(await memo.get('AAPL')).toBe(aapl); // remembered: no read
    expect(slow.reads()).toBe(1);
  });

  it('neither joins nor remembers a read that began before a forget', async () => {
    const slow = slowCache();
    const memo = memoizeEvaluationCache(slow.cache, { ttlMs: 60_000 });
    const before = memo.get('AAPL');
    memo.forget('AAPL'); // the row was written meanwhile
    const after = memo.get('AAPL');
    expect(slow.reads()).toBe(2);
    const old = row('AAPL');
    const fresh = { ...row('AAPL'), cachedAt: '2026-02-01T00:00:00.000Z' };
    slow.pending[1]?.(fresh);
    slow.pending[0]?.(old);
    expect(await before).toBe(old);
    expect(await after).toBe(fresh);
    expect(await memo.get('AAPL')).toBe(fresh); // the older read did not overwrite it
    expect(slow.reads()).toBe(2);
  });

  it('lets the next request read again after a failed read', async () => {
    let reads = 0;
    const memo = memoizeEvaluationCache(
      {
        get: async () => {
          reads += 1;
          if (reads === 1) throw new Error('down');
          return row('AAPL');
        },
        getMany: async () => [],
      },
      { ttlMs: 60_000 },
    );
    await expect(memo.get('AAPL')).rejects.toThrow('down');
    expect((await memo.get('AAPL'))?.symbol).toBe('AAPL');
    expect(reads).toBe(2);
  });
});
