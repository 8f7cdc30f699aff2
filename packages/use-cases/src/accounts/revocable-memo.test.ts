import { describe, expect, it } from 'vitest';
import { createRevocableMemo } from './revocable-memo.js';

interface Entry {
  id: string;
  userId: string;
  expiresAt: string | null;
}
const memo = (options: { ttlMs?: number; suspended?: boolean } = {}) =>
  createRevocableMemo<Entry>({
    ttlMs: options.ttlMs ?? 60_000,
    kind: 'token',
    identify: (entry) => entry,
    ...(options.suspended === undefined ? {} : { suspended: options.suspended }),
  });
const now = new Date('2026-11-23T12:00:00Z');
const t1 = { id: 'tok-1', userId: 'u-1', expiresAt: null };
const t2 = { id: 'tok-2', userId: 'u-1', expiresAt: null };
const t3 = { id: 'tok-3', userId: 'u-2', expiresAt: null };

describe('createRevocableMemo', () => {
  it('forgets one credential of its kind, or every credential of a user', () => {
    const m = memo();
    for (const [key, entry] of [
      ['a', t1],
      ['b', t2],
      ['c', t3],
    ] as const)
      m.set(key, entry, m.version());
    m.forget({ kind: 'session', id: 'tok-1' }); // another kind's id: nothing
    expect(m.get('a', now)).toBe(t1);
    m.forget({ kind: 'token', id: 'tok-1' });
    expect(m.get('a', now)).toBeUndefined();
    expect(m.get('b', now)).toBe(t2);
    m.forget({ kind: 'user', id: 'u-1' });
    expect(m.get('b', now)).toBeUndefined();
    expect(m.get('c', now)).toBe(t3);
  });

  it('does not remember a verification that a forget overtook', () => {
    const m = memo();
    const version = m.version(); // read before the (slow) row check
    m.forget({ kind: 'token', id: 'tok-1' }); // announced while the check ran
    m.set('a', t1, version);
    expect(m.get('a', now)).toBeUndefined();
    m.set('a', t1, m.version());
    expect(m.get('a', now)).toBe(t1);
  });

  it('remembers nothing while suspended, and forgets everything on suspension', () => {
    const m = memo();
    m.set('a', t1, m.version());
    m.suspend();
    expect(m.get('a', now)).toBeUndefined();
    m.set('a', t1, m.version());
    expect(m.get('a', now)).toBeUndefined();
    m.resume();
    expect(m.get('a', now)).toBeUndefined(); // what it knew before is gone
    m.set('a', t1, m.version());
    expect(m.get('a', now)).toBe(t1);
    expect(memo({ suspended: true }).get('a', now)).toBeUndefined();
  });

  it('never answers past the credential’s own expiry, and nothing with ttl 0', () => {
    const m = memo();
    m.set('a', { ...t1, expiresAt: '2026-11-23T12:00:00Z' }, m.version());
    expect(m.get('a', now)).toBeUndefined();
    const off = memo({ ttlMs: 0 });
    off.set('a', t1, off.version());
    expect(off.get('a', now)).toBeUndefined();
  });

  it('shares one verification among the callers of a key while it runs, until a forget', async () => {
    const m = memo();
    const settle: ((entry: Entry | undefined) => void)[] = [];
    let calls = 0;
    const verify = () => {
      calls += 1;
      return new Promise<Entry | undefined>((resolve) => settle.push(resolve));
    };
    const first = m.shared('a', m.version(), verify);
    const second = m.shared('a', m.version(), verify);
    const other = m.shared('b', m.version(), verify);
    expect(calls).toBe(2); // one for `a`, one for `b`
    m.forget({ kind: 'token', id: 'tok-9' }); // any forget: later callers verify anew
    const afterForget = m.shared('a', m.version(), verify);
    expect(calls).toBe(3);
    settle[0]?.(t1);
    settle[1]?.(t2);
    settle[2]?.(undefined);
    expect(await first).toBe(t1);
    expect(await second).toBe(t1);
    expect(await other).toBe(t2);
    expect(await afterForget).toBeUndefined();
    // settled: the next caller verifies again
    const again = m.shared('a', m.version(), async () => t3);
    expect(await again).toBe(t3);
    // a caller whose version is already stale does not join, nor become the one others join
    const stale = m.version() - 1;
    let staleCalls = 0;
    await m.shared('a', stale, async () => {
      staleCalls += 1;
      return t1;
    });
    expect(staleCalls).toBe(1);
  });

  it('shares nothing when it remembers nothing (ttl 0, suspended)', async () => {
    for (const m of [memo({ ttlMs: 0 }), memo({ suspended: true })]) {
      let calls = 0;
      const verify = async () => {
        calls += 1;
        return t1;
      };
      await Promise.all([m.shared('a', m.version(), verify), m.shared('a', m.version(), verify)]);
      expect(calls).toBe(2);
    }
  });
});
