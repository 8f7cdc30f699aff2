import { createServer } from 'node:net';
import { MoatEvaluation } from '@svc/schemas';
import { openFundamentalsProvider } from '@svc/service';
import { createSecEdgarProvider } from '@svc/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countingProvider,
  createTestContext,
  ENGINES,
  registerUser,
  type TestContext,
} from './helpers.js';

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function stockEvaluationUsed(ctx: TestContext, userId: string): Promise<number | undefined> {
  const usage = await ctx.quotas.usage(userId, 'free');
  return usage.find((q) => q.name === 'stock_evaluation')?.used;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe.each(ENGINES)('GET /api/stock-evaluation (%s)', (engine) => {
  let ctx: TestContext;
  // Each fetch takes at least 150 ms, so requests sent together overlap it on any engine.
  const counting = countingProvider(undefined, 150);
  const get = (url: string, cookie?: string) =>
    ctx.app.inject({ url, headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    ctx = await createTestContext({
      engine,
      fundamentals: counting.provider,
      env: { QUOTA_LIMITS: '{"free":{"stock_evaluation":{"limit":4}}}' },
    });
  });
  afterAll(() => ctx.close());

  it('answers 401 problem+json without a session', async () => {
    const res = await get('/api/stock-evaluation?symbol=AAPL');
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().code).toBe('unauthorized');
  });

  it('fetches on a miss (one unit), serves the cache for free, and fresh=1 consumes', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'eval@example.com');
    counting.calls.length = 0;

    const miss = await get('/api/stock-evaluation?symbol=aapl', cookie);
    expect(miss.statusCode).toBe(200);
    const first = miss.json();
    expect(first).toMatchObject({ symbol: 'AAPL', _cached: false, maxScore: 100 });
    expect(MoatEvaluation.safeParse(first).success).toBe(true);
    expect(first.criteria).toHaveLength(8);
    // The total is the sum of the criterion scores (independent of the scoring code's total).
    expect(first.totalScore).toBeCloseTo(
      sum(first.criteria.map((c: { score: number }) => c.score)),
      1,
    );
    expect(Date.parse(first._cachedAt)).not.toBeNaN();
    expect(Date.parse(first._evaluatedAt)).not.toBeNaN();
    expect(counting.calls).toEqual(['AAPL']);
    expect(await stockEvaluationUsed(ctx, userId)).toBe(1);

    const hit = (await get('/api/stock-evaluation?symbol=AAPL', cookie)).json();
    expect(hit._cached).toBe(true);
    expect(hit._cachedAt).toBe(first._cachedAt);
    expect(hit.totalScore).toBe(first.totalScore);
    expect(counting.calls).toEqual(['AAPL']);
    expect(await stockEvaluationUsed(ctx, userId)).toBe(1);

    const fresh = await get('/api/stock-evaluation?symbol=AAPL&fresh=1', cookie);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()._cached).toBe(false);
    expect(counting.calls).toEqual(['AAPL', 'AAPL']);
    expect(await stockEvaluationUsed(ctx, userId)).toBe(2);

    // The fresh evaluation replaced the cached row: the next hit carries its instant.
    const after = (await get('/api/stock-evaluation?symbol=AAPL', cookie)).json();
    expect(after._cached).toBe(true);
    expect(after._cachedAt).toBe(fresh.json()._cachedAt);
  });

  it('refuses any fresh value but 1, a missing symbol and a malformed symbol (400)', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'bad@example.com');
    for (const fresh of ['true', '0', '', 'yes']) {
      const res = await get(`/api/stock-evaluation?symbol=AAPL&fresh=${fresh}`, cookie);
      expect(res.statusCode, `fresh=${fresh}`).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(['querystring.fresh']);
    }
    const missing = await get('/api/stock-evaluation', cookie);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].path).toBe('querystring.symbol');

    for (const symbol of ['AA%24PL', 'TOOLONGSYMBOL', '...', '%20']) {
      const res = await get(`/api/stock-evaluation?symbol=${symbol}`, cookie);
      expect(res.statusCode, symbol).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      // the one symbol rule of @svc/schemas (TickerSymbol), as MCP applies it to `symbol`
      const paths = new Set(res.json().errors.map((e: { path: string }) => e.path));
      expect(paths).toEqual(new Set(['querystring.symbol']));
    }
    expect(await stockEvaluationUsed(ctx, userId)).toBe(0);
  });

  it('answers 404 insufficient_data for an unknown ticker and gives the unit back', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'unknown@example.com');
    counting.calls.length = 0;
    for (const url of [
      '/api/stock-evaluation?symbol=ZZZZ',
      '/api/stock-evaluation?symbol=ZZZZ&fresh=1',
    ]) {
      const res = await get(url, cookie);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ code: 'insufficient_data', status: 404 });
    }
    expect(counting.calls).toEqual(['ZZZZ', 'ZZZZ']);
    expect(await stockEvaluationUsed(ctx, userId)).toBe(0);
  });

  it('answers 429 with Retry-After and the quota once the plan quota is used up', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'greedy@example.com');
    for (let i = 0; i < 4; i += 1) {
      expect((await get('/api/stock-evaluation?symbol=JNJ&fresh=1', cookie)).statusCode).toBe(200);
    }
    const denied = await get('/api/stock-evaluation?symbol=JNJ&fresh=1', cookie);
    expect(denied.statusCode).toBe(429);
    expect(denied.headers['content-type']).toContain('application/problem+json');
    const retryAfter = Number(denied.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
    const body = denied.json();
    expect(body.code).toBe('quota_exceeded');
    expect(body.quota).toMatchObject({ name: 'stock_evaluation', limit: 4, used: 4 });
    // The reset instant is the start of the next calendar month (UTC), CONTRACT §3.
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(Date.parse(body.quota.resetsAt)).toBe(nextMonth.getTime());
    expect(await stockEvaluationUsed(ctx, userId)).toBe(4);
    // The cache is still served without quota.
    const cached = await get('/api/stock-evaluation?symbol=JNJ', cookie);
    expect(cached.statusCode).toBe(200);
    expect(cached.json()._cached).toBe(true);
  });

  it('evaluates as of a date (cached apart), 422 insufficient_history, 400 on a bad date', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'asof@example.com');
    counting.calls.length = 0;
    const then = await get('/api/stock-evaluation?symbol=AAPL&asOf=2019-06-30', cookie);
    expect(then.statusCode).toBe(200);
    const body = then.json();
    expect(body).toMatchObject({ symbol: 'AAPL', asOf: '2019-06-30', _cached: false });
    expect(typeof body.methodologyVersion).toBe('string');
    expect(body.dataQuality).toEqual([]);
    for (const c of body.criteria) expect(c.dataQuality).toEqual([]);
    expect(body._fiscalYears.at(-1)).toBe(2018);
    const hit = (await get('/api/stock-evaluation?symbol=AAPL&asOf=2019-06-30', cookie)).json();
    expect(hit).toMatchObject({ _cached: true, asOf: '2019-06-30', totalScore: body.totalScore });
    expect(counting.calls).toEqual(['AAPL']);
    expect(await stockEvaluationUsed(ctx, userId)).toBe(1);

    const early = await get('/api/stock-evaluation?symbol=SNOW&asOf=2019-06-30', cookie);
    expect(early.statusCode).toBe(422);
    expect(early.headers['content-type']).toContain('application/problem+json');
    expect(early.json()).toMatchObject({ code: 'insufficient_history', status: 422 });
    expect(await stockEvaluationUsed(ctx, userId)).toBe(1);

    for (const bad of ['2019-02-30', '30/06/2019', '2019-6-30']) {
      const res = await get(`/api/stock-evaluation?symbol=AAPL&asOf=${bad}`, cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    // a day in the future reads as today (nothing was filed after today)
    const future = await get('/api/stock-evaluation?symbol=AAPL&asOf=2999-01-01', cookie);
    expect(future.statusCode).toBe(200);
    expect(future.json().asOf <= new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it('shares one fetch among concurrent fresh requests, each consuming its unit', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'together@example.com');
    counting.calls.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => get('/api/stock-evaluation?symbol=PG&fresh=1', cookie)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(counting.calls).toEqual(['PG']);
    expect(await stockEvaluationUsed(ctx, userId)).toBe(3);
  });
});

describe('GET /api/stock-evaluation with the provider down', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    const port = await closedPort();
    const provider = createSecEdgarProvider({
      userAgent: 'svc-api tests tests@example.com',
      baseUrl: `http://127.0.0.1:${port}`,
      tickersUrl: `http://127.0.0.1:${port}/files/company_tickers.json`,
      retries: 0,
      timeoutMs: 2_000,
    });
    ctx = await createTestContext({ fundamentals: provider });
  });
  afterAll(() => ctx.close());

  it('answers 503 upstream_unavailable without leaking the address, and refunds', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'down@example.com');
    for (const url of [
      '/api/stock-evaluation?symbol=AAPL',
      '/api/stock-evaluation?symbol=AAPL&fresh=1',
    ]) {
      const res = await ctx.app.inject({ url, headers: { cookie } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().code).toBe('upstream_unavailable');
      expect(res.body).not.toContain('127.0.0.1');
    }
    expect(await stockEvaluationUsed(ctx, userId)).toBe(0);
  });
});

describe('GET /api/stock-evaluation without a usable provider (sec-edgar, no SEC_USER_AGENT)', () => {
  let ctx: TestContext;
  const opened = openFundamentalsProvider({ provider: 'sec-edgar', secUserAgent: undefined });
  beforeAll(async () => {
    ctx = await createTestContext({ fundamentals: opened.provider });
  });
  afterAll(() => ctx.close());

  it('says why at start, answers 503 with a clear detail, and still serves the cache', async () => {
    expect(opened.unavailable).toContain('SEC_USER_AGENT');
    const { cookie, userId } = await registerUser(ctx.app, 'noagent@example.com');
    const res = await ctx.app.inject({
      url: '/api/stock-evaluation?symbol=AAPL',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('upstream_unavailable');
    expect(res.json().detail).toContain('SEC_USER_AGENT');
    expect(await stockEvaluationUsed(ctx, userId)).toBe(0);

    const evaluation = {
      symbol: 'KO',
      companyName: 'Coca-Cola Co',
      totalScore: 61,
      maxScore: 100,
      verdict: 'Moderate Competitive Advantage' as const,
      criteria: [],
    };
    await ctx.repos.evaluations.upsert(evaluation, { cachedAt: new Date('2026-01-02T03:04:05Z') });
    const cached = await ctx.app.inject({
      url: '/api/stock-evaluation?symbol=ko',
      headers: { cookie },
    });
    expect(cached.statusCode).toBe(200);
    expect(cached.json()).toMatchObject({
      ...evaluation,
      _cached: true,
      _cachedAt: '2026-01-02T03:04:05.000Z',
    });
  });
});

describe('20 concurrent requests for one uncached symbol over a real socket', () => {
  let ctx: TestContext;
  let base: string;
  const counting = countingProvider(undefined, 150);
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({ env: { BASE_URL: base }, fundamentals: counting.provider });
    await ctx.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => ctx.close());

  it('fetches once, answers 200 to all, and consumes one unit', async () => {
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'crowd@example.com', password: 'correct horse battery' }),
    });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const userId = ((await reg.json()) as { user: { id: string } }).user.id;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${base}/api/stock-evaluation?symbol=KR`, { headers: { cookie } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as {
      symbol: string;
      totalScore: number;
      _cachedAt: string;
    }[];
    expect(new Set(bodies.map((b) => `${b.symbol} ${b.totalScore} ${b._cachedAt}`)).size).toBe(1);
    expect(counting.calls).toEqual(['KR']);
    expect(await stockEvaluationUsed(ctx, userId)).toBe(1);
  });
});
