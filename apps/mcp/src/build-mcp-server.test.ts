import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildMcpServer } from './build-mcp-server.js';
import type { McpProblem, McpServices } from './deps.js';
import { mcpDiscovery } from './discovery.js';
import { MCP_TOOL_NAMES } from './tool-catalog.js';

const PROBLEM: McpProblem = {
  type: '/problem',
  title: 'Not found',
  status: 404,
  detail: 'No such resource.',
  code: 'not_found',
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
      listCash: async () => {
        throw new Error('boom');
      },
    },
    quotas: {
      withQuota: async <T>(_u: string, _p: string, _n: string, work: () => Promise<T>) => work(),
    },
  } as unknown as McpServices;
  return { services, calls };
}

async function connected(services: McpServices, mapped: unknown[]) {
  const server = buildMcpServer({
    services,
    actor: { id: 'user-1', plan: 'free' },
    toProblem: (error) => {
      mapped.push(error);
      return PROBLEM;
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  return client;
}

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

  it('maps a thrown error through toProblem into an isError result', async () => {
    const { services } = fakeServices();
    const mapped: unknown[] = [];
    const client = await connected(services, mapped);
    const result = (await client.callTool({ name: 'listCash' })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(PROBLEM);
    expect((mapped[0] as Error).message).toBe('boom');
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
