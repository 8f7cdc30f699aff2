import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@svc/service/testing';
import { toolsOn } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestContext, registerUser, type TestContext } from './helpers.js';

/** The MCP tools of the catalogue a token of `scopes` sees, sorted by name (as `connect` lists them). */
function toolsFor(scopes: readonly string[]): string[] {
  return toolsOn('mcp')
    .filter((tool) => tool.scopes.every((scope) => scopes.includes(scope)))
    .map((tool) => tool.name)
    .sort();
}

/** Money fields of a holding (left out without portfolio:values), written out independently. */
const HOLDING_MONEY = [
  'averageCost',
  'lastPrice',
  'marketValue',
  'marketValueEur',
  'costBasisEur',
  'unrealizedPnlEur',
  'realizedPnlEur',
];

function problem(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  const [text] = result.content;
  return JSON.parse(text?.type === 'text' ? text.text : 'null') as Record<string, unknown>;
}

type User = { cookie: string; userId: string };

describe('token scopes and activity, as agents meet them', () => {
  let ctx: TestContext;
  let base: string;
  let alice: User;
  let bob: User;
  let portfolioId: string;
  let shiftMs = 0;
  const clients: Client[] = [];

  /** An SDK client over streamable HTTP that has listed the tools (so it validates outputs). */
  async function connect(token: string): Promise<{ client: Client; tools: string[] }> {
    const client = new Client({ name: 'vitest', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/user/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    clients.push(client);
    const { tools } = await client.listTools();
    return { client, tools: tools.map((t) => t.name).sort() };
  }

  const rest = (user: User, method: string, path: string, body?: object) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        cookie: user.cookie,
        origin: base,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  async function mint(user: User, body: object) {
    const res = await rest(user, 'POST', '/api/account/tokens', body);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string; token: string; scopes: string[] };
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({
      env: { BASE_URL: base, ACCOUNT_URL: BASE_URL },
      deps: { now: () => new Date(Date.now() + shiftMs) },
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    alice = await registerUser(ctx.app, 'scopes-alice@example.com');
    bob = await registerUser(ctx.app, 'scopes-bob@example.com');
    const created = await rest(alice, 'POST', '/api/portfolios', { name: 'Core' });
    portfolioId = ((await created.json()) as { id: string }).id;
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
      const res = await rest(alice, 'POST', `/api/portfolios/${portfolioId}/transactions`, tx);
      expect(res.status, await res.clone().text()).toBe(201);
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await ctx.close();
  });

  it("gives a token minted as CONTRACT §2 says ({ name }) the spec's eight tools, working", async () => {
    const plain = await mint(alice, { name: 'plain' });
    // every scope the spec's tools use: amounts of holdings, fresh fetches and narratives
    // spending quota, saving reports (written out here, not read from the catalogue)
    expect([...plain.scopes].sort()).toEqual(
      [
        'ai:consult',
        'moat:fresh',
        'moat:read',
        'portfolio:read',
        'portfolio:values',
        'reports:write',
      ].sort(),
    );
    const { client, tools } = await connect(plain.token);
    for (const name of [
      'listPortfolios',
      'listHoldings',
      'listCash',
      'getMoatEvaluation',
      'generateMoatNarrative',
      'listMoatReports',
      'screenMoat',
      'saveMoatReport',
    ]) {
      expect(tools).toContain(name);
    }
    const holdings = (await client.callTool({
      name: 'listHoldings',
      arguments: { portfolioId },
    })) as CallToolResult;
    expect(holdings.isError).toBeFalsy();
    const [row] = (holdings.structuredContent as { holdings: Record<string, unknown>[] }).holdings;
    expect(row).toMatchObject({ symbol: 'AAPL', averageCost: expect.any(String) });
    // a fresh evaluation is not refused for its scope (whatever the provider answers)
    const fresh = (await client.callTool({
      name: 'getMoatEvaluation',
      arguments: { symbol: 'AAPL', fresh: true },
    })) as CallToolResult;
    if (fresh.isError) expect(problem(fresh).code).not.toBe('insufficient_scope');
    const narrative = (await client.callTool({
      name: 'generateMoatNarrative',
      arguments: { symbol: 'AAPL', language: 'en' },
    })) as CallToolResult;
    if (narrative.isError) expect(problem(narrative).code).not.toBe('insufficient_scope');
  });

  it('mints narrower tokens when asked, adds needed scopes, and lists them', async () => {
    const readOnly = await mint(alice, {
      name: 'read-only',
      scopes: ['portfolio:read', 'moat:read'],
    });
    expect(readOnly.scopes).toEqual(['portfolio:read', 'moat:read']);
    const writer = await mint(alice, { name: 'writer', scopes: ['reports:write'] });
    expect(writer.scopes).toEqual(['moat:read', 'reports:write']);
    const bad = await rest(alice, 'POST', '/api/account/tokens', { name: 'x', scopes: ['root'] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'validation_failed' });
    const none = await rest(alice, 'POST', '/api/account/tokens', { name: 'x', scopes: [] });
    expect(none.status).toBe(400);
    const listed = (await (await rest(alice, 'GET', '/api/account/tokens')).json()) as {
      id: string;
      scopes: string[];
    }[];
    expect(listed.find((t) => t.id === writer.id)?.scopes).toEqual(['moat:read', 'reports:write']);
  });

  it('shows a narrow token only its tools; a call outside answers a tool error naming the scope', async () => {
    const narrow = await mint(alice, { name: 'narrow', scopes: ['portfolio:read'] });
    const { client, tools } = await connect(narrow.token);
    expect(tools).toEqual(toolsFor(['portfolio:read']));
    const refused = (await client.callTool({
      name: 'screenMoat',
      arguments: {},
    })) as CallToolResult;
    expect(problem(refused)).toMatchObject({
      code: 'insufficient_scope',
      status: 403,
      scope: 'moat:read',
      detail: expect.stringContaining('moat:read'),
    });
  });

  it('refuses a fresh evaluation without moat:fresh, spending nothing', async () => {
    const reader = await mint(alice, { name: 'reader', scopes: ['moat:read'] });
    const { client } = await connect(reader.token);
    const used = async () =>
      (await ctx.quotas.usage(alice.userId, 'free')).find((q) => q.name === 'stock_evaluation')
        ?.used;
    const before = await used();
    const result = (await client.callTool({
      name: 'getMoatEvaluation',
      arguments: { symbol: 'AAPL', fresh: true },
    })) as CallToolResult;
    expect(problem(result)).toMatchObject({ code: 'insufficient_scope', scope: 'moat:fresh' });
    expect(await used()).toBe(before);
  });

  it('answers holdings and cash without money unless the token has portfolio:values', async () => {
    const narrow = await mint(alice, { name: 'weights', scopes: ['portfolio:read'] });
    const { client } = await connect(narrow.token);
    // the client validates structuredContent against the listed outputSchema
    const result = (await client.callTool({
      name: 'listHoldings',
      arguments: { portfolioId },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const { holdings, amountsHidden } = result.structuredContent as {
      holdings: Record<string, unknown>[];
      amountsHidden?: boolean;
    };
    expect(amountsHidden).toBe(true);
    expect(holdings).toHaveLength(1);
    expect(holdings[0]).toMatchObject({ symbol: 'AAPL', quantity: '10' });
    expect(holdings[0]).toHaveProperty('weight');
    for (const field of HOLDING_MONEY) expect(holdings[0]).not.toHaveProperty(field);
    const text = result.content[0];
    expect(text?.type === 'text' && text.text).not.toContain('"averageCost"');
    const cash = (await client.callTool({ name: 'listCash', arguments: {} })) as CallToolResult;
    const [position] = (cash.structuredContent as { cash: Record<string, unknown>[] }).cash;
    expect(position).toMatchObject({ currency: 'USD' });
    expect(position).not.toHaveProperty('amount');
    expect(position).not.toHaveProperty('amountEur');

    const valued = await mint(alice, { name: 'values', scopes: ['portfolio:values'] });
    const full = (await (
      await connect(valued.token)
    ).client.callTool({
      name: 'listHoldings',
      arguments: { portfolioId },
    })) as CallToolResult;
    const rows = (full.structuredContent as { holdings: Record<string, unknown>[] }).holdings;
    expect(rows[0]).toMatchObject({ averageCost: expect.any(String) });
    expect(full.structuredContent).not.toHaveProperty('amountsHidden');
  });

  it('applies a change of scopes to the next request at once', async () => {
    const token = await mint(alice, { name: 'changing', scopes: ['portfolio:read'] });
    expect((await connect(token.token)).tools).toEqual(toolsFor(['portfolio:read']));
    const changed = await rest(alice, 'PATCH', `/api/account/tokens/${token.id}`, {
      scopes: ['reports:write'],
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ scopes: ['moat:read', 'reports:write'] });
    expect((await connect(token.token)).tools).toEqual([
      'compareEvaluations',
      'getEvaluationChanges',
      'getEvaluationHistory',
      'getMoatEvaluation',
      'listMoatReports',
      'saveMoatReport',
      'screenMoat',
    ]);
    const foreign = await rest(bob, 'PATCH', `/api/account/tokens/${token.id}`, {
      scopes: ['portfolio:values'],
    });
    expect(foreign.status).toBe(404);
  });

  it('records every call for its owner only, paged, and keeps it after revocation', async () => {
    const token = await mint(alice, { name: 'audited', scopes: ['moat:read'] });
    const { client } = await connect(token.token);
    await client.callTool({ name: 'screenMoat', arguments: { limit: 5 } });
    await client.callTool({ name: 'listPortfolios', arguments: {} });
    await client.callTool({ name: 'listMoatReports', arguments: { tags: ['core'] } });

    const res = await rest(alice, 'GET', `/api/account/tokens/${token.id}/activity?limit=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = (await res.json()) as {
      items: Record<string, unknown>[];
      page: number;
      limit: number;
      total: number;
      totalPages: number;
    };
    expect(page).toMatchObject({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(page.items.map((i) => [i.tool, i.outcome, i.errorCode])).toEqual([
      ['listMoatReports', 'ok', null],
      ['listPortfolios', 'denied', 'insufficient_scope'],
    ]);
    expect(page.items[0]).toMatchObject({ arguments: { tags: ['core'] }, quotaSpent: {} });
    expect(page.items[0]?.durationMs).toEqual(expect.any(Number));
    const second = (await (
      await rest(alice, 'GET', `/api/account/tokens/${token.id}/activity?limit=2&page=2`)
    ).json()) as { items: { tool: string }[] };
    expect(second.items.map((i) => i.tool)).toEqual(['screenMoat']);

    const asBob = await rest(bob, 'GET', `/api/account/tokens/${token.id}/activity`);
    expect(asBob.status).toBe(404);
    expect(await asBob.json()).toMatchObject({ code: 'not_found' });
    const bobToken = await mint(bob, { name: 'bob' });
    const crossed = await rest(alice, 'GET', `/api/account/tokens/${bobToken.id}/activity`);
    expect(crossed.status).toBe(404);
    const tooMany = await rest(alice, 'GET', `/api/account/tokens/${token.id}/activity?limit=101`);
    expect(tooMany.status).toBe(400);

    expect((await rest(alice, 'DELETE', `/api/account/tokens/${token.id}`)).status).toBe(204);
    await expect(connect(token.token)).rejects.toThrow();
    const after = (await (
      await rest(alice, 'GET', `/api/account/tokens/${token.id}/activity`)
    ).json()) as { total: number };
    expect(after.total).toBe(3);
  });

  it('records the REST calls made with a token too (the X-ray): a refused scope as denied', async () => {
    const full = await mint(alice, { name: 'rest', scopes: ['portfolio:read', 'moat:read'] });
    const narrow = await mint(alice, { name: 'rest-narrow', scopes: ['portfolio:read'] });
    const xray = (token: string) =>
      fetch(`${base}/api/portfolios/${portfolioId}/xray`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await xray(full.token)).status).toBe(200);
    expect((await xray(narrow.token)).status).toBe(403);
    const activity = async (id: string) =>
      (
        (await (await rest(alice, 'GET', `/api/account/tokens/${id}/activity`)).json()) as {
          items: Record<string, unknown>[];
        }
      ).items;
    const tool = 'GET /api/portfolios/:id/xray';
    expect(await activity(full.id)).toEqual([
      expect.objectContaining({
        tool,
        outcome: 'ok',
        errorCode: null,
        quotaSpent: {},
        arguments: { id: portfolioId },
        durationMs: expect.any(Number),
      }),
    ]);
    expect(await activity(narrow.id)).toEqual([
      expect.objectContaining({ tool, outcome: 'denied', errorCode: 'insufficient_scope' }),
    ]);
    // a session's call is no token's: the X-ray asked with alice's cookie adds no row
    expect((await rest(alice, 'GET', `/api/portfolios/${portfolioId}/xray`)).status).toBe(200);
    expect(await activity(full.id)).toHaveLength(1);
  });

  it('refuses an expired token (HTTP 401 before any MCP handling)', async () => {
    const token = await mint(alice, { name: 'expiring', expiresInDays: 1 });
    expect((await connect(token.token)).tools).toContain('screenMoat');
    shiftMs = 2 * 86_400_000;
    try {
      await expect(connect(token.token)).rejects.toThrow(/401|Unauthorized|invalid_token/i);
    } finally {
      shiftMs = 0;
    }
  });

  it('answers resources/* without moat:read with 403 insufficient_scope and the RFC 6750 challenge', async () => {
    const token = await mint(alice, { name: 'portfolio only', scopes: ['portfolio:read'] });
    const res = await fetch(`${base}/api/mcp/user/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list' }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="${base}", error="insufficient_scope", scope="moat:read"`,
    );
    expect(await res.json()).toMatchObject({ code: 'insufficient_scope', scope: 'moat:read' });
  });
});
