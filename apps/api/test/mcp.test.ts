import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MoatEvaluation } from '@svc/schemas';
import { freePort } from '@svc/service/testing';
import { TOKEN_SCOPES } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestContext, registerUser, type TestContext } from './helpers.js';

/**
 * The tool names of interface spec 4.5 plus issue 20's `getPortfolioPerformance`, written out
 * independently of `@svc/mcp-server`.
 */
const SPEC_TOOLS = [
  'listPortfolios',
  'listHoldings',
  'listCash',
  'getMoatEvaluation',
  'generateMoatNarrative',
  'listMoatReports',
  'screenMoat',
  'saveMoatReport',
  'getPortfolioPerformance',
];
/** The evaluation-history tools of issue 21 and the change feed of issue 33, beyond the spec's 8. */
const HISTORY_TOOLS = ['getEvaluationHistory', 'compareEvaluations', 'getEvaluationChanges'];
/** Issue 30's read of a portfolio's journal (MCP stays read-only). */
const CHANGE_TOOLS = ['listPortfolioChanges'];
/** The portfolio moat X-ray of issue 38 (token with portfolio:read and moat:read). */
const XRAY_TOOLS = ['getPortfolioXray'];

type Structured = Record<string, unknown>;

/** The structured content of a result, after checking that the text mirror carries the same JSON. */
function structured(result: CallToolResult): Structured {
  expect(result.isError).toBeFalsy();
  const text = result.content.find((c) => c.type === 'text');
  expect(text?.type).toBe('text');
  const mirrored = JSON.parse(text?.type === 'text' ? text.text : 'null');
  expect(mirrored).toEqual(result.structuredContent);
  return result.structuredContent as Structured;
}

/**
 * The problem object of a failed result as an agent reads it: `isError: true`, no
 * `structuredContent` (the client would validate it against the tool's `outputSchema`), the
 * problem as the JSON of the one text block.
 */
function problem(result: CallToolResult): Structured {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toHaveLength(1);
  const [text] = result.content;
  expect(text?.type).toBe('text');
  return JSON.parse(text?.type === 'text' ? text.text : 'null') as Structured;
}

describe('MCP server over a real listening socket', () => {
  let ctx: TestContext;
  let base: string;
  let endpoint: string;
  let alice: { cookie: string; userId: string };
  let token: string;
  const clients: Client[] = [];

  async function connect(bearer: string): Promise<Client> {
    const client = new Client({ name: 'vitest', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    });
    await client.connect(transport);
    clients.push(client);
    // As agents and the MCP Inspector do: listing the tools makes the client validate every
    // `structuredContent` against the tool's `outputSchema` (errors included).
    await client.listTools();
    return client;
  }

  async function call(name: string, args: Structured = {}): Promise<CallToolResult> {
    const client = await connect(token);
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  async function used(name: 'stock_evaluation' | 'ai_consult'): Promise<number | undefined> {
    const usage = await ctx.quotas.usage(alice.userId, 'free');
    return usage.find((q) => q.name === name)?.used;
  }

  const rest = (method: string, path: string, body?: object) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        cookie: alice.cookie,
        origin: base,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    endpoint = `${base}/api/mcp/user/mcp`;
    ctx = await createTestContext({
      // The account site is the helpers' BASE_URL, so registerUser's Origin passes the check.
      env: {
        BASE_URL: base,
        ACCOUNT_URL: BASE_URL,
        QUOTA_LIMITS: '{"free":{"ai_consult":{"limit":3}}}',
      },
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    alice = await registerUser(ctx.app, 'mcp-alice@example.com');
    token = (
      await ctx.app.personalAccessTokens.mint(alice.userId, { name: 'agent', scopes: TOKEN_SCOPES })
    ).token;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await ctx.close();
  });

  it('lists the 8 tools of the spec (and the 2 history tools) with titles, schemas and annotations', async () => {
    const { tools } = await (await connect(token)).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [...SPEC_TOOLS, ...HISTORY_TOOLS, ...CHANGE_TOOLS, ...XRAY_TOOLS].sort(),
    );
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('getMoatEvaluation')?.inputSchema.required).toEqual(['symbol']);
    expect(byName.get('generateMoatNarrative')?.inputSchema.required).toEqual(['language']);
    expect(byName.get('saveMoatReport')?.annotations?.readOnlyHint).toBe(false);
    expect(byName.get('listPortfolios')?.annotations?.readOnlyHint).toBe(true);
  });

  it('reads portfolios, holdings and cash as the REST API stores them', async () => {
    expect(structured(await call('listPortfolios'))).toEqual({ portfolios: [] });
    const created = await rest('POST', '/api/portfolios', { name: 'Core' });
    expect(created.status).toBe(201);
    const portfolio = (await created.json()) as { id: string };
    for (const tx of [
      { type: 'deposit', amount: '2000', currency: 'USD', executedAt: '2024-01-01T09:00:00Z' },
      {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '10',
        price: '150',
        currency: 'USD',
        executedAt: '2024-01-02T15:00:00Z',
      },
    ]) {
      const res = await rest('POST', `/api/portfolios/${portfolio.id}/transactions`, tx);
      expect(res.status, await res.clone().text()).toBe(201);
    }

    const portfolios = structured(await call('listPortfolios'));
    expect(portfolios).toEqual({ portfolios: await (await rest('GET', '/api/portfolios')).json() });
    expect(portfolios.portfolios).toMatchObject([{ id: portfolio.id, name: 'Core' }]);

    const holdings = structured(await call('listHoldings', { portfolioId: portfolio.id }));
    const restHoldings = await (
      await rest('GET', `/api/holdings?portfolioId=${portfolio.id}`)
    ).json();
    expect(holdings).toEqual({ holdings: restHoldings });
    expect(holdings.holdings).toMatchObject([{ symbol: 'AAPL', quantity: '10' }]);

    const cash = structured(await call('listCash', {}));
    expect(cash).toEqual({ cash: await (await rest('GET', '/api/cash')).json() });
    // 2000 deposited − 10 × 150 spent = 500 USD left.
    expect(cash.cash).toMatchObject([{ currency: 'USD', amount: '500.00' }]); // money at 2 places

    const foreign = await call('listHoldings', {
      portfolioId: '00000000-0000-4000-8000-000000000000',
    });
    expect(problem(foreign)).toMatchObject({ code: 'not_found', status: 404 });
    const foreignCash = await call('listCash', {
      portfolioId: '00000000-0000-4000-8000-000000000000',
    });
    expect(problem(foreignCash)).toMatchObject({ code: 'not_found', status: 404 });

    // issue 30: the journal of the ledger, as REST lists it; an edit made over REST shows at once
    const listed = (await (
      await rest('GET', `/api/transactions?portfolioId=${portfolio.id}`)
    ).json()) as {
      items: { id: string; type: string }[];
    };
    const bought = listed.items.find((t) => t.type === 'buy');
    const edited = await rest(
      'PATCH',
      `/api/portfolios/${portfolio.id}/transactions/${bought?.id}`,
      {
        quantity: '12',
      },
    );
    expect(edited.status).toBe(200);
    const changes = structured(await call('listPortfolioChanges', { portfolioId: portfolio.id }));
    const restChanges = (await (
      await rest('GET', `/api/portfolios/${portfolio.id}/changes`)
    ).json()) as {
      items: unknown[];
      nextCursor: string | null;
    };
    expect(changes).toEqual({ changes: restChanges.items, nextCursor: null });
    expect(changes.changes).toMatchObject([
      { kind: 'edit', source: 'rest', transactionCount: 1 },
      { kind: 'record' },
      { kind: 'record' },
    ]);
    expect(
      structured(await call('listHoldings', { portfolioId: portfolio.id })).holdings,
    ).toMatchObject([{ symbol: 'AAPL', quantity: '12' }]);
    const foreignChanges = await call('listPortfolioChanges', {
      portfolioId: '00000000-0000-4000-8000-000000000000',
    });
    expect(problem(foreignChanges)).toMatchObject({ code: 'not_found', status: 404 });
    // without portfolio:values the summaries (which name amounts) are left out
    const readOnly = (
      await ctx.app.personalAccessTokens.mint(alice.userId, {
        name: 'reader',
        scopes: ['portfolio:read'],
      })
    ).token;
    const reader = await connect(readOnly);
    const redacted = structured(
      (await reader.callTool({
        name: 'listPortfolioChanges',
        arguments: { portfolioId: portfolio.id },
      })) as CallToolResult,
    );
    expect(redacted.amountsHidden).toBe(true);
    expect((redacted.changes as Structured[]).every((c) => !('summary' in c))).toBe(true);
  });

  it('evaluates AAPL once against the quota, then serves it from the cache', async () => {
    const first = await call('getMoatEvaluation', { symbol: 'aapl' });
    expect(first.isError).toBeFalsy();
    const evaluation = MoatEvaluation.parse(structured(first));
    expect(evaluation).toMatchObject({ symbol: 'AAPL', _cached: false });
    expect(evaluation.criteria).toHaveLength(8);
    expect(await used('stock_evaluation')).toBe(1);

    const second = MoatEvaluation.parse(
      structured(await call('getMoatEvaluation', { symbol: 'AAPL' })),
    );
    expect(second._cached).toBe(true);
    expect(second.totalScore).toBe(evaluation.totalScore);
    expect(await used('stock_evaluation')).toBe(1);
  });

  it('answers isError with the problem object for a symbol without data, and refunds the quota', async () => {
    const before = await used('stock_evaluation');
    const result = await call('getMoatEvaluation', { symbol: 'ZZZZ' });
    expect(problem(result)).toMatchObject({
      code: 'insufficient_data',
      status: 404,
      title: 'Insufficient data',
      instance: '/api/mcp/user/mcp',
    });
    expect(await used('stock_evaluation')).toBe(before);

    const malformed = await call('getMoatEvaluation', { symbol: 'B@D' });
    expect(problem(malformed)).toMatchObject({ code: 'validation_failed', status: 400 });
  });

  it('evaluates as of a date, and answers insufficient_history (422) before any years were filed', async () => {
    const before = (await used('stock_evaluation')) ?? 0;
    const then = MoatEvaluation.parse(
      structured(await call('getMoatEvaluation', { symbol: 'AAPL', asOf: '2015-06-30' })),
    );
    expect(then).toMatchObject({ symbol: 'AAPL', asOf: '2015-06-30', _cached: false });
    expect(then._fiscalYears).toContain(2014);
    expect(then._fiscalYears).not.toContain(2015);
    expect(await used('stock_evaluation')).toBe(before + 1);
    const early = await call('getMoatEvaluation', { symbol: 'UBER', asOf: '2019-06-30' });
    expect(problem(early)).toMatchObject({ code: 'insufficient_history', status: 422 });
    expect(await used('stock_evaluation')).toBe(before + 1);
    expect(
      problem(await call('getMoatEvaluation', { symbol: 'AAPL', asOf: 'June 2015' })),
    ).toMatchObject({ code: 'validation_failed', errors: [{ path: 'asOf' }] });
  });

  it('screens the cached evaluations', async () => {
    const page = structured(await call('screenMoat', { sortBy: 'symbol' }));
    expect(page).toMatchObject({ page: 1, limit: 20 });
    expect((page.items as { symbol: string }[]).map((r) => r.symbol)).toContain('AAPL');
    const none = structured(await call('screenMoat', { scoreMin: 101 }));
    expect(none).toMatchObject({ items: [], total: 0 });
    // Arguments outside the input schema (limit ≤ 100) answer a problem naming the field.
    expect(problem(await call('screenMoat', { limit: 500 }))).toMatchObject({
      code: 'validation_failed',
      status: 400,
      errors: [{ path: 'limit', message: expect.stringContaining('100') }],
    });
  });

  it('saves reports (object or JSON string) and lists them by tags', async () => {
    const evaluation = structured(await call('getMoatEvaluation', { symbol: 'AAPL' }));
    const saved = structured(
      await call('saveMoatReport', { symbol: 'AAPL', evaluation, tags: ['core', 'tech'] }),
    );
    expect(saved.id).toEqual(expect.any(String));
    const again = structured(
      await call('saveMoatReport', {
        symbol: 'AAPL',
        evaluationJson: JSON.stringify(evaluation),
        tags: ['core'],
      }),
    );

    const tech = structured(await call('listMoatReports', { tags: ['tech'] }));
    expect((tech.reports as { id: string }[]).map((r) => r.id)).toEqual([saved.id]);
    const core = structured(await call('listMoatReports', { tags: ['core'] }));
    expect((core.reports as { id: string }[]).map((r) => r.id).sort()).toEqual(
      [saved.id, again.id].sort(),
    );
    expect(core.reports).toContainEqual(
      expect.objectContaining({ id: saved.id, symbol: 'AAPL', verdict: evaluation.verdict }),
    );
    const restList = await (await rest('GET', '/api/moat-reports')).json();
    expect(structured(await call('listMoatReports'))).toEqual({ reports: restList });

    const missing = await call('saveMoatReport', { symbol: 'AAPL' });
    expect(problem(missing)).toMatchObject({ code: 'validation_failed', status: 400 });
  });

  it('generates the narrative, consuming ai_consult, until the quota is used up', async () => {
    const evaluation = MoatEvaluation.parse(
      structured(await call('getMoatEvaluation', { symbol: 'AAPL' })),
    );
    expect(await used('ai_consult')).toBe(0);
    const english = structured(
      await call('generateMoatNarrative', { symbol: 'AAPL', language: 'en' }),
    );
    expect(english).toMatchObject({
      symbol: 'AAPL',
      language: 'en',
      generator: 'template',
      model: 'offline',
    });
    const markdown = english.markdown as string;
    for (const part of ['## Summary', '## Strengths', '## Risks', '## Valuation']) {
      expect(markdown).toContain(part);
    }
    expect(markdown).toContain(evaluation.verdict);
    expect(markdown).toContain('Informational only, not financial advice.');
    expect(await used('ai_consult')).toBe(1);

    const german = structured(await call('generateMoatNarrative', { evaluation, language: 'de' }));
    // The offline template writes German for `de` (@svc/narrative).
    expect(german.markdown).toContain('## Zusammenfassung');
    expect(await used('ai_consult')).toBe(2);

    const neither = await call('generateMoatNarrative', { language: 'en' });
    expect(problem(neither)).toMatchObject({ code: 'validation_failed' });
    expect(await used('ai_consult')).toBe(2);

    await call('generateMoatNarrative', { symbol: 'AAPL', language: 'en' });
    const exhausted = await call('generateMoatNarrative', { symbol: 'AAPL', language: 'en' });
    expect(problem(exhausted)).toMatchObject({
      code: 'quota_exceeded',
      status: 429,
      quota: { name: 'ai_consult', limit: 3, used: 3 },
    });
  });

  it.each([
    ['listHoldings', { portfolioId: 7 }, 'portfolioId'],
    ['listCash', { portfolioId: '' }, 'portfolioId'],
    ['getMoatEvaluation', {}, 'symbol'],
    ['generateMoatNarrative', { symbol: 'AAPL', language: 'e' }, 'language'],
    ['listMoatReports', { tags: 'core' }, 'tags'],
    ['screenMoat', { sortDir: 'sideways' }, 'sortDir'],
    ['saveMoatReport', { evaluationJson: '{}' }, 'symbol'],
  ])('%s %j: invalid arguments answer validation_failed naming %s', async (name, args, path) => {
    const before = await used('stock_evaluation');
    const answer = problem(await call(name, args));
    expect(answer).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(answer.errors).toContainEqual({ path, message: expect.any(String) });
    expect(await used('stock_evaluation')).toBe(before);
  });

  it('refuses a bad symbol and a bad portfolio id as REST does: one schema, validation_failed', async () => {
    const unitsBefore = await used('stock_evaluation');
    for (const symbol of ['TOOLONGSYMBOL', 'AA$PL', '...']) {
      const viaRest = await rest(
        'GET',
        `/api/stock-evaluation?symbol=${encodeURIComponent(symbol)}`,
      );
      expect(viaRest.status, symbol).toBe(400);
      expect(((await viaRest.json()) as Structured).code).toBe('validation_failed');
      const viaMcp = problem(await call('getMoatEvaluation', { symbol }));
      expect(viaMcp).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(JSON.stringify(viaMcp.errors)).toContain('"path":"symbol"');
    }
    const viaRest = await rest('GET', '/api/holdings?portfolioId=not-a-uuid');
    expect(viaRest.status).toBe(400);
    expect(((await viaRest.json()) as Structured).code).toBe('validation_failed');
    const viaMcp = problem(await call('listHoldings', { portfolioId: 'not-a-uuid' }));
    expect(viaMcp).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(JSON.stringify(viaMcp.errors)).toContain('"path":"portfolioId"');
    expect(await used('stock_evaluation')).toBe(unitsBefore);
  });

  it('answers 401 with WWW-Authenticate: Bearer without, with a bad or with a revoked token', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'curl', version: '1' },
      },
    });
    const post = (authorization?: string) =>
      fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: initialize,
      });

    const ok = await post(`Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(
      ((await ok.json()) as { result: { serverInfo: { name: string } } }).result,
    ).toMatchObject({ serverInfo: { name: 'moat-portfolio' } });

    const none = await post();
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(((await none.json()) as { code: string }).code).toBe('unauthorized');

    const bad = await post('Bearer svc_pat_not-a-real-token');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);

    const minted = await ctx.app.personalAccessTokens.mint(alice.userId, {
      name: 'revoke me',
      scopes: TOKEN_SCOPES,
    });
    expect((await post(`Bearer ${minted.token}`)).status).toBe(200);
    await ctx.app.personalAccessTokens.revoke(alice.userId, minted.id);
    const revoked = await post(`Bearer ${minted.token}`);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer /);
    await expect(connect(minted.token)).rejects.toThrow();
  });

  it('refuses a PAT on the REST routes, which need the session cookie', async () => {
    for (const path of [
      '/api/portfolios',
      '/api/stock-evaluation?symbol=AAPL',
      '/api/moat-reports',
    ]) {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(401);
    }
  });

  it('answers 405 with the same Allow to every method but POST on the stateless endpoint', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const res = await fetch(endpoint, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toBe('POST');
    }
  });

  it('serves the public discovery document, agreeing with tools/list', async () => {
    const res = await fetch(`${base}/.well-known/mcp.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      tools: { name: string; description: string }[];
    } & Structured;
    expect(doc).toMatchObject({
      name: 'moat-portfolio',
      version: expect.any(String),
      description: expect.any(String),
      transport: 'streamable-http',
      url: `${base}/api/mcp/user/mcp`,
      authentication: {
        type: 'bearer',
        tokenPrefix: 'svc_pat_',
        tokenUrl: `${BASE_URL}/account/developer`,
      },
    });
    const { tools } = await (await connect(token)).listTools();
    expect(doc.tools).toEqual(tools.map((t) => ({ name: t.name, description: t.description })));
  });

  it('keeps the MCP routes out of the OpenAPI document', async () => {
    const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths).some((p) => p.includes('mcp'))).toBe(false);
  });
});
