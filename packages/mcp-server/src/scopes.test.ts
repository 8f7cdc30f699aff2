import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  guardQuotaSpending,
  problemOf,
  type TokenCall,
  type TokenCallRecord,
  type TokenScope,
} from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { buildMcpServer } from './build-mcp-server.js';
import type { McpServices } from './deps.js';
import { MCP_TOOL_NAMES, MCP_TOOLS } from './tool-catalog.js';

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
  weight: '0.6',
  valuedAt: '2026-01-02T00:00:00.000Z',
  priceAsOf: '2026-01-02T00:00:00.000Z',
  fxAsOf: '2026-01-02',
  stale: false,
  realizedPnlEur: '12.00',
  instrument: { ticker: 'AAPL', currency: 'USD', kind: 'share', resolution: 'sec' },
};
const CASH = {
  id: 'c1',
  portfolioId: 'p1',
  currency: 'EUR',
  amount: '500.00',
  amountEur: '500.00',
  valuedAt: '2026-01-02T00:00:00.000Z',
  fxAsOf: null,
};

/** Flows that answer fixed rows; the evaluation spends a unit guarded for its token call. */
function services(): McpServices {
  const quotas = {
    withQuota: async <T>(_u: string, _p: string, _n: string, work: () => Promise<T>) => work(),
  };
  return {
    portfolios: {
      listPortfolios: async () => [],
      listHoldings: async () => [HOLDING],
      listCash: async () => [CASH],
    },
    evaluations: {
      // fresh: the fetch "succeeds" with an empty object (outside the outputSchema); else it fails
      getEvaluation: async (request: {
        fresh: boolean;
        actor: { id: string; plan: 'free' };
        tokenCall?: TokenCall;
      }) =>
        guardQuotaSpending(quotas, request.tokenCall).withQuota(
          request.actor.id,
          request.actor.plan,
          'stock_evaluation',
          async () => {
            if (request.fresh) return {};
            throw new Error('no provider in this test');
          },
        ),
    },
    reports: { list: async () => [], save: async () => ({ id: 'r1' }) },
    screener: { screen: async () => ({ items: [], page: 1, limit: 20, total: 0, totalPages: 0 }) },
  } as unknown as McpServices;
}

async function connect(
  scopes: readonly TokenScope[],
  audit: TokenCallRecord[] = [],
  failAudit = false,
) {
  const { server } = buildMcpServer({
    services: services(),
    actor: { id: 'user-1', plan: 'free' },
    scopes,
    audit: async (call) => {
      if (failAudit) throw new Error('the audit log is unreachable');
      audit.push({ ...call, tokenId: 't', userId: 'user-1' });
    },
    toProblem: (error) => problemOf(error).body,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  return client;
}

function problem(result: CallToolResult) {
  expect(result.isError).toBe(true);
  const [block] = result.content;
  return JSON.parse(block?.type === 'text' ? block.text : 'null') as Record<string, unknown>;
}

describe('tool scopes', () => {
  it.each([
    [['portfolio:read'], ['listPortfolios', 'listHoldings', 'listCash', 'listPortfolioChanges']],
    [
      ['moat:read'],
      [
        'getMoatEvaluation',
        'listMoatReports',
        'screenMoat',
        'getEvaluationHistory',
        'compareEvaluations',
        'getEvaluationChanges',
      ],
    ],
    [
      ['moat:read', 'reports:write'],
      [
        'getMoatEvaluation',
        'listMoatReports',
        'screenMoat',
        'saveMoatReport',
        'getEvaluationHistory',
        'compareEvaluations',
        'getEvaluationChanges',
      ],
    ],
    [
      ['portfolio:read', 'portfolio:values'],
      [
        'listPortfolios',
        'listHoldings',
        'listCash',
        'getPortfolioPerformance',
        'listPortfolioChanges',
      ],
    ],
  ] as const)('tools/list with %j shows %j', async (scopes, names) => {
    const { tools } = await (await connect(scopes)).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...names].sort());
  });

  it('lists every tool with every scope, each declaring at least one scope', async () => {
    const { tools } = await (
      await connect(Object.values(MCP_TOOLS).flatMap((t) => t.scopes))
    ).listTools();
    expect(tools).toHaveLength(MCP_TOOL_NAMES.length);
    for (const name of MCP_TOOL_NAMES) expect(MCP_TOOLS[name].scopes.length).toBeGreaterThan(0);
  });

  it('answers a call outside the scopes with a tool error naming the missing scope, and audits it', async () => {
    const audit: TokenCallRecord[] = [];
    const client = await connect(['portfolio:read'], audit);
    const result = (await client.callTool({
      name: 'saveMoatReport',
      arguments: { symbol: 'AAPL', evaluationJson: '{}', apiKey: 'sk-secret' },
    })) as CallToolResult;
    expect(problem(result)).toMatchObject({
      code: 'insufficient_scope',
      status: 403,
      scope: 'reports:write',
      detail: expect.stringContaining('reports:write'),
    });
    expect(audit).toEqual([
      expect.objectContaining({
        tool: 'saveMoatReport',
        outcome: 'denied',
        errorCode: 'insufficient_scope',
        quotaSpent: {},
      }),
    ]);
  });

  it('refuses spending stock_evaluation without moat:fresh, naming moat:fresh', async () => {
    const client = await connect(['moat:read']);
    await client.listTools();
    const result = (await client.callTool({
      name: 'getMoatEvaluation',
      arguments: { symbol: 'AAPL', fresh: true },
    })) as CallToolResult;
    expect(problem(result)).toMatchObject({ code: 'insufficient_scope', scope: 'moat:fresh' });
  });

  it('lets moat:fresh spend, and the audit row carries the units spent (a failed fetch: none)', async () => {
    const audit: TokenCallRecord[] = [];
    const client = await connect(['moat:read', 'moat:fresh'], audit);
    const failed = await client.callTool({
      name: 'getMoatEvaluation',
      arguments: { symbol: 'AAPL' },
    });
    expect(problem(failed as CallToolResult).code).toBe('internal');
    const spent = await client.callTool({
      name: 'getMoatEvaluation',
      arguments: { symbol: 'AAPL', fresh: true },
    });
    // the unit was spent, then the answer broke its outputSchema: still recorded as spent
    expect(problem(spent as CallToolResult).code).toBe('internal');
    expect(audit.map((a) => [a.outcome, a.errorCode, a.quotaSpent, a.arguments])).toEqual([
      ['error', 'internal', {}, { symbol: 'AAPL' }],
      ['error', 'internal', { stock_evaluation: 1 }, { symbol: 'AAPL', fresh: true }],
    ]);
  });

  it('leaves the money out of holdings and cash without portfolio:values, within the outputSchema', async () => {
    const client = await connect(['portfolio:read']);
    await client.listTools(); // the client now validates structuredContent against outputSchema
    const holdings = (await client.callTool({ name: 'listHoldings' })) as CallToolResult;
    expect(holdings.isError).toBeFalsy();
    const [holding] = (holdings.structuredContent as { holdings: Record<string, unknown>[] })
      .holdings;
    expect(holding).toMatchObject({
      symbol: 'AAPL',
      quantity: '10',
      weight: '0.6',
      currency: 'USD',
    });
    for (const money of [
      'averageCost',
      'lastPrice',
      'marketValue',
      'marketValueEur',
      'costBasisEur',
      'unrealizedPnlEur',
      'realizedPnlEur',
    ]) {
      expect(holding).not.toHaveProperty(money);
    }
    expect(holdings.structuredContent).toMatchObject({ amountsHidden: true });
    expect(JSON.stringify(holdings.content)).not.toContain('1750.00');
    const cash = (await client.callTool({ name: 'listCash' })) as CallToolResult;
    expect((cash.structuredContent as { cash: unknown[] }).cash).toEqual([
      { id: 'c1', portfolioId: 'p1', currency: 'EUR', valuedAt: CASH.valuedAt, fxAsOf: null },
    ]);
  });

  it('answers the audit failure instead of the data when the call cannot be recorded', async () => {
    const client = await connect(['portfolio:read', 'portfolio:values'], [], true);
    const result = (await client.callTool({ name: 'listHoldings' })) as CallToolResult;
    expect(problem(result).code).toBe('internal');
    expect(JSON.stringify(result)).not.toContain('1750.00');
  });

  it('shows the money with portfolio:values', async () => {
    const client = await connect(['portfolio:read', 'portfolio:values']);
    await client.listTools();
    const holdings = (await client.callTool({ name: 'listHoldings' })) as CallToolResult;
    expect(holdings.structuredContent).toEqual({ holdings: [HOLDING] });
  });
});
