import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './rate-limiter.js';

describe('createMemoryRateLimiter', () => {
  it('lets `points` requests per key through in a window, then refuses with Retry-After', async () => {
    const limiter = createMemoryRateLimiter({ points: 3, durationSeconds: 60 });
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.hit('user-a'));
    expect(decisions.map((d) => d.ok)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    const denied = decisions[4];
    if (denied?.ok !== false) throw new Error('expected a refusal');
    expect(denied.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(denied.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await limiter.hit('user-b')).ok).toBe(true);
  });

  it('counts concurrent hits exactly', async () => {
    const limiter = createMemoryRateLimiter({ points: 10, durationSeconds: 60 });
    const decisions = await Promise.all(Array.from({ length: 25 }, () => limiter.hit('k')));
    expect(decisions.filter((d) => d.ok)).toHaveLength(10);
  });
});
