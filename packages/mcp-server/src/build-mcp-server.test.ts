import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UseCaseError } from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { buildMcpServer } from './build-mcp-server.js';
import type { McpProblem, McpServices } from './deps.js';
import { mcpDiscovery } from './discovery.js';
import { MCP_TOOL_NAMES, type McpToolName } from './tool-catalog.js';

const PROBLEM: McpProblem = {
  type: '/problem',
  title: 'Not found',
  status: 404,
  detail: 'No such resource.',
  code: 'not_found',
};

/** A stand-in for the app's one mapping: `UseCaseError` keeps its code and field errors. */
function mapProblem(error: unknown): McpProblem {
  if (error instanceof UseCaseError) {
    return {
      type: '/invalid',
      title: 'Invalid',
      status: 400,
      detail: error.message,
      code: error.code,
      errors: error.errors,
    };
  }
  return PROBLEM;
}

/** A performance answer in the shape of `PortfolioPerformance` (one return unavailable). */
const PERFORMANCE = {
  portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e',
  currency: 'EUR',
  period: '1Y',
  from: '2023-03-02',
  to: '2024-03-01',
  days: 366,
  clampedToInception: false,
  cashFlowBasis: 'recorded',
  estimatedCloses: [],
  computedAt: '2024-03-01T22:00:00.000Z',
  startValueEur: '1000.00',
  endValueEur: '1100.00',
  netFlowsEur: '0.00',
  returns: {
    twr: { status: 'ok', value: 0.1, basis: 'cumulative' },
    twrAnnualised: { status: 'ok', value: 0.0997, basis: 'annualised' },
    twrLocal: { status: 'ok', value: 0.12, basis: 'cumulative' },
    currencyEffect: { status: 'ok', value: -0.0179, basis: 'cumulative' },
    mwr: {
      status: 'unavailable',
      code: 'no_solution',
      reason: 'the cash flows have no internal rate of return',
      firstMissingDate: null,
    },
  },
  income: { dividendsEur: '0.00', interestEur: null },
  costs: { feesEur: '0.00', withholdingTaxEur: null },
  stalePrices: [],
  holdings: [],
};

const failing = async (): Promise<never> => {
  throw new Error('boom');
};

/** Fake flows recording their calls; `listCash` fails like a foreign portfolio id would. */
function fakeServices() {
  const calls: unknown[][] = [];
  const services = {
    evaluations: { getEvaluation: async () => ({}) },
    screener: { screen: async () => ({}) },
    reports: { save: async () => ({ id: 'r1' }), list: async () => [] },
    portfolios: {
      listPortfolios: async (userId: string) => {
        calls.push(['listPortfolios', userId]);
        return [
          { id: 'p1', name: 'Core', baseCurrency: 'EUR', createdAt: '2024-01-01T00:00:00.000Z' },
        ];
      },
      listHoldings: async () => [],
      listCash: failing,
      getPerformance: async (userId: string, portfolioId: string, query: unknown) => {
        calls.push(['getPerformance', userId, portfolioId, query]);
        return PERFORMANCE;
      },
    },
    quotas: {
      withQuota: async <T>(_u: string, _p: string, _n: string, work: () => Promise<T>) => work(),
    },
  } as unknown as McpServices;
  return { services, calls };
}

/** Flows that all fail, for every tool's failure path. */
const FAILING_SERVICES = {
  evaluations: { getEvaluation: failing },
  screener: { screen: failing },
  reports: { save: failing, list: failing, get: failing },
  history: { list: failing, diff: failing, changes: failing, cached: failing },
  portfolios: {
    listPortfolios: failing,
    listHoldings: failing,
    listCash: failing,
    getPerformance: failing,
    listChanges: failing,
  },
  quotas: { withQuota: failing },
  narratives: { narrateToMarkdown: failing },
  xray: { getXray: failing },
} as unknown as McpServices;

/**
 * A connected SDK `Client` that has listed the tools first, as agents and the Inspector do: the
 * client then validates every `structuredContent` against the tool's `outputSchema`, even when
 * `isError` is set.
 */
async function connected(services: McpServices, mapped: unknown[]) {
  const { server } = buildMcpServer({
    services,
    actor: { id: 'user-1', plan: 'free' },
    toProblem: (error) => {
      mapped.push(error);
      return mapProblem(error);
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  await client.listTools();
  return client;
}

/** The problem object of a failed result: `isError`, no structured content, JSON text only. */
function problemOf(result: CallToolResult): McpProblem {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toHaveLength(1);
  const [text] = result.content;
  expect(text?.type).toBe('text');
  return JSON.parse(text?.type === 'text' ? text.text : 'null') as McpProblem;
}

/** Arguments each tool accepts (its flow then fails). */
const VALID_ARGUMENTS: Record<McpToolName, Record<string, unknown>> = {
  listPortfolios: {},
  listHoldings: { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e' },
  listCash: {},
  getMoatEvaluation: { symbol: 'AAPL' },
  generateMoatNarrative: { symbol: 'AAPL', language: 'en' },
  listMoatReports: { tags: ['core'] },
  screenMoat: { scoreMin: 50 },
  saveMoatReport: { symbol: 'AAPL', evaluationJson: '{}' },
  getEvaluationHistory: { symbol: 'AAPL' },
  compareEvaluations: { symbol: 'AAPL' },
  getEvaluationChanges: { since: '2026-01-01T00:00:00Z' },
  getPortfolioPerformance: { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e', period: '1Y' },
  listPortfolioChanges: { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e', limit: 10 },
  getPortfolioXray: { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e' },
};

/** Arguments that break each tool's input schema, and the path named in the problem. */
const INVALID_ARGUMENTS: [McpToolName, Record<string, unknown>, string][] = [
  ['listHoldings', { portfolioId: 42 }, 'portfolioId'],
  ['listCash', { portfolioId: '' }, 'portfolioId'],
  ['listHoldings', { portfolioId: 'p1' }, 'portfolioId'],
  ['getMoatEvaluation', { symbol: 'AAPL; DROP' }, 'symbol'],
  ['getMoatEvaluation', { symbol: 'ABCDEFGHIJK' }, 'symbol'],
  ['getMoatEvaluation', { fresh: true }, 'symbol'],
  ['getMoatEvaluation', { symbol: 'AAPL', fresh: 'yes' }, 'fresh'],
  ['getEvaluationHistory', { symbol: 'AAPL', limit: 101 }, 'limit'],
  ['compareEvaluations', { symbol: 'AAPL', from: 'x' }, 'from'],
  ['getEvaluationChanges', { since: 'yesterday' }, 'since'],
  ['generateMoatNarrative', { symbol: 'AAPL' }, 'language'],
  ['listMoatReports', { tags: ['ok', ''] }, 'tags.1'],
  ['screenMoat', { limit: 500 }, 'limit'],
  ['saveMoatReport', { symbol: 'AAPL', evaluationJson: 7 }, 'evaluationJson'],
  ['saveMoatReport', { symbol: 'AAPL', tags: ['core'] }, 'evaluation'],
  ['getPortfolioPerformance', {}, 'portfolioId'],
  [
    'listPortfolioChanges',
    { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e', limit: 0 },
    'limit',
  ],
  [
    'getPortfolioPerformance',
    { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e', period: '2W' },
    'period',
  ],
  [
    'getPortfolioPerformance',
    { portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e', from: '2024-02-30' },
    'from',
  ],
];

describe('buildMcpServer', () => {
  it('calls the flow as the actor and mirrors structuredContent as text', async () => {
    const { services, calls } = fakeServices();
    const client = await connected(services, []);
    const result = (await client.callTool({ name: 'listPortfolios' })) as CallToolResult;
    expect(calls).toEqual([['listPortfolios', 'user-1']]);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      portfolios: [
        { id: 'p1', name: 'Core', baseCurrency: 'EUR', createdAt: '2024-01-01T00:00:00.000Z' },
      ],
    });
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify(result.structuredContent) },
    ]);
  });

  it('getPortfolioPerformance passes the query to the flow and answers its figures', async () => {
    const { services, calls } = fakeServices();
    const client = await connected(services, []);
    const result = (await client.callTool({
      name: 'getPortfolioPerformance',
      arguments: { portfolioId: PERFORMANCE.portfolioId, period: '1Y', to: '2024-03-01' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(PERFORMANCE);
    expect(calls).toContainEqual([
      'getPerformance',
      'user-1',
      PERFORMANCE.portfolioId,
      { period: '1Y', to: '2024-03-01' },
    ]);
  });

  it('maps a thrown error through toProblem into isError with the problem as JSON text only', async () => {
    const { services } = fakeServices();
    const mapped: unknown[] = [];
    const client = await connected(services, mapped);
    const result = (await client.callTool({ name: 'listCash' })) as CallToolResult;
    expect(problemOf(result)).toEqual(PROBLEM);
    expect((mapped[0] as Error).message).toBe('boom');
  });

  it.each(MCP_TOOL_NAMES)(
    '%s: a failing flow reaches the SDK client as a readable problem',
    async (name) => {
      const mapped: unknown[] = [];
      const client = await connected(FAILING_SERVICES, mapped);
      const result = (await client.callTool({
        name,
        arguments: VALID_ARGUMENTS[name],
      })) as CallToolResult;
      expect(problemOf(result).code).toBe('not_found');
      expect((mapped[0] as Error).message).toBe('boom');
    },
  );

  it.each(INVALID_ARGUMENTS)(
    '%s %j: invalid arguments answer validation_failed naming %s',
    async (name, args, path) => {
      const { services } = fakeServices();
      const client = await connected(services, []);
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const problem = problemOf(result);
      expect(problem).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(problem.errors).toContainEqual({ path, message: expect.any(String) });
    },
  );

  it('answers an unknown tool with JSON-RPC error -32602', async () => {
    const client = await connected(fakeServices().services, []);
    await expect(client.callTool({ name: 'noSuchTool' })).rejects.toThrow(/-32602.*noSuchTool/);
  });

  it('turns a result outside the outputSchema into a problem instead of sending it', async () => {
    const { services } = fakeServices();
    const broken = { ...services, reports: { ...services.reports, save: async () => ({ id: 7 }) } };
    const mapped: unknown[] = [];
    const client = await connected(broken as unknown as McpServices, mapped);
    const args = { name: 'saveMoatReport', arguments: VALID_ARGUMENTS.saveMoatReport };
    expect(problemOf((await client.callTool(args)) as CallToolResult).code).toBe('not_found');
    expect((mapped[0] as Error).message).toMatch(/outside its outputSchema/);
  });
});

describe('mcpDiscovery', () => {
  it('points at the endpoint and the token page and lists every tool', () => {
    const doc = mcpDiscovery(
      { baseUrl: 'https://svc.example', accountUrl: 'https://account.example' },
      { name: 'moat-portfolio', version: '1.2.3' },
    );
    expect(doc).toMatchObject({
      name: 'moat-portfolio',
      version: '1.2.3',
      transport: 'streamable-http',
      url: 'https://svc.example/api/mcp/user/mcp',
      authentication: {
        type: 'bearer',
        tokenPrefix: 'svc_pat_',
        tokenUrl: 'https://account.example/account/developer',
      },
    });
    expect(doc.tools.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    expect(doc.tools.every((t) => t.description.length > 20)).toBe(true);
  });
});
