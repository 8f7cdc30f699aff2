import type { CounterState, SharedCounter } from '@svc/portfolio-store';
import { describe, expect, it } from 'vitest';
import { batchCounter } from './batched-counter.js';

/** An exact in-memory shared counter that records its writes. */
function sharedCounter(windowMs: number, clock: { t: number }) {
  const rows = new Map<string, { points: number; endsAt: number }>();
  const writes: number[] = [];
  const read = (key: string): CounterState => {
    const row = rows.get(key);
    if (!row || row.endsAt <= clock.t) return { consumed: 0, msBeforeReset: 0 };
    return { consumed: row.points, msBeforeReset: row.endsAt - clock.t };
  };
  const counter: SharedCounter = {
    async add(key, points = 1) {
      writes.push(points);
      const row = rows.get(key);
      if (!row || row.endsAt <= clock.t) rows.set(key, { points, endsAt: clock.t + windowMs });
      else row.points += points;
      return read(key);
    },
    peek: async (key) => read(key),
    reset: async (key) => {
      rows.delete(key);
    },
  };
  return { counter, writes };
}

describe('batchCounter', () => {
  it('writes the first addition, then one batch per interval, and loses no addition', async () => {
    const clock = { t: 1_000 };
    const { counter, writes } = sharedCounter(60_000, clock);
    const batched = batchCounter(counter, { syncMs: 100, now: () => clock.t });
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) {
      seen.push((await batched.add('u')).consumed);
      clock.t += 20;
    }
    // t=1000 write(1); t=1020..1080 local; t=1100 writes the 5 pending (4 earlier + this one).
    expect(writes.slice(0, 2)).toEqual([1, 5]);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    clock.t += 100;
    expect((await batched.add('u')).consumed).toBe(11);
    expect((await counter.peek('u')).consumed).toBe(11);
  });

  it('sees the other processes’ additions at each write', async () => {
    const clock = { t: 0 };
    const { counter } = sharedCounter(60_000, clock);
    const one = batchCounter(counter, { syncMs: 100, now: () => clock.t });
    const two = batchCounter(counter, { syncMs: 100, now: () => clock.t });
    await one.add('u');
    await two.add('u');
    await two.add('u'); // local in two
    clock.t += 150;
    expect((await one.add('u')).consumed).toBe(3); // 1 + 1 written by two + its own
    expect((await two.add('u')).consumed).toBe(5); // its pending one and this one written
  });

  it('below waitFrom, answers a due addition from its tally while the write goes on', async () => {
    const clock = { t: 0 };
    const { counter, writes } = sharedCounter(60_000, clock);
    let release = () => {};
    const held: SharedCounter = {
      ...counter,
      async add(key, points) {
        // the second write is held until released: an addition that waited for it would hang
        if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return counter.add(key, points);
      },
    };
    const batched = batchCounter(held, { syncMs: 100, waitFrom: 3, now: () => clock.t });
    expect((await batched.add('u')).consumed).toBe(1); // the first addition waits
    clock.t += 150;
    expect((await batched.add('u')).consumed).toBe(2); // due, below 3: not waited for
    expect((await batched.add('u')).consumed).toBe(3); // the write under way still counts
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await counter.peek('u')).consumed).toBe(2);
    clock.t += 150;
    // due again at a tally of 4 (not below 3): waits, and the shared count has every addition
    expect((await batched.add('u')).consumed).toBe(4);
    expect((await counter.peek('u')).consumed).toBe(4);
    expect(writes).toEqual([1, 1, 2]);
  });

  it('starts over when the shared window has ended', async () => {
    const clock = { t: 0 };
    const { counter } = sharedCounter(1_000, clock);
    const batched = batchCounter(counter, { syncMs: 100, now: () => clock.t });
    await batched.add('u');
    await batched.add('u');
    clock.t += 1_500;
    expect(await batched.add('u')).toEqual({ consumed: 1, msBeforeReset: 1_000 });
  });

  it('writes every addition with syncMs 0, through add and tally alike', async () => {
    const { counter, writes } = sharedCounter(1_000, { t: 0 });
    const exact = batchCounter(counter, { syncMs: 0 });
    expect((await exact.add('u')).consumed).toBe(1);
    const tallied = exact.tally('u');
    expect(tallied).toBeInstanceOf(Promise);
    expect((await tallied).consumed).toBe(2);
    expect(writes).toEqual([1, 1]);
  });

  it('tally answers without a promise exactly when the addition waits for no write', async () => {
    const clock = { t: 0 };
    const { counter, writes } = sharedCounter(60_000, clock);
    const batched = batchCounter(counter, { syncMs: 100, waitFrom: 3, now: () => clock.t });
    const first = batched.tally('u');
    expect(first).toBeInstanceOf(Promise); // a key's first addition waits for its write
    expect(await first).toMatchObject({ consumed: 1 });
    expect(batched.tally('u')).toEqual({ consumed: 2, msBeforeReset: 60_000 }); // local
    clock.t += 150;
    // due, but the tally (3) is not below waitFrom: the write is waited for
    const due = batched.tally('u');
    expect(due).toBeInstanceOf(Promise);
    expect(await due).toMatchObject({ consumed: 3 });
    expect(writes).toEqual([1, 2]);
    // tally and add count into the same window
    expect((await batched.add('u')).consumed).toBe(4);
    expect(batched.tally('u')).toMatchObject({ consumed: 5 });
  });
});
