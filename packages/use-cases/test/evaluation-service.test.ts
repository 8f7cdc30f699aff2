import { createSnapshotProvider, type FundamentalsProvider } from '@svc/fundamentals-client';
import {
  createDatabase,
  createRepositories,
  type Database,
  migrateToLatest,
} from '@svc/portfolio-store';
import { createQuoteSource } from '@svc/providers';
import { createQuotaService, QuotaError } from '@svc/quota';
import { MoatEvaluation, TICKER_SYMBOL_RULE } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UseCaseError } from '../src/errors.js';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import { type KeepEvaluationInput, keepEvaluation } from '../src/moat/keep-evaluation.js';
import { COMPANYFACTS_DIR, PRICES_DIR } from './shared-data.js';

let database: Database;
let repos: ReturnType<typeof createRepositories>;
const calls: string[] = [];
const snapshot = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
const counting: FundamentalsProvider = {
  name: snapshot.name,
  getFundamentals(ticker, options) {
    calls.push(ticker);
    return snapshot.getFundamentals(ticker, options);
  },
};
const now = () => new Date('2026-11-21T10:00:00Z');

beforeAll(async () => {
  database = await createDatabase({});
  await migrateToLatest(database.db);
  repos = createRepositories(database.db);
});
afterAll(() => database.close());

async function newUser(email: string, plan: 'free' | 'pro' = 'pro') {
  const user = await repos.users.create({ email, name: email, plan });
  return { id: user.id, plan: user.plan };
}

function service(limits?: Parameters<typeof createQuotaService>[0]['limits']) {
  const quotas = createQuotaService({ db: database.db, limits, now });
  const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
  return {
    quotas,
    evaluations: createEvaluationService({
      fundamentals: counting,
      quotes,
      splitsOf,
      now,
      cache: repos.evaluations,
      quotas,
      keep: (input) => keepEvaluation(database.db, input),
    }),
  };
}

describe('evaluation flow with cache and quota (PGlite)', () => {
  it('fetches on a miss (one quota unit), then serves the cache to anyone for free', async () => {
    const { evaluations, quotas } = service();
    const alice = await newUser('alice@example.com');
    const bob = await newUser('bob@example.com');
    calls.length = 0;

    const first = await evaluations.getEvaluation({ symbol: 'aapl', fresh: false, actor: alice });
    expect(first._cached).toBe(false);
    expect(first.symbol).toBe('AAPL');
    expect(MoatEvaluation.safeParse(first).success).toBe(true);
    expect(calls).toEqual(['AAPL']);

    const second = await evaluations.getEvaluation({ symbol: 'AAPL', fresh: false, actor: bob });
    expect(second._cached).toBe(true);
    expect(second._cachedAt).toBe(first._cachedAt);
    expect(second.totalScore).toBe(first.totalScore);
    expect(calls).toEqual(['AAPL']);

    const usage = async (id: string) =>
      (await quotas.usage(id, 'pro')).find((q) => q.name === 'stock_evaluation')?.used;
    expect(await usage(alice.id)).toBe(1);
    expect(await usage(bob.id)).toBe(0);

    const fresh = await evaluations.getEvaluation({ symbol: 'AAPL', fresh: true, actor: bob });
    expect(fresh._cached).toBe(false);
    expect(calls).toEqual(['AAPL', 'AAPL']);
    expect(await usage(bob.id)).toBe(1);
  });

  it('gives the unit back when the fetch fails (unknown ticker)', async () => {
    const { evaluations, quotas } = service();
    const carol = await newUser('carol@example.com');
    await expect(
      evaluations.getEvaluation({ symbol: 'NOPE', fresh: false, actor: carol }),
    ).rejects.toMatchObject({ code: 'insufficient_data' });
    const used = (await quotas.usage(carol.id, 'pro')).find((q) => q.name === 'stock_evaluation');
    expect(used?.used).toBe(0);
  });

  it('rejects a malformed symbol before any quota or fetch', async () => {
    const { evaluations } = service();
    const dave = await newUser('dave@example.com');
    calls.length = 0;
    const error = await evaluations
      .getEvaluation({ symbol: 'A;DROP', fresh: false, actor: dave })
      .catch((e: unknown) => e);
    // the one ticker rule of @svc/schemas, as the same problem a provider's invalid_symbol makes
    expect(error).toBeInstanceOf(UseCaseError);
    expect(error).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'symbol', message: TICKER_SYMBOL_RULE }],
    });
    expect(calls).toEqual([]);
  });

  it('fetches once, and charges once, for concurrent requests of the same uncached symbol', async () => {
    const { evaluations, quotas } = service();
    const erin = await newUser('erin@example.com');
    calls.length = 0;
    const served = await Promise.all(
      Array.from({ length: 5 }, () =>
        evaluations.getEvaluation({ symbol: 'MCD', fresh: false, actor: erin }),
      ),
    );
    expect(calls).toEqual(['MCD']);
    expect(new Set(served.map((s) => s.totalScore)).size).toBe(1);
    // Only the request that caused the fetch paid for it.
    const used = (await quotas.usage(erin.id, 'pro')).find((q) => q.name === 'stock_evaluation');
    expect(used?.used).toBe(1);
  });

  it('refuses with quota_exceeded when the plan has no units left, and fetches nothing', async () => {
    const { evaluations } = service({ free: { stock_evaluation: { limit: 0 } } });
    const frank = await newUser('frank@example.com', 'free');
    calls.length = 0;
    const error = await evaluations
      .getEvaluation({ symbol: 'COST', fresh: true, actor: frank })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as QuotaError).code).toBe('quota_exceeded');
    expect(calls).toEqual([]);
  });

  it('served: a cache hit or a fetch under way, else null, never fetching nor spending quota', async () => {
    // The provider holds the fetch until released: served() is asked while it is surely under way.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = () => {};
    const fetchStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const quotas = createQuotaService({ db: database.db, now });
    const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
    const evaluations = createEvaluationService({
      fundamentals: {
        name: snapshot.name,
        async getFundamentals(ticker, options) {
          calls.push(ticker);
          started();
          await held;
          return snapshot.getFundamentals(ticker, options);
        },
      },
      quotes,
      splitsOf,
      now,
      cache: repos.evaluations,
      quotas,
      keep: (input) => keepEvaluation(database.db, input),
    });
    const grace = await newUser('grace@example.com');
    calls.length = 0;
    const stockUnits = async () =>
      (await quotas.usage(grace.id, 'pro')).find((q) => q.name === 'stock_evaluation')?.used;

    expect(await evaluations.served('bby')).toBeNull();
    expect(calls).toEqual([]);

    const fetching = evaluations.getEvaluation({ symbol: 'BBY', fresh: false, actor: grace });
    await fetchStarted;
    const joining = evaluations.served('BBY');
    release();
    const fetched = await fetching;
    expect(await joining).toEqual(fetched);
    expect(calls).toEqual(['BBY']);

    const hit = await evaluations.served('bby');
    expect(hit).toMatchObject({ symbol: 'BBY', _cached: true, _cachedAt: fetched._cachedAt });
    expect(calls).toEqual(['BBY']);
    expect(await stockUnits()).toBe(1);
  });

  it('builds the served shape once per cache row object (a memoised row is not copied again)', async () => {
    const user = await newUser('served-once@example.com');
    await service().evaluations.getEvaluation({ symbol: 'MCD', fresh: false, actor: user });
    const row = await repos.evaluations.get('MCD');
    if (!row) throw new Error('MCD was not cached');
    // a memo in front of the cache hands out the same row object until it expires or changes
    const sameRow = { get: async () => row };
    const keep = (input: KeepEvaluationInput) => keepEvaluation(database.db, input);
    const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
    const evaluations = createEvaluationService({
      fundamentals: counting,
      quotes,
      splitsOf,
      now,
      cache: sameRow,
      quotas: createQuotaService({ db: database.db, now }),
      keep,
    });
    const first = await evaluations.getEvaluation({ symbol: 'mcd', fresh: false, actor: user });
    const second = await evaluations.getEvaluation({ symbol: 'MCD', fresh: false, actor: user });
    expect(second).toBe(first);
    expect(first).toMatchObject({ symbol: 'MCD', _cached: true, _cachedAt: row.cachedAt });
    // a new row object (the cache was written again) gives a new served object
    const third = await createEvaluationService({
      fundamentals: counting,
      quotes,
      splitsOf,
      now,
      cache: { get: async () => ({ ...row }) },
      quotas: createQuotaService({ db: database.db, now }),
      keep,
    }).getEvaluation({ symbol: 'MCD', fresh: false, actor: user });
    expect(third).not.toBe(first);
    expect(third).toEqual(first);
  });
});
