import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { problemOf, type TokenScope } from '@svc/use-cases';
import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createPersonalAccessTokenGuard } from './bearer-guard.js';
import type { McpServices } from './deps.js';
import { mcpPlugin } from './mcp-plugin.js';

/** Two tokens of one user: `full` sees the money, `narrow` only the quantities. */
const TOKENS: Record<string, { tokenId: string; scopes: TokenScope[] }> = {
  full: { tokenId: 't-full', scopes: ['portfolio:read', 'portfolio:values', 'moat:read'] },
  narrow: { tokenId: 't-narrow', scopes: ['portfolio:read'] },
};

const HOLDING = {
  id: 'h1',
  portfolioId: 'p1',
  symbol: 'AAPL',
  name: 'Apple',
  quantity: '10',
  averageCost: '150.00',
  currency: 'USD',
  lastPrice: '190.00',
  marketValue: '1900.00',
  marketValueEur: '1750.00',
  costBasisEur: '1400.00',
  unrealizedPnlEur: '350.00',
  weight: '1',
  valuedAt: '2026-01-02T00:00:00.000Z',
  priceAsOf: '2026-01-02T00:00:00.000Z',
  fxAsOf: '2026-01-02',
  stale: false,
  realizedPnlEur: '0.00',
  instrument: { ticker: 'AAPL', currency: 'USD', kind: 'share', resolution: 'sec' },
};

async function app() {
  const mapped: string[] = [];
  const audited: string[] = [];
  const server = Fastify();
  const guard = createPersonalAccessTokenGuard({
    verify: async (token) => {
      const found = TOKENS[token];
      return found ? { user: { id: 'u1', plan: 'free' as const }, ...found } : null;
    },
    realm: 'http://test',
  });
  await server.register(mcpPlugin, {
    services: {
      portfolios: { listHoldings: async () => [HOLDING] },
      evaluations: {
        getEvaluation: async ({ symbol }: { symbol: string }) => {
          throw new Error(`no data for ${symbol}`);
        },
      },
    } as unknown as McpServices,
    toProblem: (error: unknown, request: FastifyRequest) => {
      mapped.push(String(request.headers['x-test']));
      return problemOf(error).body;
    },
    guard: guard.guard,
    principalOf: guard.principalOf,
    audit: async (call) => {
      audited.push(`${call.tokenId} ${call.tool} ${call.outcome}`);
    },
    baseUrl: 'http://test',
    accountUrl: 'http://test/account',
  });
  const call = async (token: string, tag: string, name: string, args: object = {}) => {
    const res = await server.inject({
      method: 'POST',
      url: '/api/mcp/user/mcp',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'x-test': tag,
      },
      payload: {
        jsonrpc: '2.0',
        id: tag,
        method: 'tools/call',
        params: { name, arguments: args },
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { id: string; result: { structuredContent?: unknown; isError?: boolean } };
  };
  return { server, call, mapped, audited };
}

const MCP_HEADERS = {
  authorization: 'Bearer full',
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
};

describe('mcpPlugin, one fast path and the SDK for the rest', () => {
  it('answers a plain tools/call without the SDK transport, and tools/list through it', async () => {
    const { server, call } = await app();
    const sdk = vi.spyOn(StreamableHTTPServerTransport.prototype, 'handleRequest');
    try {
      expect((await call('full', 'f', 'listHoldings')).result.structuredContent).toEqual({
        holdings: [HOLDING],
      });
      expect(sdk).not.toHaveBeenCalled();
      const list = await server.inject({
        method: 'POST',
        url: '/api/mcp/user/mcp',
        headers: MCP_HEADERS,
        payload: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().result.tools.map((t: { name: string }) => t.name)).toContain(
        'listHoldings',
      );
      expect(sdk).toHaveBeenCalledTimes(1);
      // an unknown tool is the SDK's -32602 error
      const unknown = await server.inject({
        method: 'POST',
        url: '/api/mcp/user/mcp',
        headers: MCP_HEADERS,
        payload: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } },
      });
      expect(unknown.json().error.code).toBe(-32602);
      expect(sdk).toHaveBeenCalledTimes(2);
    } finally {
      sdk.mockRestore();
    }
  });
});

describe('mcpPlugin, tool registries kept per token', () => {
  it('answers each token with its own scopes and audit, whatever server served it before', async () => {
    const { call, audited } = await app();
    for (let round = 0; round < 3; round += 1) {
      const full = await call('full', `f${round}`, 'listHoldings');
      expect(full.id).toBe(`f${round}`);
      expect(full.result.structuredContent).toEqual({ holdings: [HOLDING] });
      const narrow = await call('narrow', `n${round}`, 'listHoldings');
      expect(narrow.result.structuredContent).toMatchObject({ amountsHidden: true });
      expect(JSON.stringify(narrow)).not.toContain('1750.00');
    }
    expect(audited).toEqual(
      Array.from({ length: 3 }, () => [
        't-full listHoldings ok',
        't-narrow listHoldings ok',
      ]).flat(),
    );
  });

  it('maps a failed call through the request it serves, also at the same time as others', async () => {
    const { call, mapped } = await app();
    await call('full', 'first', 'getMoatEvaluation', { symbol: 'AAPL' });
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((tag) => call('full', tag, 'getMoatEvaluation', { symbol: 'MSFT' })),
    );
    await call('full', 'last', 'getMoatEvaluation', { symbol: 'AAPL' });
    for (const answer of answers) expect(answer.result.isError).toBe(true);
    expect(mapped[0]).toBe('first');
    expect([...mapped.slice(1, 4)].sort()).toEqual(['a', 'b', 'c']);
    expect(mapped[4]).toBe('last');
  });
});
