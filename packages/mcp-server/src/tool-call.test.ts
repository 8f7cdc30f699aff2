import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildMcpServer } from './build-mcp-server.js';
import type { McpServices, ProblemMapper } from './deps.js';
import { answerToolCall, type PlainToolCall, plainToolCall } from './tool-call.js';
import { toolResult, toolResultJson } from './tool-result.js';

const PORTFOLIOS = {
  good: [{ id: 'p1', name: 'Core', baseCurrency: 'EUR', createdAt: '2024-01-01T00:00:00.000Z' }],
  // breaks the tool's outputSchema: a bug of the flow, answered as a problem
  broken: [{ id: 5 }],
};

/** A server over flows answering `portfolios`, its registry, its SDK path and its audit rows. */
async function serverOf(portfolios: unknown[], mapperFails = false) {
  const audited: string[] = [];
  const mapped: string[] = [];
  const services = {
    portfolios: { listPortfolios: async () => portfolios },
  } as unknown as McpServices;
  const mapper =
    (via: string): ProblemMapper =>
    (error) => {
      mapped.push(via);
      // a mapper that fails makes the call itself throw: the SDK answers a JSON-RPC error
      if (mapperFails) throw Object.assign(new Error('mapper failed'), { data: { why: 'test' } });
      return {
        type: '/problem',
        title: 'Failed',
        status: 400,
        detail: String(error),
        code: 'validation_failed',
      };
    };
  const { server, tools } = buildMcpServer({
    services,
    actor: { id: 'user-1', plan: 'free' },
    toProblem: mapper('server'),
    audit: async (call) => {
      audited.push(`${call.tool}:${call.outcome}`);
    },
  });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.start();
  const viaSdk = (request: JSONRPCRequest) =>
    new Promise<JSONRPCMessage>((resolve) => {
      client.onmessage = resolve;
      void client.send(request);
    });
  return { tools, viaSdk, audited, mapped, toProblem: mapper('call') };
}

/** The fast path's reading of a `tools/call` request (the SDK's shape of one). */
const plain = (request: JSONRPCRequest): PlainToolCall => ({
  id: request.id,
  name: String(request.params?.name),
  arguments: request.params?.arguments as Record<string, unknown> | undefined,
});

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
    const request = call(params, 'req-1');
    const bytes = await answerToolCall(direct.tools, plain(request), direct.toProblem);
    expect(bytes).not.toBeNull();
    expect(JSON.parse(String(bytes))).toEqual(expected);
    expect(Object.keys(expected)).toContain(kind);
    expect(direct.audited).toEqual(sdk.audited);
    expect(direct.audited).toHaveLength(kind === 'error' ? 0 : 1);
    // the mapping that travelled with the call is the one used, never the server's
    expect(direct.mapped.every((via) => via === 'call')).toBe(true);
    expect(direct.mapped).toHaveLength(sdk.mapped.length);
  });

  it('leaves an unknown tool to the SDK, calling nothing', async () => {
    const direct = await serverOf(PORTFOLIOS.good);
    const request = call({ name: 'noSuchTool' });
    expect(await answerToolCall(direct.tools, plain(request), direct.toProblem)).toBeNull();
    expect(direct.audited).toEqual([]);
  });
});

describe('plainToolCall', () => {
  const HEADERS = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  /** What `plainToolCall` makes of a POST with this body and these headers. */
  async function read(body: unknown, headers: Record<string, string> = HEADERS) {
    const app = Fastify();
    let seen: PlainToolCall | null | undefined;
    app.post('/', async (request) => {
      seen = plainToolCall(request);
      return {};
    });
    await app.inject({ method: 'POST', url: '/', headers, payload: JSON.stringify(body) });
    await app.close();
    return seen;
  }

  it('reads a plain tools/call: id, name and arguments, nothing parsed further', async () => {
    const args = { symbol: 'AAPL', fresh: 'not checked here' };
    expect(await read(call({ name: 'getMoatEvaluation', arguments: args }, 'x'))).toEqual({
      id: 'x',
      name: 'getMoatEvaluation',
      arguments: args,
    });
    expect(await read(call({ name: 'listPortfolios' }, 3))).toEqual({
      id: 3,
      name: 'listPortfolios',
      arguments: undefined,
    });
  });

  it.each([
    ['another method', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }],
    ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }],
    ['a notification', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'a' } }],
    ['a batch', [call({ name: 'listPortfolios' })]],
    ['a fractional id', call({ name: 'listPortfolios' }, 1.5)],
    ['a null id', { ...call({ name: 'listPortfolios' }), id: null }],
    ['another jsonrpc', { ...call({ name: 'listPortfolios' }), jsonrpc: '1.0' }],
    ['a key beside the request', { ...call({ name: 'listPortfolios' }), extra: 1 }],
    ['params the SDK refuses', call({ name: 7 })],
    ['arguments that are no object', call({ name: 'listPortfolios', arguments: [1] })],
    ['a null argument object', call({ name: 'listPortfolios', arguments: null })],
    ['a task-augmented call', call({ name: 'listPortfolios', task: { ttl: 1000 } })],
    ['a call with _meta', call({ name: 'listPortfolios', _meta: { progressToken: 1 } })],
  ])('leaves %s to the SDK', async (_case, body) => {
    expect(await read(body)).toBeNull();
  });

  it.each([
    ['no event-stream in Accept', { ...HEADERS, accept: 'application/json' }],
    ['a text body', { ...HEADERS, 'content-type': 'text/plain' }],
    ['an unknown protocol version', { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }],
  ])('leaves a request with %s to the SDK', async (_case, headers) => {
    expect(await read(call({ name: 'listPortfolios' }), headers)).toBeNull();
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
