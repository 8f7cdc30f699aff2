import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@svc/service/testing';
import type { EvaluationFills } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestContext, ENGINES, registerUser, type TestContext } from './helpers.js';

/** A hand-made Schwab export: two SEC filers, a fund without price files, an ISIN. */
const EXPORT = [
  'Date,Action,Symbol,Description,Quantity,Price,Fees & Comm,Amount',
  '06/01/2023,Buy,XS1234567896,A BOND BY ISIN,1,$180.00,,-$180.00',
  '05/01/2023,Buy,SPY,SPDR S&P 500 ETF,2,$410.00,,-$820.00',
  '04/03/2023,Buy,JNJ,JOHNSON & JOHNSON,10,$155.00,,"-$1,550.00"',
  '04/03/2023,Buy,AAPL,APPLE INC,20,$166.00,,"-$3,320.00"',
  '03/01/2023,Wire Received,,WIRE,,,,"$10,000.00"',
].join('\n');

type User = { cookie: string; userId: string };
// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON, checked field by field
type Json = Record<string, any>;

describe.each(ENGINES)('the portfolio moat X-ray (%s)', (engine) => {
  let ctx: TestContext;
  let base: string;
  let alice: User;
  let bob: User;
  let portfolioId: string;
  const asked: { userId: string; tickers: string[] }[] = [];
  const clients: Client[] = [];
  /** A background fill that records what it is asked and answers `pending`. */
  const fills: EvaluationFills = {
    async request(actor, tickers) {
      asked.push({ userId: actor.id, tickers: [...tickers] });
      return new Map(tickers.map((t) => [t, 'pending'] as const));
    },
  };

  const rest = (user: User | null, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { ...(user ? { cookie: user.cookie } : {}), origin: base, ...init.headers },
    });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({
      engine,
      env: { BASE_URL: base, ACCOUNT_URL: BASE_URL },
      fills,
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    alice = await registerUser(ctx.app, `xray-alice-${engine}@example.com`);
    bob = await registerUser(ctx.app, `xray-bob-${engine}@example.com`);
    const created = await rest(alice, '/api/portfolios', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Core' }),
    });
    portfolioId = ((await created.json()) as { id: string }).id;
    const imported = await rest(alice, `/api/portfolios/${portfolioId}/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: EXPORT,
    });
    expect(imported.status, await imported.clone().text()).toBe(201);
    // AAPL's evaluation in the cache; JNJ's not
    expect((await rest(alice, '/api/stock-evaluation?symbol=AAPL')).status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await ctx.close();
  });

  it('answers every holding with its weight and an evaluation or a reason', async () => {
    const res = await rest(alice, `/api/portfolios/${portfolioId}/xray`);
    expect(res.status).toBe(200);
    const xray = (await res.json()) as Json;
    const holdings = (await (
      await rest(alice, `/api/holdings?portfolioId=${portfolioId}`)
    ).json()) as Json[];
    const aaplEvaluation = (await (
      await rest(alice, '/api/stock-evaluation?symbol=AAPL')
    ).json()) as Json;
    const bySymbol = new Map<string, Json>(xray.holdings.map((h: Json) => [h.symbol, h]));
    expect([...bySymbol.keys()].sort()).toEqual(['AAPL', 'JNJ', 'SPY', 'XS1234567896']);

    // weights: shares of the valued holdings' EUR values, as the holdings read has them
    const valued = holdings.filter((h) => h.marketValueEur !== null);
    const total = valued.reduce((sum, h) => sum + Number(h.marketValueEur), 0);
    expect(Number(xray.valueEur)).toBeCloseTo(total, 2);
    for (const h of valued) {
      expect(bySymbol.get(h.symbol)?.weight).toBeCloseTo(Number(h.marketValueEur) / total, 5);
      expect(bySymbol.get(h.symbol)?.valueEur).toBe(Number(h.marketValueEur).toFixed(2));
    }
    const unvalued = holdings.filter((h) => h.marketValueEur === null).map((h) => h.symbol);
    expect(xray.unvalued.sort()).toEqual(unvalued.sort());
    expect(unvalued).toContain('SPY');
    expect(xray.holdings.at(-1).weight).toBeNull(); // unvalued last

    const aapl = bySymbol.get('AAPL') as Json;
    expect(aapl.instrument).toMatchObject({
      ticker: 'AAPL',
      kind: 'share',
      resolution: 'export',
      cik: '0000320193',
    }); // the export's ticker, SEC's CIK (issue 38)
    expect(aapl.evaluation).toMatchObject({
      totalScore: aaplEvaluation.totalScore,
      verdict: aaplEvaluation.verdict,
      dataQuality: [],
    });
    expect(aapl.valuation.sellTrigger).toBe(aaplEvaluation.valuation.sellTrigger);
    expect(aapl.valuation.pe).toBe(aaplEvaluation.valuation.peRatio);
    expect(aapl.reason).toBeUndefined();
    expect(xray.pastSellTrigger).toEqual(aaplEvaluation.valuation.sellTrigger ? ['AAPL'] : []);

    // not cached: queued (the fill's answer); an ISIN is unresolved and never queued
    expect(bySymbol.get('JNJ')).toMatchObject({ reason: 'pending' });
    expect(bySymbol.get('JNJ')?.evaluation).toBeUndefined();
    expect(bySymbol.get('XS1234567896')).toMatchObject({
      reason: 'unresolved',
      instrument: { isin: 'XS1234567896', resolution: 'unresolved' },
    });
    expect(xray.pending.sort()).toEqual(['JNJ', 'SPY']);
    expect(asked.at(-1)).toEqual({ userId: alice.userId, tickers: ['JNJ', 'SPY'] });

    // the bands: AAPL's verdict holds its weight, the rest is unrated; the score is AAPL's alone
    const band = xray.bands.find((b: Json) => b.verdict === aaplEvaluation.verdict);
    expect(band.weight).toBeCloseTo(aapl.weight, 6);
    const bandSum = xray.bands.reduce((sum: number, b: Json) => sum + b.weight, 0);
    expect(bandSum + xray.unratedWeight).toBeCloseTo(1, 5);
    expect(xray.weightedScore).toBeCloseTo(
      (100 * aaplEvaluation.totalScore) / aaplEvaluation.maxScore,
      2,
    );
    // concentration of the valued holdings
    const weights = valued.map((h) => Number(h.marketValueEur) / total);
    const hhi = weights.reduce((sum, w) => sum + w * w, 0);
    expect(xray.concentration.herfindahl).toBeCloseTo(hhi, 5);
    expect(xray.concentration.effectiveHoldings).toBeCloseTo(1 / hhi, 1);
    expect(xray.concentration.largest.weight).toBeCloseTo(Math.max(...weights), 5);
  });

  it("is the owner's alone, and needs a session or a token with both scopes", async () => {
    expect((await rest(bob, `/api/portfolios/${portfolioId}/xray`)).status).toBe(404);
    const anonymous = await rest(null, `/api/portfolios/${portfolioId}/xray`);
    expect(anonymous.status).toBe(401);
    const mint = async (scopes: string[]) => {
      const res = await rest(alice, '/api/account/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: scopes.join(' '), scopes }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { token: string }).token;
    };
    const narrow = await mint(['portfolio:read']);
    const refused = await rest(null, `/api/portfolios/${portfolioId}/xray`, {
      headers: { authorization: `Bearer ${narrow}` },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).code).toBe('insufficient_scope');
    expect(refused.headers.get('www-authenticate')).toContain('moat:read');
    const bySession = (await (
      await rest(alice, `/api/portfolios/${portfolioId}/xray`)
    ).json()) as Json;
    const full = await mint(['portfolio:read', 'moat:read', 'portfolio:values']);
    const byToken = await rest(null, `/api/portfolios/${portfolioId}/xray`, {
      headers: { authorization: `Bearer ${full}` },
    });
    expect(byToken.status).toBe(200);
    expect(await byToken.json()).toEqual(bySession);
    // without portfolio:values: weights, evaluations and reasons, no EUR amounts
    const both = await mint(['portfolio:read', 'moat:read']);
    const hidden = (await (
      await rest(null, `/api/portfolios/${portfolioId}/xray`, {
        headers: { authorization: `Bearer ${both}` },
      })
    ).json()) as Json;
    const { valueEur: _total, holdings: shown, ...rest_ } = bySession;
    expect(hidden).toEqual({
      ...rest_,
      holdings: shown.map(({ valueEur: _value, ...h }: Json) => h),
      amountsHidden: true,
    });
    const wrong = await rest(null, `/api/portfolios/${portfolioId}/xray`, {
      headers: { authorization: 'Bearer svc_pat_nope' },
    });
    expect(wrong.status).toBe(401);

    // the MCP tool answers the same X-ray through the official SDK client
    const client = new Client({ name: 'vitest', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/user/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${both}` } },
      }),
    );
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('getPortfolioXray');
    const result = (await client.callTool({
      name: 'getPortfolioXray',
      arguments: { portfolioId },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(hidden);
    const foreign = (await client.callTool({
      name: 'getPortfolioXray',
      arguments: { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e' },
    })) as CallToolResult;
    expect(foreign.isError).toBe(true);
  });

  it('is a page beside the moat card, each ticker linked to its card', async () => {
    const res = await rest(alice, `/xray/${portfolioId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<title>Core: moat X-ray</title>');
    expect(html).toContain('href="/evaluation/AAPL"');
    expect(html).toContain('href="/evaluation/JNJ"');
    expect(html).not.toContain('href="/evaluation/XS1234567896"');
    expect(html).toContain('data-reason="unresolved"');
    expect(html).toContain('Informational only, not financial advice.');
    expect((await rest(bob, `/xray/${portfolioId}`)).status).toBe(404);
    expect((await rest(null, `/xray/${portfolioId}`)).status).toBe(401);
  });
});
