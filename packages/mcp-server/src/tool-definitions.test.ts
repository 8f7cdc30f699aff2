import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { buildReadTools, TOOL_DEFINITIONS, type ToolFlows, toolsOn } from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { buildMcpServer } from './build-mcp-server.js';
import { DEFAULT_SERVER_INFO, type McpProblem, type McpServices } from './deps.js';
import { mcpDiscovery } from './discovery.js';
import { portableJsonSchema } from './portable-json-schema.js';

const PROBLEM: McpProblem = {
  type: '/problem',
  title: 'Internal',
  status: 500,
  detail: 'x',
  code: 'internal',
};

/** `tools/list` as the official SDK client reads it, with every scope. */
async function listedTools(): Promise<Tool[]> {
  const { server } = buildMcpServer({
    services: {} as McpServices,
    actor: { id: 'user-1', plan: 'free' },
    toProblem: () => PROBLEM,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

/** The advisor's tools of a turn (their flows are not called here). */
const advisorTools = buildReadTools({} as ToolFlows, {
  actor: { id: 'user-1', plan: 'free' },
  lastUserMessage: '',
});

/** A JSON Schema without what only the advisor's strict copy adds (no invented arguments). */
function withoutStrictness(schema: Record<string, unknown>): Record<string, unknown> {
  const { additionalProperties: _strict, ...rest } = schema;
  return rest;
}

describe('one tool definition for MCP and the advisor', () => {
  it('MCP lists exactly the definitions of the mcp surface, in catalogue order, as the discovery document', async () => {
    const listed = await listedTools();
    const names = toolsOn('mcp').map((t) => t.name);
    expect(listed.map((t) => t.name)).toEqual(names);
    expect(names).toHaveLength(14);
    const discovery = mcpDiscovery(
      { baseUrl: 'http://x', accountUrl: 'http://x' },
      DEFAULT_SERVER_INFO,
    );
    expect(discovery.tools).toEqual(
      listed.map((t) => ({ name: t.name, description: t.description })),
    );
  });

  it('every shared tool shows the same description and input schema on both surfaces', async () => {
    const listed = new Map((await listedTools()).map((t) => [t.name, t]));
    const shared = TOOL_DEFINITIONS.filter(
      (d) => d.surfaces.includes('mcp' as never) && d.surfaces.includes('advisor' as never),
    );
    expect(shared.map((d) => d.name)).toEqual([
      'listPortfolios',
      'listHoldings',
      'listCash',
      'getMoatEvaluation',
      'listMoatReports',
      'screenMoat',
      'getPortfolioPerformance',
      'listPortfolioChanges',
      'getPortfolioXray',
    ]);
    for (const definition of shared) {
      const mcp = listed.get(definition.name);
      const advisor = advisorTools.find((t) => t.name === definition.name);
      expect(mcp, definition.name).toBeDefined();
      expect(advisor, definition.name).toBeDefined();
      if (!mcp || !advisor) continue;
      expect(mcp.description).toBe(definition.description);
      expect(advisor.description).toBe(definition.description);
      expect(mcp.inputSchema).toEqual(portableJsonSchema(definition.input, 'input'));
      // The advisor's parameters are the same schema, strict at the top.
      const parameters = portableJsonSchema(advisor.parameters, 'input');
      expect(parameters.additionalProperties).toBe(false);
      expect(withoutStrictness(parameters)).toEqual(withoutStrictness(mcp.inputSchema));
    }
  });

  it('a tool of one surface says so and is absent from the other', async () => {
    const listed = (await listedTools()).map((t) => t.name);
    const advisorNames = advisorTools.map((t) => t.name);
    for (const definition of TOOL_DEFINITIONS) {
      const surfaces: readonly string[] = definition.surfaces;
      expect(listed.includes(definition.name), definition.name).toBe(surfaces.includes('mcp'));
      expect(advisorNames.includes(definition.name), definition.name).toBe(
        surfaces.includes('advisor'),
      );
    }
    expect(listed).toContain('saveMoatReport');
    expect(advisorNames).not.toContain('saveMoatReport');
    expect(advisorNames).toContain('getQuote');
    expect(listed).not.toContain('getQuote');
  });

  it('saveMoatReport lists its requirement: an object needing evaluation or evaluationJson', async () => {
    const save = (await listedTools()).find((t) => t.name === 'saveMoatReport');
    expect(save?.inputSchema).toMatchObject({
      type: 'object',
      required: ['symbol'],
      anyOf: [{ required: ['evaluation'] }, { required: ['evaluationJson'] }],
    });
  });
});
