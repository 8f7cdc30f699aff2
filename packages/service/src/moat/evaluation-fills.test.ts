import { FundamentalsError } from '@svc/fundamentals-client';
import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import type { EvaluationRequest } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvaluationFills, type EvaluationFillsService } from './evaluation-fills.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

describe.each(backends)('the X-ray’s background fills over $name', (backend) => {
  let database: TestDatabase;
  let fills: EvaluationFillsService;
  const schema = `pgboss_${Math.random().toString(36).slice(2, 10)}`;
  const alice = { id: 'alice', plan: 'free' as const };
  const bob = { id: 'bob', plan: 'free' as const };
  const used = new Map<string, number>();
  const asked: EvaluationRequest[] = [];

  beforeAll(async () => {
    database = await backend.open();
    fills = createEvaluationFills({
      pool: database.pool,
      schema,
      // two units a period; `used` as the evaluations spent them
      quotas: {
        usage: async (userId) => [
          {
            name: 'stock_evaluation',
            limit: 2,
            used: used.get(userId) ?? 0,
            resetsAt: '2099-01-01T00:00:00.000Z',
          },
          { name: 'ai_consult', limit: 5, used: 0, resetsAt: '2099-01-01T00:00:00.000Z' },
        ],
      },
    });
  }, 60_000);
  afterAll(async () => {
    await fills.close();
    await database.pool.query(`drop schema if exists ${schema} cascade`);
    await database.cleanup();
  });

  it('queues what the quota allows once per ticker, works it as its user, remembers no data', async () => {
    const first = await fills.request(alice, ['AAPL', 'JNJ', 'ZZZZ']);
    expect(Object.fromEntries(first)).toEqual({ AAPL: 'pending', JNJ: 'pending', ZZZZ: 'quota' });
    // another user asking for a queued ticker: pending, not queued twice, no unit counted for it
    const second = await fills.request(bob, ['AAPL']);
    expect(Object.fromEntries(second)).toEqual({ AAPL: 'pending' });
    // alice's two queued jobs count against her units before they are worked
    expect(Object.fromEntries(await fills.request(alice, ['AAPL', 'KO']))).toEqual({
      AAPL: 'pending',
      KO: 'quota',
    });

    await fills.work(
      {
        async getEvaluation(request) {
          asked.push(request);
          used.set(request.actor.id, (used.get(request.actor.id) ?? 0) + 1);
          if (request.symbol === 'ZZZZ')
            throw new FundamentalsError('insufficient_data', 'no companyfacts for ZZZZ');
          return {} as never;
        },
      },
      { pollingIntervalSeconds: 0.5 },
    );
    await expect.poll(() => asked.length, { timeout: 20_000, interval: 200 }).toBe(2);
    expect(asked.map((r) => [r.symbol, r.actor.id, r.fresh]).sort()).toEqual([
      ['AAPL', 'alice', false],
      ['JNJ', 'alice', false],
    ]);
    // alice has spent her two units: ZZZZ is still refused; bob has units for it
    expect(Object.fromEntries(await fills.request(alice, ['ZZZZ']))).toEqual({ ZZZZ: 'quota' });
    expect(Object.fromEntries(await fills.request(bob, ['ZZZZ']))).toEqual({ ZZZZ: 'pending' });
    await expect.poll(() => asked.length, { timeout: 20_000, interval: 200 }).toBe(3);
    // nothing to evaluate: believed for a day, not queued again
    await expect
      .poll(async () => (await fills.request(bob, ['ZZZZ'])).get('ZZZZ'), { timeout: 10_000 })
      .toBe('no-data');
    expect(asked).toHaveLength(3);
  }, 90_000);
});
