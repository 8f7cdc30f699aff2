import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.js';
import { createRepositories } from '../repositories/index.js';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import {
  listenForSessionChanges,
  parseSessionChange,
  type SessionChange,
} from './session-changes.js';
import { createSharedCounter } from './shared-counter.js';

describe('parseSessionChange', () => {
  it.each([
    [
      'session:6f1c2d4e-8a9b-4c3d-9e1f-0a1b2c3d4e5f',
      { kind: 'session', id: '6f1c2d4e-8a9b-4c3d-9e1f-0a1b2c3d4e5f' },
    ],
    [
      'user:6F1C2D4E-8A9B-4C3D-9E1F-0A1B2C3D4E5F',
      { kind: 'user', id: '6f1c2d4e-8a9b-4c3d-9e1f-0a1b2c3d4e5f' },
    ],
    [
      'token:6f1c2d4e-8a9b-4c3d-9e1f-0a1b2c3d4e5f',
      { kind: 'token', id: '6f1c2d4e-8a9b-4c3d-9e1f-0a1b2c3d4e5f' },
    ],
    ['group:6f1c2d4e-8a9b-4c3d-9e1f-0a1b2c3d4e5f', undefined],
    ['session:1', undefined],
    [undefined, undefined],
  ])('%s', (payload, expected) => {
    expect(parseSessionChange(payload)).toEqual(expected);
  });
});

describe.each(backends)('shared counters on $name', (backend) => {
  let database: TestDatabase;
  let other: Database;
  beforeAll(async () => {
    database = await backend.open({ pool: { max: 10 } });
    other = await database.connectAgain({ max: 10 });
  }, 60_000);
  afterAll(async () => {
    await other.close();
    await database.cleanup();
  });

  it('counts 60 concurrent additions from two pools exactly, per key and prefix', async () => {
    const options = { keyPrefix: 'test', points: 5, durationSeconds: 60 };
    const one = createSharedCounter(database, options);
    const two = createSharedCounter(other, options);
    const elsewhere = createSharedCounter(database, { ...options, keyPrefix: 'other' });
    const states = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? one : two).add('k1')),
    );
    // Every addition saw a distinct count: none was lost or doubled.
    expect(states.map((s) => s.consumed).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    expect((await two.peek('k1')).consumed).toBe(60);
    const window = (await one.peek('k1')).msBeforeReset;
    expect(window).toBeGreaterThan(0);
    expect(window).toBeLessThanOrEqual(60_000);
    expect((await elsewhere.peek('k1')).consumed).toBe(0);
    await one.reset('k1');
    expect(await two.peek('k1')).toEqual({ consumed: 0, msBeforeReset: 0 });
  });

  it('commits an addition asynchronously and leaves the pool’s connections synchronous', async () => {
    const single = await database.connectAgain({ max: 1 });
    try {
      const counter = createSharedCounter(single, {
        keyPrefix: 'async',
        points: 5,
        durationSeconds: 60,
      });
      expect((await counter.add('k')).consumed).toBe(1);
      expect((await counter.add('k', 2)).consumed).toBe(3);
      // the one connection ran the upserts; its own setting (other statements) is untouched
      const shown = await single.pool.query('show synchronous_commit');
      expect(shown.rows[0].synchronous_commit).toBe('on');
    } finally {
      await single.close();
    }
  });

  it('starts a new window once the old one has ended', async () => {
    const counter = createSharedCounter(database, {
      keyPrefix: 'short',
      points: 1,
      durationSeconds: 0.2,
    });
    await counter.add('k');
    await counter.add('k');
    expect((await counter.peek('k')).consumed).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await counter.peek('k')).consumed).toBe(0);
    expect((await counter.add('k')).consumed).toBe(1);
  });

  it('counts long keys and keys with NUL or non-ASCII characters under their hash', async () => {
    const counter = createSharedCounter(database, {
      keyPrefix: 'odd',
      points: 1,
      durationSeconds: 60,
    });
    const long = `::1|${'x'.repeat(400)}@example.test`;
    for (const key of [long, 'a\u0000b', 'zoë@example.test']) {
      expect((await counter.add(key)).consumed).toBe(1);
      expect((await counter.add(key)).consumed).toBe(2);
    }
    expect((await counter.peek('a\u0000c')).consumed).toBe(0);
  });

  it('refuses a malformed prefix', () => {
    expect(() =>
      createSharedCounter(database, { keyPrefix: 'a b', points: 1, durationSeconds: 1 }),
    ).toThrow(/keyPrefix/);
  });
});

const postgres = backends.find((b) => b.name === 'postgres');
const databaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

describe.runIf(postgres)('session changes announced through PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).open();
  }, 60_000);
  afterAll(() => database.cleanup());

  it('delivers revocations, deletions and plan changes to a listener on another connection', async () => {
    const repos = createRepositories(database.db);
    const seen: SessionChange[] = [];
    const listening: boolean[] = [];
    const listener = listenForSessionChanges({
      databaseUrl,
      onChange: (change) => seen.push(change),
      onListening: (on) => listening.push(on),
    });
    try {
      await expect.poll(() => listener.listening, { timeout: 5_000 }).toBe(true);
      const user = await repos.users.create({ email: uniqueEmail('notify'), plan: 'free' });
      const expiresAt = new Date(Date.now() + 3_600_000);
      const a = await repos.sessions.create(user.id, { expiresAt, userAgent: null, ip: '::1' });
      const b = await repos.sessions.create(user.id, { expiresAt, userAgent: null, ip: '::1' });
      await repos.sessions.revoke(user.id, a.id, new Date());
      // A second revocation of the same row changes nothing and announces nothing.
      await repos.sessions.revoke(user.id, a.id, new Date());
      await database.db
        .updateTable('users')
        .set({ plan: 'pro' })
        .where('id', '=', user.id)
        .execute();
      await database.db.deleteFrom('sessions').where('id', '=', b.id).execute();
      const token = await repos.tokens.create(user.id, {
        name: 'agent',
        prefix: 'svc_pat_abcd',
        tokenHash: `hash-${user.id}`,
        expiresAt,
        scopes: ['moat:read'],
      });
      // a change of scopes is announced like a revocation; writing the same scopes is not
      await repos.tokens.updateScopes(user.id, token.id, ['moat:read', 'moat:fresh']);
      await repos.tokens.updateScopes(user.id, token.id, ['moat:read', 'moat:fresh']);
      await repos.tokens.revoke(user.id, token.id, new Date());
      const ids = [a.id, b.id, user.id, token.id];
      const mine = () => seen.filter((c) => ids.includes(c.id));
      await expect.poll(mine, { timeout: 5_000 }).toEqual([
        { kind: 'session', id: a.id },
        { kind: 'user', id: user.id },
        { kind: 'session', id: b.id },
        { kind: 'token', id: token.id },
        { kind: 'token', id: token.id },
      ]);
    } finally {
      await listener.close();
    }
    expect(listening).toEqual([true, false]);
  });

  it('reports not listening while it cannot connect, and keeps retrying', async () => {
    const errors: Error[] = [];
    const listener = listenForSessionChanges({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
      onChange: () => {},
      onError: (error) => errors.push(error),
      retryMs: 50,
    });
    await expect.poll(() => errors.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(listener.listening).toBe(false);
    await listener.close();
  });
});
