import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildMcpServer, toolRegistryOf } from './build-mcp-server.js';
import type { McpServices } from './deps.js';
import { DispatchTransport } from './dispatch-transport.js';
import { answerToolCall } from './tool-call.js';
import { toolResult, toolResultJson } from './tool-result.js';

const PORTFOLIOS = {
  good: [{ id: 'p1', name: 'Core', baseCurrency: 'EUR', createdAt: '2024-01-01T00:00:00.000Z' }],
  // breaks the tool's outputSchema: a bug of the flow, answered as a problem
  broken: [{ id: 5 }],
};

/** A server over flows answering `portfolios`, its registry, its SDK path and its audit rows. */
async function serverOf(portfolios: unknown[], mapperFails = false) {
  const audited: string[] = [];
  const services = {
    portfolios: { listPortfolios: async () => portfolios },
  } as unknown as McpServices;
  const server = buildMcpServer({
    services,
    actor: { id: 'user-1', plan: 'free' },
    toProblem: (error) => {
      // a mapper that fails makes the call itself throw: the SDK answers a JSON-RPC error
      if (mapperFails) throw Object.assign(new Error('mapper failed'), { data: { why: 'test' } });
      return {
        type: '/problem',
        title: 'Failed',
        status: 400,
        detail: String(error),
        code: 'validation_failed',
      };
    },
    audit: async (call) => {
      audited.push(`${call.tool}:${call.outcome}`);
    },
  });
  const transport = new DispatchTransport();
  await server.connect(transport);
  const tools = toolRegistryOf(server);
  if (tools === undefined) throw new Error('no registry');
  const viaSdk = async (request: JSONRPCRequest) => transport.dispatch(request, {});
  return { tools, viaSdk, audited };
}

const call = (params: Record<string, unknown>, id: string | number = 7): JSONRPCRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

describe('answerToolCall', () => {
  it.each([
    ['a result', PORTFOLIOS.good, { name: 'listPortfolios', arguments: {} }, 'result'],
    ['a result without arguments', PORTFOLIOS.good, { name: 'listPortfolios' }, 'result'],
    [
      'a tool error (bad arguments)',
      PORTFOLIOS.good,
      { name: 'listHoldings', arguments: { portfolioId: 3 } },
      'result',
    ],
    ['a problem (output schema broken)', PORTFOLIOS.broken, { name: 'listPortfolios' }, 'result'],
    [
      'a JSON-RPC error (the mapping fails)',
      PORTFOLIOS.broken,
      { name: 'listPortfolios' },
      'error',
    ],
  ])('answers %s as the SDK does, audited once', async (_case, portfolios, params, kind) => {
    const sdk = await serverOf(portfolios, kind === 'error');
    const direct = await serverOf(portfolios, kind === 'error');
    const expected = await sdk.viaSdk(call(params, 'req-1'));
    const bytes = await answerToolCall(direct.tools, call(params, 'req-1'));
    expect(bytes).not.toBeNull();
    expect(JSON.parse(String(bytes))).toEqual(expected);
    expect(Object.keys(expected)).toContain(kind);
    expect(direct.audited).toEqual(sdk.audited);
    expect(direct.audited).toHaveLength(kind === 'error' ? 0 : 1);
  });

  it.each([
    ['an unknown tool', { name: 'noSuchTool' }],
    ['params the SDK refuses', { name: 7 }],
    ['a task-augmented call', { name: 'listPortfolios', task: { ttl: 1000 } }],
  ])('leaves %s to the SDK, calling nothing', async (_case, params) => {
    const direct = await serverOf(PORTFOLIOS.good);
    expect(await answerToolCall(direct.tools, call(params))).toBeNull();
    expect(direct.audited).toEqual([]);
  });

  it('leaves methods other than tools/call to the SDK', async () => {
    const direct = await serverOf(PORTFOLIOS.good);
    const list: JSONRPCRequest = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    expect(await answerToolCall(direct.tools, list)).toBeNull();
  });
});

describe('toolResultJson', () => {
  it('is the JSON of the result, its bytes made once per frozen answer object', () => {
    const answer = Object.freeze({ symbol: 'AAPL', note: 'quotes " and \\ and é' });
    const first = toolResultJson(toolResult(answer));
    expect(JSON.parse(String(first))).toEqual(JSON.parse(JSON.stringify(toolResult(answer))));
    expect(toolResultJson(toolResult(answer))).toBe(first);
    expect(toolResultJson(toolResult({ ...answer }))).not.toBe(first);
  });

  it('serializes an answer that is not frozen every time (it may have changed)', () => {
    const answer: Record<string, unknown> = { symbol: 'AAPL' };
    const first = toolResultJson(toolResult(answer));
    answer.symbol = 'MSFT';
    const second = toolResultJson(toolResult(answer));
    expect(second).not.toBe(first);
    expect(JSON.parse(String(second)).structuredContent.symbol).toBe('MSFT');
  });

  it('serializes results it did not make as they come', () => {
    const made = { content: [{ type: 'text' as const, text: 'x' }], isError: true };
    expect(String(toolResultJson(made))).toBe(JSON.stringify(made));
  });
});
