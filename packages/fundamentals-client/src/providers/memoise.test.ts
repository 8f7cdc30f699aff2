import { describe, expect, it } from 'vitest';
import { createLoadCache, memoiseAsync } from './memoise.js';

describe('createLoadCache', () => {
  it('evicts the least recently read entry past maxEntries', async () => {
    const c = createLoadCache<number>({ maxEntries: 2 });
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
    ] as const)
      await memoiseAsync(c, key, async () => value);
    c.get('a');
    await memoiseAsync(c, 'c', async () => 3);
    expect([c.has('a'), c.has('b'), c.has('c'), c.size]).toEqual([true, false, true, 2]);
  });

  it('expires entries after ttlMs', async () => {
    let now = 1_000;
    const c = createLoadCache<number>({ maxEntries: 5, ttlMs: 100, now: () => now });
    let loads = 0;
    const load = async () => ++loads;
    await memoiseAsync(c, 'a', load);
    now = 1_099;
    await expect(memoiseAsync(c, 'a', load)).resolves.toBe(1);
    now = 1_200;
    await expect(memoiseAsync(c, 'a', load)).resolves.toBe(2);
  });
});

describe('memoiseAsync', () => {
  it('shares one promise between concurrent calls and forgets rejections', async () => {
    const c = createLoadCache<number>({ maxEntries: 5 });
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('down'));
    };
    await Promise.allSettled([memoiseAsync(c, 'k', failing), memoiseAsync(c, 'k', failing)]);
    expect(calls).toBe(1);
    await expect(memoiseAsync(c, 'k', async () => 7)).resolves.toBe(7);
  });
});
