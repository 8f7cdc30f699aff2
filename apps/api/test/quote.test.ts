import { MarketDataError, PortfolioError, type QuoteProvider } from '@svc/service/testing';
import {
  type AccountDataService,
  createQuoteService,
  type PortfolioService,
  QuoteResult,
  type XrayService,
} from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toProblem } from '../src/problem.js';
import {
  createTestContext,
  ecbFileFx,
  PORTFOLIO_TEST_NOW,
  registerUser,
  type TestContext,
} from './helpers.js';

describe('GET /api/quote', () => {
  let ctx: TestContext;
  let cookie: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ cookie } = await registerUser(ctx.app, 'quotes@example.com'));
  });
  afterAll(() => ctx.close());

  const quote = (symbol: string) =>
    ctx.app.inject({ url: `/api/quote?symbol=${encodeURIComponent(symbol)}`, headers: { cookie } });

  it('serves the offline AAPL close with its EUR price', async () => {
    const res = await quote('aapl');
    expect(res.statusCode, res.body).toBe(200);
    // yahoo_daily_2000_2024-03/AAPL.csv, 2024-03-01 close 179.660004; ECB 2024-03-01: 1 EUR =
    // 1.0813 USD; 179.66 / 1.0813 = 166.15185424951… (Python decimal, 10 places half-even)
    expect(QuoteResult.parse(res.json())).toEqual({
      symbol: 'AAPL',
      price: '179.66',
      currency: 'USD',
      asOf: '2024-03-01',
      source: expect.stringContaining('yahoo_daily_2000_2024-03'),
      priceEur: '166.1518542495',
    });
  });

  it('answers 404 for an unknown symbol and 400 for a malformed or missing one', async () => {
    const unknown = await quote('ZZZZZ');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect(unknown.json().code).toBe('not_found');

    for (const symbol of ['$$$', 'A B', 'TOOLONGSYMBOL1']) {
      const res = await quote(symbol);
      expect(res.statusCode, symbol).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'querystring.symbol' })],
      });
    }
    const missing = await ctx.app.inject({ url: '/api/quote', headers: { cookie } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].path).toContain('symbol');
  });

  it('answers 401 without a session', async () => {
    const res = await ctx.app.inject({ url: '/api/quote?symbol=AAPL' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/quote with the provider down', () => {
  let ctx: TestContext;
  let cookie: string;
  let calls = 0;
  const down: QuoteProvider = {
    name: 'down',
    async getQuote() {
      calls += 1;
      throw new MarketDataError('upstream_unavailable', 'GET https://quotes.internal/x?key=s3cr3t');
    },
  };

  beforeAll(async () => {
    ctx = await createTestContext({
      deps: {
        portfolio: {
          portfolios: {} as PortfolioService, // not called in this suite
          accountData: {} as AccountDataService, // not called in this suite
          xray: {} as XrayService, // not called in this suite
          quotes: createQuoteService({
            quotes: down,
            fx: ecbFileFx,
            now: () => PORTFOLIO_TEST_NOW,
          }),
        },
      },
    });
    ({ cookie } = await registerUser(ctx.app, 'down@example.com'));
  });
  afterAll(() => ctx.close());

  it('answers 503 upstream_unavailable without leaking the provider message, and retries', async () => {
    for (const attempt of [1, 2]) {
      const res = await ctx.app.inject({ url: '/api/quote?symbol=AAPL', headers: { cookie } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'upstream_unavailable', status: 503 });
      expect(res.body).not.toContain('s3cr3t');
      expect(calls).toBe(attempt); // failures are not cached
    }
  });
});

describe('problem mapping of market-data and portfolio errors', () => {
  it.each([
    ['upstream_unavailable', 503, 'upstream_unavailable'],
    ['parse_failed', 503, 'upstream_unavailable'],
    ['not_found', 404, 'not_found'],
    ['invalid_symbol', 400, 'validation_failed'],
    ['invalid_argument', 400, 'validation_failed'],
  ] as const)('MarketDataError %s → %i %s', (code, status, problem) => {
    const answer = toProblem(new MarketDataError(code, 'file /srv/prices/x.csv'), '/api/quote');
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(problem);
    expect(answer.body.detail).not.toContain('/srv/');
    expect(answer.unexpected).toBe(false);
  });

  it('PortfolioError → 400 with the domain message', () => {
    const error = new PortfolioError('insufficient_quantity', 'sell of 2 AAPL exceeds 1 held');
    const answer = toProblem(error, undefined);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { path: 'transaction', message: 'sell of 2 AAPL exceeds 1 held' },
    ]);
  });
});
