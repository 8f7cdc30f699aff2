/**
 * Issue 10, "more than one process": two app instances, each with its own pool, session memo and
 * session-change listener (as two server processes have), on one PostgreSQL schema. Nothing that
 * the other instance needs may live in one instance's memory.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAccountServices,
  createAiFlows,
  createMoatServices,
  createPortfolioFlows,
  loadConfig,
} from '@svc/service';
import {
  createQuotaService,
  createRepositories,
  createSharedCounter,
  createTestBackends,
  type Database,
  pendingMigrations,
  type SharedCounterOptions,
  type TestDatabase,
} from '@svc/service/testing';
import { openSessionChangeFeed } from '@svc/use-cases';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { BASE_URL, csvQuotes, ORIGIN, sessionCookie, snapshotProvider } from './helpers.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const postgres = backends.find((backend) => backend.name === 'postgres');
const databaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface Instance {
  app: FastifyInstance;
  close(): Promise<void>;
}

async function instanceOn(database: Database, secret: string, dataDir: string): Promise<Instance> {
  const config = await loadConfig(
    {
      SESSION_SECRET: secret,
      DATA_DIR: dataDir,
      BASE_URL,
      DATABASE_URL: databaseUrl,
      // Long enough that only an announcement can explain a refusal within the test.
      SESSION_CACHE_SECONDS: '300',
      RATE_LIMIT_PER_MINUTE: '12',
    },
    { info: () => {}, warn: () => {} },
  );
  const repos = createRepositories(database.db);
  const quotas = createQuotaService({ db: database.db, limits: config.quotaLimits });
  const sessions = openSessionChangeFeed(databaseUrl);
  const moat = createMoatServices({
    fundamentals: snapshotProvider,
    quoteSource: csvQuotes,
    repos,
    db: database.db,
    quotas,
    evaluationMemoSeconds: 0,
  });
  const market = { quotes: csvQuotes.quotes, fx: null };
  const portfolio = createPortfolioFlows({
    db: database.db,
    ...market,
    evaluations: moat.evaluations,
  });
  const ai = createAiFlows({ config, db: database.db, quotas, moat, portfolio, market });
  const inputs = {
    config,
    repos,
    quotas,
    moat,
    portfolio,
    ai,
    counters: (options: SharedCounterOptions) => createSharedCounter(database, options),
    pendingMigrations: () => pendingMigrations(database.db),
    sessionChanges: sessions.feed,
    loginThrottle: { maxFailures: 5, windowSeconds: 600 },
  };
  const accounts = createAccountServices(inputs);
  const app = await buildApp({ ...inputs, accounts }, { logger: false });
  await app.ready();
  for (let waited = 0; !sessions.feed.listening; waited += 10) {
    if (waited > 5_000) throw new Error('the session change listener did not start');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    app,
    async close() {
      await app.close();
      accounts.close();
      await sessions.close();
    },
  };
}

describe.runIf(postgres)('two processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let second: Database;
  let a: Instance;
  let b: Instance;
  let dataDir: string;

  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).open();
    second = await database.connectAgain();
    dataDir = await mkdtemp(join(tmpdir(), 'svc-two-'));
    const secret = randomBytes(32).toString('hex');
    a = await instanceOn(database, secret, dataDir);
    b = await instanceOn(second, secret, dataDir);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await second?.close();
    await database?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  const register = async (email: string) => {
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email, password: 'correct horse battery' },
    });
    expect(res.statusCode).toBe(201);
    return sessionCookie(res);
  };
  const sessionOn = (instance: Instance, cookie: string) =>
    instance.app.inject({ url: '/api/auth/session', headers: { cookie } });

  it('a logout on one process is refused by the other at once, though it remembers sessions', async () => {
    const cookie = await register('two-logout@example.test');
    expect((await sessionOn(b, cookie)).statusCode).toBe(200); // b now remembers the session
    // The memo is really in use: with the announcement switched off, b keeps answering from it.
    await sql`alter table sessions disable trigger sessions_revoked`.execute(database.db);
    const muted = await register('two-muted@example.test');
    expect((await sessionOn(b, muted)).statusCode).toBe(200);
    const sid = JSON.parse(Buffer.from(muted.split('.')[1] ?? '', 'base64url').toString()).sid;
    await database.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', sid)
      .execute();
    expect((await sessionOn(b, muted)).statusCode).toBe(200);
    await sql`alter table sessions enable trigger sessions_revoked`.execute(database.db);

    const out = await a.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, ...ORIGIN },
    });
    expect(out.statusCode).toBe(204);
    const started = Date.now();
    await expect
      .poll(async () => (await sessionOn(b, cookie)).statusCode, { timeout: 3_000, interval: 5 })
      .toBe(401);
    // Well inside the memo's 300 s: the announcement, not the expiry, refused it.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a personal access token revoked on one process is refused by the other at once', async () => {
    const cookie = await register('two-pat@example.test');
    const minted = await a.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'agent' },
    });
    expect(minted.statusCode).toBe(201);
    const { id, token } = minted.json() as { id: string; token: string };
    const listTools = () =>
      b.app.inject({
        method: 'POST',
        url: '/api/mcp/user/mcp',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      });
    expect((await listTools()).statusCode).toBe(200); // b now remembers the token
    // The token memo is in use: with the announcement switched off, b keeps answering from it.
    await sql`alter table personal_access_tokens disable trigger tokens_revoked`.execute(
      database.db,
    );
    await database.db
      .updateTable('personal_access_tokens')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .execute();
    expect((await listTools()).statusCode).toBe(200);
    await sql`alter table personal_access_tokens enable trigger tokens_revoked`.execute(
      database.db,
    );
    await database.db
      .updateTable('personal_access_tokens')
      .set({ revoked_at: null })
      .where('id', '=', id)
      .execute();

    const revoked = await a.app.inject({
      method: 'DELETE',
      url: `/api/account/tokens/${id}`,
      headers: { cookie, ...ORIGIN },
    });
    expect(revoked.statusCode).toBe(204);
    await expect
      .poll(async () => (await listTools()).statusCode, { timeout: 3_000, interval: 5 })
      .toBe(401);
  });

  it('a change of scopes made on one process holds on the other at once', async () => {
    const cookie = await register('two-scopes@example.test');
    const minted = await a.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'agent', scopes: ['portfolio:read'] },
    });
    expect(minted.statusCode).toBe(201);
    const { id, token } = minted.json() as { id: string; token: string };
    const toolsOnB = async () => {
      const res = await b.app.inject({
        method: 'POST',
        url: '/api/mcp/user/mcp',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      });
      return (res.json().result.tools as { name: string }[]).map((t) => t.name).sort();
    };
    expect(await toolsOnB()).toEqual([
      'listCash',
      'listHoldings',
      'listPortfolioChanges',
      'listPortfolios',
    ]); // b remembers
    const changed = await a.app.inject({
      method: 'PATCH',
      url: `/api/account/tokens/${id}`,
      headers: { cookie, ...ORIGIN },
      payload: { scopes: ['moat:read'] },
    });
    expect(changed.statusCode).toBe(200);
    await expect
      .poll(toolsOnB, { timeout: 3_000, interval: 5 })
      .toEqual([
        'compareEvaluations',
        'getEvaluationChanges',
        'getEvaluationHistory',
        'getMoatEvaluation',
        'listMoatReports',
        'screenMoat',
      ]);
  });

  it('shares the failed-login throttle: 5 failures spread over both, the 6th refused on either', async () => {
    await register('two-throttle@example.test');
    const attempt = (instance: Instance, password: string) =>
      instance.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: ORIGIN,
        payload: { email: 'two-throttle@example.test', password },
      });
    for (let i = 0; i < 5; i++) {
      expect((await attempt(i % 2 === 0 ? a : b, 'wrong password')).statusCode).toBe(401);
    }
    for (const instance of [a, b]) {
      const refused = await attempt(instance, 'correct horse battery');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('shares the per-user request limit: 12 a minute over both processes together', async () => {
    const cookie = await register('two-limit@example.test');
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      // Past the 100 ms a process may count locally before it writes (`batchCounter`).
      await new Promise((resolve) => setTimeout(resolve, 110));
      const res = await (i % 2 === 0 ? a : b).app.inject({
        url: '/api/portfolios',
        headers: { cookie },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });
});
