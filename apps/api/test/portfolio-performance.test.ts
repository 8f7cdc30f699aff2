import { randomUUID } from 'node:crypto';
import { HoldingPerformance, Portfolio, PortfolioPerformance } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, ORIGIN, registerUser, type TestContext } from './helpers.js';

describe.each(ENGINES)('performance routes on %s', (engine) => {
  let ctx: TestContext;
  let alice: { cookie: string };
  let bob: { cookie: string };
  let portfolioId: string;

  const get = (user: { cookie: string } | null, url: string) =>
    ctx.app.inject({
      method: 'GET',
      url,
      headers: user ? { cookie: user.cookie, ...ORIGIN } : ORIGIN,
    });

  beforeAll(async () => {
    ctx = await createTestContext({ engine });
    alice = await registerUser(ctx.app, `perf-alice-${engine}@example.com`);
    bob = await registerUser(ctx.app, `perf-bob-${engine}@example.com`);
    const post = (url: string, payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url,
        headers: { cookie: alice.cookie, ...ORIGIN },
        payload,
      });
    const created = await post('/api/portfolios', { name: 'Perf' });
    portfolioId = Portfolio.parse(created.json()).id;
    for (const tx of [
      { type: 'deposit', amount: '3000', currency: 'EUR', executedAt: '2023-06-01T09:00:00Z' },
      // AAPL close of 2023-06-01 (yahoo_daily_2000_2024-03): 180.089996
      {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '10',
        price: '180.09',
        currency: 'USD',
        fee: '1',
        executedAt: '2023-06-01T20:00:00Z',
      },
      {
        type: 'dividend',
        symbol: 'AAPL',
        amount: '2.40',
        currency: 'USD',
        executedAt: '2023-08-17T12:00:00Z',
      },
    ]) {
      const res = await post(`/api/portfolios/${portfolioId}/transactions`, tx);
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => ctx.close());

  it('GET /api/portfolios/{id}/performance answers the figures, per holding, with a series', async () => {
    const res = await get(
      alice,
      `/api/portfolios/${portfolioId}/performance?period=YTD&series=monthly`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = PortfolioPerformance.parse(res.json());
    // the test clock is 2024-03-01: YTD runs from 2024-01-01
    expect(body).toMatchObject({
      period: 'YTD',
      from: '2024-01-01',
      to: '2024-03-01',
      currency: 'EUR',
    });
    expect(body.returns.twr, JSON.stringify(body.returns)).toMatchObject({ status: 'ok' });
    expect(body.returns.mwr.status).toBe('ok');
    expect(body.holdings.map((h) => h.symbol)).toEqual(['AAPL']);
    expect(body.series?.map((p) => p.date)).toEqual([
      '2024-01-01',
      '2024-01-31',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(body.endValueEur).toMatch(/^\d+\.\d{2}$/);
  });

  it('GET …/holdings/{symbol}/performance: since inception, income and fees beside the returns', async () => {
    const res = await get(alice, `/api/portfolios/${portfolioId}/holdings/aapl/performance`);
    expect(res.statusCode, res.body).toBe(200);
    const body = HoldingPerformance.parse(res.json());
    expect(body).toMatchObject({
      symbol: 'AAPL',
      holdingCurrency: 'USD',
      period: 'inception',
      from: '2023-06-01',
    });
    expect(Number(body.income.dividendsEur)).toBeGreaterThan(2);
    expect(Number(body.costs.feesEur)).toBeGreaterThan(0.9);
    expect(body.returns.twrAnnualised).toBeNull(); // 275 days: not annualised
  });

  it('404 for an unknown portfolio, another user’s, or a symbol never held', async () => {
    for (const [user, url] of [
      [alice, `/api/portfolios/${randomUUID()}/performance`],
      [bob, `/api/portfolios/${portfolioId}/performance`],
      [alice, `/api/portfolios/${portfolioId}/holdings/MSFT/performance`],
    ] as const) {
      const res = await get(user, url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('400 validation_failed for a bad period, from after to, a day that is not a date, to in the future', async () => {
    for (const query of [
      'period=2W',
      'from=2023-09-01&to=2023-08-01',
      'from=2023-02-30',
      'to=2030-01-01',
    ]) {
      const res = await get(alice, `/api/portfolios/${portfolioId}/performance?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('401 without a session', async () => {
    expect((await get(null, `/api/portfolios/${portfolioId}/performance`)).statusCode).toBe(401);
  });
});
