import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaError } from './errors.js';
import { createQuotaService, type QuotaEvent, type QuotaGranted } from './quota-service.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

const MARCH = new Date('2026-03-15T12:00:00Z');
const APRIL = new Date('2026-04-02T08:00:00Z');

describe.each(backends)('quota service on $name', (backend) => {
  let database: TestDatabase;
  let clock = MARCH;
  const newUser = async () =>
    (
      await createRepositories(database.db).users.create({
        email: `${crypto.randomUUID()}@example.test`,
      })
    ).id;
  const service = (limits = {}) =>
    createQuotaService({ db: database.db, limits, now: () => clock });

  beforeAll(async () => {
    database = await backend.open({ pool: { max: 20 } });
  });
  afterAll(() => database.cleanup());

  it('grants up to the limit, then refuses with the reset instant and Retry-After', async () => {
    clock = MARCH;
    const user = await newUser();
    const quotas = service();
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await quotas.consume(user, 'free', 'ai_consult'));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true, false, false]);
    expect(results[4]).toMatchObject({ ok: true, used: 5, remaining: 0, limit: 5 });
    expect(results[6]).toEqual({
      ok: false,
      name: 'ai_consult',
      limit: 5,
      used: 5,
      periodStart: '2026-03-01T00:00:00.000Z',
      resetsAt: '2026-04-01T00:00:00.000Z',
      retryAfterSeconds: (Date.parse('2026-04-01T00:00:00Z') - MARCH.getTime()) / 1000,
    });
    clock = APRIL;
    expect(await quotas.consume(user, 'free', 'ai_consult')).toMatchObject({ ok: true, used: 1 });
  });

  it('reserve: a unit given back at most once; a refusal is the one quota_exceeded error', async () => {
    clock = MARCH;
    const user = await newUser();
    const quotas = service();
    const unit = await quotas.reserve(user, 'free', 'ai_consult');
    expect(unit.periodStart).toBe('2026-03-01T00:00:00.000Z');
    await quotas.consume(user, 'free', 'ai_consult');
    await unit.refund();
    await unit.refund();
    const used = async () =>
      (await quotas.usage(user, 'free')).find((q) => q.name === 'ai_consult');
    expect((await used())?.used).toBe(1);
    for (let i = 0; i < 4; i++) await quotas.reserve(user, 'free', 'ai_consult');
    const refused = await quotas.reserve(user, 'free', 'ai_consult').catch((e: unknown) => e);
    expect(refused).toMatchObject({
      name: 'QuotaError',
      code: 'quota_exceeded',
      message: 'quota ai_consult exhausted until 2026-04-01T00:00:00.000Z',
      denied: { ok: false, limit: 5, used: 5 },
    });
  });

  it('refuses a first consumption larger than the limit without counting it', async () => {
    clock = MARCH;
    const user = await newUser();
    const quotas = service();
    expect(await quotas.consume(user, 'free', 'stock_evaluation', 11)).toMatchObject({
      ok: false,
      used: 0,
    });
    expect(await quotas.consume(user, 'free', 'stock_evaluation', 10)).toMatchObject({
      ok: true,
      used: 10,
    });
    const zero = service({ free: { ai_consult: { limit: 0 } } });
    expect((await zero.consume(user, 'free', 'ai_consult')).ok).toBe(false);
  });

  it('keeps plans apart and reports usage per quota', async () => {
    clock = MARCH;
    const user = await newUser();
    const quotas = service();
    await quotas.consume(user, 'pro', 'stock_evaluation', 3);
    await quotas.consume(user, 'pro', 'ai_consult');
    expect(await quotas.usage(user, 'pro')).toEqual([
      { name: 'stock_evaluation', limit: 500, used: 3, resetsAt: '2026-04-01T00:00:00.000Z' },
      { name: 'ai_consult', limit: 200, used: 1, resetsAt: '2026-04-01T00:00:00.000Z' },
    ]);
    expect((await quotas.usage(await newUser(), 'free')).map((q) => q.used)).toEqual([0, 0]);
  });

  it('refunds into the granted period, never below zero', async () => {
    clock = MARCH;
    const user = await newUser();
    const quotas = service();
    const grant = (await quotas.consume(user, 'free', 'stock_evaluation', 2)) as QuotaGranted;
    clock = APRIL;
    expect(await quotas.refund(user, 'stock_evaluation', { periodStart: grant.periodStart })).toBe(
      1,
    );
    expect(
      await quotas.refund(user, 'stock_evaluation', { periodStart: grant.periodStart, units: 5 }),
    ).toBe(0);
    clock = MARCH;
    expect((await quotas.usage(user, 'free'))[0]?.used).toBe(0);
  });

  it('withQuota refunds when the work fails and throws quota_exceeded when exhausted', async () => {
    clock = MARCH;
    const user = await newUser();
    const quotas = service({ free: { ai_consult: { limit: 1 } } });
    await expect(
      quotas.withQuota(user, 'free', 'ai_consult', async () => {
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
    expect(await quotas.withQuota(user, 'free', 'ai_consult', async () => 'answer')).toBe('answer');
    const error = await quotas
      .withQuota(user, 'free', 'ai_consult', async () => 'never')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect(error).toMatchObject({
      code: 'quota_exceeded',
      denied: { name: 'ai_consult', used: 1, limit: 1 },
    });
  });

  it('reports every grant, refusal and refund to onEvent, and survives a throwing listener', async () => {
    clock = MARCH;
    const user = await newUser();
    const events: QuotaEvent[] = [];
    const quotas = createQuotaService({
      db: database.db,
      limits: { free: { ai_consult: { limit: 1 } } },
      now: () => clock,
      onEvent: (event) => {
        events.push(event);
        throw new Error('listener broken');
      },
    });
    await expect(
      quotas.withQuota(user, 'free', 'ai_consult', async () => {
        throw new Error('model down');
      }),
    ).rejects.toThrow('model down');
    expect((await quotas.consume(user, 'free', 'ai_consult')).ok).toBe(true);
    expect((await quotas.consume(user, 'free', 'ai_consult')).ok).toBe(false);
    await quotas.refund(user, 'stock_evaluation', { periodStart: MARCH });
    expect(events).toEqual([
      { outcome: 'granted', name: 'ai_consult', units: 1 },
      { outcome: 'refunded', name: 'ai_consult', units: 1 },
      { outcome: 'granted', name: 'ai_consult', units: 1 },
      { outcome: 'refused', name: 'ai_consult', units: 1 },
    ]);
  });

  it('withQuota throws the work’s error at once when the refund fails, and refunds later', async () => {
    clock = MARCH;
    const user = await newUser();
    const lost: unknown[] = [];
    const quotas = createQuotaService({
      db: database.db,
      limits: { free: { ai_consult: { limit: 1 } } },
      now: () => clock,
      refundRetryDelaysMs: [100, 100, 100, 100, 100],
      onRefundLost: (error) => lost.push(error),
    });
    // the counter's table is out of reach during the work, as it is in a database outage
    const error = await quotas
      .withQuota(user, 'free', 'ai_consult', async () => {
        await sql`alter table quota_usage rename to quota_usage_away`.execute(database.db);
        throw new Error('database gone');
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'database gone' });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await sql`alter table quota_usage_away rename to quota_usage`.execute(database.db);
    await expect.poll(async () => (await quotas.usage(user, 'free'))[1]?.used).toBe(0);
    expect(lost).toEqual([]);
  });

  it('resets one quota or all of a user’s counters', async () => {
    clock = MARCH;
    const user = await newUser();
    const other = await newUser();
    const quotas = service();
    await quotas.consume(user, 'free', 'stock_evaluation');
    await quotas.consume(user, 'free', 'ai_consult');
    await quotas.consume(other, 'free', 'ai_consult');
    expect(await quotas.reset(user, 'ai_consult')).toBe(1);
    expect((await quotas.usage(user, 'free')).map((q) => q.used)).toEqual([1, 0]);
    expect(await quotas.reset(user)).toBe(1);
    expect((await quotas.usage(other, 'free')).map((q) => q.used)).toEqual([0, 1]);
  });

  it('rejects unknown quotas and bad units', async () => {
    const quotas = service();
    const user = await newUser();
    await expect(quotas.consume(user, 'free', 'chat' as never)).rejects.toMatchObject({
      code: 'unknown_quota',
    });
    await expect(quotas.consume(user, 'free', 'ai_consult', 0)).rejects.toMatchObject({
      code: 'invalid_units',
    });
    await expect(quotas.consume(user, 'free', 'ai_consult', 1.5)).rejects.toMatchObject({
      code: 'invalid_units',
    });
  });

  it('grants exactly 10 of 50 concurrent consumptions with 10 units left, across several pools', async () => {
    clock = MARCH;
    const user = await newUser();
    const limits = { free: { stock_evaluation: { limit: 15 } } };
    // 5 units already used: 10 left.
    expect(await service(limits).consume(user, 'free', 'stock_evaluation', 5)).toMatchObject({
      ok: true,
      used: 5,
    });

    // Five pools of 10 connections each (as five server processes would have), 10 calls per pool.
    const pools = await Promise.all(
      Array.from({ length: 5 }, () => database.connectAgain({ max: 10 })),
    );
    try {
      const calls = pools.flatMap((pool) => {
        const quotas = createQuotaService({ db: pool.db, limits, now: () => clock });
        return Array.from({ length: 10 }, () => quotas.consume(user, 'free', 'stock_evaluation'));
      });
      const results = await Promise.all(calls);
      const granted = results.filter((r) => r.ok);
      expect(results).toHaveLength(50);
      expect(granted).toHaveLength(10);
      expect(granted.map((r) => r.used).sort((a, b) => a - b)).toEqual([
        6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
      ]);
      expect(results.filter((r) => !r.ok).every((r) => r.used === 15)).toBe(true);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
    expect((await service(limits).usage(user, 'free'))[0]).toMatchObject({ used: 15, limit: 15 });
  });
});
