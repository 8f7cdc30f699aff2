/**
 * Issue 10: each request's quota unit is its own. A request that joins a running fetch pays, or is
 * refused, on its own counter, never on the counter of the request that leads the fetch.
 * Runs on PostgreSQL (pools of several connections, where consumptions really race) and PGlite.
 */
import { createSnapshotProvider, type FundamentalsProvider } from '@svc/fundamentals-client';
import { createRepositories, type Database } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { createQuotaService, QuotaError, type QuotaLimitOverrides } from '@svc/quota';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import { keepEvaluation } from '../src/moat/keep-evaluation.js';
import { COMPANYFACTS_DIR } from './shared-data.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const snapshot = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
const now = () => new Date('2026-11-21T10:00:00Z');
const LIMITS: QuotaLimitOverrides = {
  free: { stock_evaluation: { limit: 10 } },
  pro: { stock_evaluation: { limit: 6 } },
};

/** One "server process": its own pool, quota service and evaluation service (own in-flight map). */
function processOn(database: Database, calls: string[]) {
  const repos = createRepositories(database.db);
  const quotas = createQuotaService({ db: database.db, limits: LIMITS, now });
  const counting: FundamentalsProvider = {
    name: snapshot.name,
    getFundamentals(ticker, options) {
      calls.push(ticker);
      return snapshot.getFundamentals(ticker, options);
    },
  };
  const evaluations = createEvaluationService({
    fundamentals: counting,
    quotes: null,
    now,
    cache: repos.evaluations,
    quotas,
    keep: (input) => keepEvaluation(database.db, input),
  });
  return { repos, quotas, evaluations };
}

const usedOf = async (quotas: ReturnType<typeof createQuotaService>, id: string) =>
  (await quotas.usage(id, 'free')).find((q) => q.name === 'stock_evaluation')?.used;

describe.each(engines)('evaluation quotas per request on $name', (engine) => {
  let database: TestDatabase;
  let second: Database;
  beforeAll(async () => {
    database = await engine.open({ pool: { max: 10 } });
    second = await database.connectAgain({ max: 10 });
  }, 60_000);
  afterAll(async () => {
    await second.close();
    await database.cleanup();
  });

  async function userWith(
    process: ReturnType<typeof processOn>,
    usedAlready: number,
    plan: 'free' | 'pro' = 'free',
  ) {
    const user = await process.repos.users.create({ email: uniqueEmail('quota'), plan });
    for (let i = 0; i < usedAlready; i++) {
      await process.quotas.consume(user.id, plan, 'stock_evaluation');
    }
    return { id: user.id, plan: user.plan };
  }

  it("a fresh request joining another user's refused fetch is served on its own unit", async () => {
    // A has used all 10 units, B none. A leads a fresh fetch of KR and is refused; B's fresh
    // request arrives while A's is registered. B must be served on its own unit, not refused
    // with A's counters (`used: 10`), and A's counter must not move.
    const calls: string[] = [];
    const p = processOn(database, calls);
    const a = await userWith(p, 10);
    const b = await userWith(p, 0);
    const [fromA, fromB] = await Promise.allSettled([
      p.evaluations.getEvaluation({ symbol: 'KR', fresh: true, actor: a }),
      p.evaluations.getEvaluation({ symbol: 'KR', fresh: true, actor: b }),
    ]);
    expect(fromA.status).toBe('rejected');
    const refusal = (fromA as PromiseRejectedResult).reason as QuotaError;
    expect(refusal).toBeInstanceOf(QuotaError);
    expect(fromB.status).toBe('fulfilled');
    expect(await usedOf(p.quotas, a.id)).toBe(10);
    expect(await usedOf(p.quotas, b.id)).toBe(1);
    expect(calls).toEqual(['KR']);
  });

  it("a cache miss waiting on another user's refused fetch is judged on its own quota", async () => {
    const calls: string[] = [];
    const p = processOn(database, calls);
    const a = await userWith(p, 10);
    const b = await userWith(p, 0);
    const [fromA, fromB] = await Promise.allSettled([
      p.evaluations.getEvaluation({ symbol: 'BBY', fresh: false, actor: a }),
      p.evaluations.getEvaluation({ symbol: 'BBY', fresh: false, actor: b }),
    ]);
    // B is judged on its own counter: served, one unit. A (no unit left) is refused on its own
    // counter when it leads the fetch; when B leads, A's cache miss waits for free on B's fetch
    // (or finds B's row in the cache): served at no cost, which is the cache rule. Which of the
    // two leads is a race of their lookups; the quotas are exact either way.
    expect(fromB.status).toBe('fulfilled');
    expect(await usedOf(p.quotas, b.id)).toBe(1);
    expect(await usedOf(p.quotas, a.id)).toBe(10);
    if (fromA.status === 'rejected') {
      const refusal = fromA.reason as QuotaError;
      expect(refusal).toBeInstanceOf(QuotaError);
      expect(refusal.denied).toMatchObject({ used: 10, limit: 10 });
    } else {
      expect(fromA.value.symbol).toBe('BBY');
    }
    expect(calls).toEqual(['BBY']);
  });

  it('30 concurrent fresh requests of one user with 10 units left: exactly 10 served', async () => {
    const p = processOn(database, []);
    const user = await userWith(p, 0);
    for (let run = 0; run < 5; run++) {
      await p.quotas.reset(user.id, 'stock_evaluation');
      const settled = await Promise.allSettled(
        Array.from({ length: 30 }, () =>
          p.evaluations.getEvaluation({ symbol: 'TGT', fresh: true, actor: user }),
        ),
      );
      const served = settled.filter((s) => s.status === 'fulfilled').length;
      const refused = settled.filter(
        (s) => s.status === 'rejected' && s.reason instanceof QuotaError,
      ).length;
      expect({ run, served, refused }).toEqual({ run, served: 10, refused: 20 });
      expect(await usedOf(p.quotas, user.id)).toBe(10);
    }
  });

  it('two processes, two users, one symbol: each is served or refused on its own counter', async () => {
    const one = processOn(database, []);
    const two = processOn(second, []);
    const a = await userWith(one, 3, 'pro'); // limit 6: 3 units left
    const b = await userWith(one, 0, 'free'); // limit 10: 10 units left
    const settled = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const process = i % 2 === 0 ? one : two;
        const actor = i % 4 < 2 ? a : b; // 12 requests each, spread over both processes
        return process.evaluations.getEvaluation({ symbol: 'NUE', fresh: true, actor }).then(
          () => ({ actor, refusal: undefined }),
          (error: unknown) => ({ actor, refusal: error }),
        );
      }),
    );
    const served = (id: string) => settled.filter((s) => s.actor.id === id && !s.refusal).length;
    expect(served(a.id)).toBe(3);
    expect(served(b.id)).toBe(10);
    for (const { actor, refusal } of settled) {
      if (refusal === undefined) continue;
      expect(refusal).toBeInstanceOf(QuotaError);
      // A refusal carries the refused user's own counter (pro: 6, free: 10), never the other's.
      const limit = actor.plan === 'pro' ? 6 : 10;
      expect((refusal as QuotaError).denied).toMatchObject({ limit, used: limit });
    }
    expect(
      (await one.quotas.usage(a.id, 'pro')).find((q) => q.name === 'stock_evaluation')?.used,
    ).toBe(6);
    expect(await usedOf(one.quotas, b.id)).toBe(10);
  });
});
