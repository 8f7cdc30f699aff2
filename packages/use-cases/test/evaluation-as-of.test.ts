import { createSnapshotProvider, type FundamentalsProvider } from '@svc/fundamentals-client';
import { METHODOLOGY_VERSION } from '@svc/moat-scoring';
import {
  createDatabase,
  createRepositories,
  type Database,
  migrateToLatest,
} from '@svc/portfolio-store';
import { createQuoteSource } from '@svc/providers';
import { createQuotaService } from '@svc/quota';
import { PROBLEMS, ServedEvaluation } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import { keepEvaluation } from '../src/moat/keep-evaluation.js';
import { toServiceError } from '../src/problems.js';
import { COMPANYFACTS_DIR, PRICES_DIR } from './shared-data.js';

/* Evaluations as of a date and by methodology version (issue 39), on the real AAPL/SNOW files. */
let database: Database;
let repos: ReturnType<typeof createRepositories>;
const calls: string[] = [];
let failing = false;
const snapshot = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
const counting: FundamentalsProvider = {
  name: snapshot.name,
  getFundamentals(ticker, options) {
    calls.push(options?.asOf ? `${ticker}@${options.asOf}` : ticker);
    if (failing) return Promise.reject(new Error('provider down'));
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

async function newUser(email: string) {
  const user = await repos.users.create({ email, name: email, plan: 'pro' });
  return { id: user.id, plan: user.plan };
}

function service() {
  const quotas = createQuotaService({ db: database.db, now });
  const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
  const evaluations = createEvaluationService({
    fundamentals: counting,
    quotes,
    splitsOf,
    now,
    cache: repos.evaluations,
    asOfCache: repos.evaluations,
    keep: (input) => keepEvaluation(database.db, input),
    quotas,
  });
  const used = async (id: string) =>
    (await quotas.usage(id, 'pro')).find((q) => q.name === 'stock_evaluation')?.used;
  return { evaluations, used };
}

describe('evaluation as of a date', () => {
  it('scores the figures filed by then, caches them apart and serves them free afterwards', async () => {
    const { evaluations, used } = service();
    const alice = await newUser('asof-alice@example.com');
    const bob = await newUser('asof-bob@example.com');
    calls.length = 0;
    const first = await evaluations.getEvaluation({
      symbol: 'aapl',
      fresh: false,
      actor: alice,
      asOf: '2019-06-30',
    });
    expect(ServedEvaluation.parse(first)).toMatchObject({
      symbol: 'AAPL',
      asOf: '2019-06-30',
      methodologyVersion: METHODOLOGY_VERSION,
      dataQuality: [],
      _cached: false,
    });
    expect(first._fiscalYears?.at(-1)).toBe(2018);
    for (const filing of first._filings ?? []) expect(filing.filed <= '2019-06-30').toBe(true);
    // the price is the close on or before the date (Friday 28 June 2019)
    expect(first.valuation).toMatchObject({ _priceAsOf: '2019-06-28' });
    expect(calls).toEqual(['AAPL@2019-06-30']);
    expect(await used(alice.id)).toBe(1);

    const again = await evaluations.getEvaluation({
      symbol: 'AAPL',
      fresh: false,
      actor: bob,
      asOf: '2019-06-30',
    });
    expect(again).toMatchObject({
      _cached: true,
      totalScore: first.totalScore,
      asOf: '2019-06-30',
    });
    expect(calls).toEqual(['AAPL@2019-06-30']);
    expect(await used(bob.id)).toBe(0);

    // apart from the latest evaluation: neither its cache row nor its history was touched
    expect(await repos.evaluations.get('AAPL')).toBeUndefined();
    expect((await repos.evaluationHistory.list('AAPL', { limit: 5, offset: 0 })).items).toEqual([]);
    const latest = await evaluations.getEvaluation({ symbol: 'AAPL', fresh: false, actor: bob });
    expect(latest).toMatchObject({ _cached: false, asOf: null });
    expect(latest._fiscalYears?.at(-1)).toBe(2025);
    // another day is another evaluation
    const earlier = await evaluations.getEvaluation({
      symbol: 'AAPL',
      fresh: false,
      actor: bob,
      asOf: '2015-06-30',
    });
    expect(earlier._fiscalYears?.at(-1)).toBe(2014);
    expect(calls).toEqual(['AAPL@2019-06-30', 'AAPL', 'AAPL@2015-06-30']);
  });

  it('answers insufficient_history (422) when too few years were filed by then, and gives the unit back', async () => {
    const { evaluations, used } = service();
    const carol = await newUser('asof-carol@example.com');
    const error = await evaluations
      .getEvaluation({ symbol: 'SNOW', fresh: false, actor: carol, asOf: '2019-06-30' })
      .catch((e: unknown) => e);
    const problem = toServiceError(error);
    expect(problem?.code).toBe('insufficient_history');
    expect(PROBLEMS.insufficient_history.status).toBe(422);
    expect(await used(carol.id)).toBe(0);
    expect(await repos.evaluations.getAsOf('SNOW', '2019-06-30')).toBeUndefined();
  });

  it('reads a day in the future as today: the answer says today', async () => {
    const { evaluations } = service();
    const dave = await newUser('asof-dave@example.com');
    const today = now().toISOString().slice(0, 10);
    const later = await evaluations.getEvaluation({
      symbol: 'AAPL',
      fresh: false,
      actor: dave,
      asOf: '2999-01-01',
    });
    expect(later.asOf).toBe(today);
  });
});

describe('a provider that cannot read a point in time', () => {
  it('is refused rather than passing its latest figures off as the past', async () => {
    const quotas = createQuotaService({ db: database.db, now });
    const latestOnly: FundamentalsProvider = {
      name: 'latest-only',
      getFundamentals: (ticker) => snapshot.getFundamentals(ticker),
    };
    const evaluations = createEvaluationService({
      fundamentals: latestOnly,
      quotes: null,
      now,
      cache: repos.evaluations,
      asOfCache: repos.evaluations,
      keep: (input) => keepEvaluation(database.db, input),
      quotas,
    });
    const frank = await newUser('asof-frank@example.com');
    await expect(
      evaluations.getEvaluation({ symbol: 'AAPL', fresh: false, actor: frank, asOf: '2016-06-30' }),
    ).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'asOf' }] });
    expect(await repos.evaluations.getAsOf('AAPL', '2016-06-30')).toBeUndefined();
  });
});

describe('evaluations of an older methodology', () => {
  it('are computed again on read, free, and kept; the stored one is served when that fails', async () => {
    const { evaluations, used } = service();
    const erin = await newUser('method-erin@example.com');
    const current = await evaluations.getEvaluation({ symbol: 'JNJ', fresh: false, actor: erin });
    expect(await used(erin.id)).toBe(1);
    const { _cached, _cachedAt, ...stored } = current;
    // as cached before versions were recorded, with another score
    const { methodologyVersion: _v, ...older } = { ...stored, totalScore: 12.5 };
    await repos.evaluations.upsert(older, { cachedAt: new Date('2026-01-01T00:00:00Z') });

    failing = true;
    try {
      const served = await evaluations.getEvaluation({ symbol: 'JNJ', fresh: false, actor: erin });
      expect(served).toMatchObject({ _cached: true, totalScore: 12.5 });
      expect(served.methodologyVersion).toBeUndefined();
    } finally {
      failing = false;
    }
    calls.length = 0;
    const again = await evaluations.getEvaluation({ symbol: 'JNJ', fresh: false, actor: erin });
    expect(again).toMatchObject({
      _cached: false,
      totalScore: current.totalScore,
      methodologyVersion: METHODOLOGY_VERSION,
    });
    expect(calls).toEqual(['JNJ']);
    expect(await used(erin.id)).toBe(1); // the method changed, not the request
    expect((await repos.evaluations.get('JNJ'))?.evaluation.methodologyVersion).toBe(
      METHODOLOGY_VERSION,
    );
    const third = await evaluations.getEvaluation({ symbol: 'JNJ', fresh: false, actor: erin });
    expect(third._cached).toBe(true);
    expect(calls).toEqual(['JNJ']);
  });
});
