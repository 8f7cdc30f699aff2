import { describe, expect, it } from 'vitest';
import { LruCache, memoiseAsync } from './lru-cache.js';

describe('LruCache', () => {
  it('evicts the least recently read entry past maxEntries', () => {
    const c = new LruCache<number>({ maxEntries: 2 });
    c.set('a', 1);
    c.set('b', 2);
    c.get('a');
    c.set('c', 3);
    expect([c.get('a'), c.get('b'), c.get('c'), c.size]).toEqual([1, undefined, 3, 2]);
  });

  it('expires entries after ttlMs', () => {
    let now = 0;
    const c = new LruCache<number>({ maxEntries: 5, ttlMs: 100, now: () => now });
    c.set('a', 1);
    now = 99;
    expect(c.get('a')).toBe(1);
    now = 200;
    expect(c.get('a')).toBeUndefined();
  });
});

describe('memoiseAsync', () => {
  it('shares one promise between concurrent calls and forgets rejections', async () => {
    const c = new LruCache<Promise<number>>({ maxEntries: 5 });
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
