import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { MCP_ENDPOINT_PATH } from '@svc/mcp-server';
import { MAX_HEADER_BYTES, MAX_PARAM_LENGTH, serverTimeouts } from '@svc/service';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

/** Hooks open databases and build apps: slow on a busy machine. */
const SLOW_HOOK_MS = 180_000;

/** Asserts a problem+json answer of `status` with `code`, and answers its body. */
function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  code: string,
): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/problem+json');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code });
  return body;
}

describe('hostile input is refused at the boundary, never a 500', () => {
  let ctx: TestContext;
  let cookie: string;
  let portfolioId: string;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ cookie } = await registerUser(ctx.app, 'hostile@example.com'));
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'Main' },
    });
    portfolioId = created.json().id;
    const minted = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'agent' },
    });
    token = minted.json().token;
  }, SLOW_HOOK_MS);
  afterAll(() => ctx.close(), SLOW_HOOK_MS);

  const get = (url: string): Promise<LightMyRequestResponse> =>
    ctx.app.inject({ url, headers: { cookie } });
  const post = (url: string, payload: string | object, type = 'application/json') =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { cookie, ...ORIGIN, 'content-type': type },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it.each([
    ['/api/moat-screener?sector=%00', 'querystring.sector'],
    ['/api/moat-reports?tags=%00', 'querystring.tags'],
    ['/api/transactions?symbol=A%00B', 'querystring.symbol'],
    ['/api/moat-screener?sector=%FF', 'querystring'],
    ['/api/moat-screener?sector=%ED%A0%80', 'querystring'],
    ['/api/moat-screener?sector=100%', 'querystring'],
  ])('refuses %s with 400 validation_failed on %s', async (url, path) => {
    const body = expectProblem(await get(url), 400, 'validation_failed');
    expect(body.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it('refuses NUL in a path parameter', async () => {
    expectProblem(await get('/api/moat-reports/%00'), 400, 'validation_failed');
  });

  it.each([
    ['a NUL in a value', { name: '\u0000' }, 'body.name'],
    ['a NUL inside a value', { name: 'Main\u0000Street' }, 'body.name'],
    ['a NUL in a key', { 'na\u0000me': 'x' }, 'body.na\u0000me'],
    ['a lone surrogate', { name: 'a\ud800b' }, 'body.name'],
  ])('refuses a JSON body with %s', async (_name, payload, path) => {
    const body = expectProblem(await post('/api/portfolios', payload), 400, 'validation_failed');
    expect(body.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it('refuses a JSON body that is not UTF-8 instead of patching it', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"M'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie, ...ORIGIN, 'content-type': 'application/json' },
      payload: bytes,
    });
    const body = expectProblem(res, 400, 'validation_failed');
    expect(body.errors).toEqual([{ path: 'body', message: 'must be valid UTF-8' }]);
  });

  it('keeps JSON prototype-poisoning protection and malformed-JSON answers', async () => {
    expectProblem(await post('/api/portfolios', '{"__proto__":{"x":1}}'), 400, 'validation_failed');
    expectProblem(await post('/api/portfolios', '{"name":'), 400, 'validation_failed');
    const ok = await post('/api/portfolios', { name: 'Zürich 🏔' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().name).toBe('Zürich 🏔');
  });

  it.each([
    ['quantity', { quantity: 'str' }],
    ['price', { price: 'NaN' }],
    ['fee', { fee: '1e3' }],
  ])('refuses a non-numeric decimal %s in a transaction with its field', async (field, over) => {
    const tx = {
      type: 'buy',
      symbol: 'AAPL',
      quantity: '1',
      price: '10',
      currency: 'USD',
      executedAt: '2024-01-02T00:00:00Z',
      ...over,
    };
    const res = await post(`/api/portfolios/${portfolioId}/transactions`, tx);
    const body = expectProblem(res, 400, 'validation_failed');
    expect(JSON.stringify(body.errors)).toContain(field);
  });

  it.each([
    ['no boundary', 'multipart/form-data', 'whatever'],
    [
      'a broken part',
      'multipart/form-data; boundary=zz',
      '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nDate,',
    ],
    ['an empty body', 'multipart/form-data; boundary=zz', ''],
    ['a header-less part', 'multipart/form-data; boundary=zz', '--zz\r\n\r\n\r\n--zz--\r\n'],
  ])('answers a multipart body with %s with 400', async (_name, type, payload) => {
    const res = await post(`/api/portfolios/${portfolioId}/import`, payload, type);
    expectProblem(res, 400, 'validation_failed');
  });

  it('refuses a NUL inside a multipart file part (it would reach PostgreSQL as text)', async () => {
    const csv =
      'Date,Type,Ticker,Quantity,Price per share,Total Amount,Currency,FX Rate\n' +
      '2024-01-02T10:00:00Z,BUY - MARKET,AA\u0000PL,1,100,100,USD,1.1\n';
    const payload = `--zz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--zz--\r\n`;
    const res = await post(
      `/api/portfolios/${portfolioId}/import`,
      payload,
      'multipart/form-data; boundary=zz',
    );
    const body = expectProblem(res, 400, 'validation_failed');
    expect(body.errors).toEqual([{ path: 'body.file', message: expect.stringContaining('NUL') }]);
  });

  it('answers a URL that does not decode as problem+json (Fastify FST_ERR_BAD_URL)', async () => {
    expectProblem(await get('/api/docs/%ZZ'), 400, 'validation_failed');
  });

  it('answers a path parameter beyond maxParamLength with 414 problem+json', async () => {
    expectProblem(
      await get(`/api/moat-reports/${'a'.repeat(MAX_PARAM_LENGTH + 1)}`),
      414,
      'validation_failed',
    );
  });

  it('answers a docs section of 30 emoji (within maxLength) 404, not 414', async () => {
    const section = encodeURIComponent('😀'.repeat(30));
    expectProblem(await get(`/api/docs/${section}`), 404, 'not_found');
  });

  it('refuses NUL in MCP tool arguments with 400 problem+json before any tool runs', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: MCP_ENDPOINT_PATH,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'screenMoat', arguments: { sector: '\u0000' } },
      }),
    });
    const body = expectProblem(res, 400, 'validation_failed');
    expect(body.errors).toEqual([
      { path: 'body.params.arguments.sector', message: expect.any(String) },
    ]);
  });
});

/** The request timeout of the socket suite: short, so that the slow-body case runs quickly. */
const REQUEST_TIMEOUT_MS = 1_500;

describe("Fastify's own answers over a real socket are problem+json", () => {
  let ctx: TestContext;
  let port: number;

  beforeAll(async () => {
    ctx = await createTestContext({
      server: serverTimeouts(REQUEST_TIMEOUT_MS),
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  }, SLOW_HOOK_MS);
  afterAll(() => ctx.close(), SLOW_HOOK_MS);

  /** Sends raw bytes and answers the raw HTTP response once the server closes the socket. */
  function raw(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  }

  function parsed(response: string): { status: number; type: string; body: unknown } {
    const [head = '', body = ''] = response.split('\r\n\r\n');
    const status = Number(head.split(' ')[1]);
    const type = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
    return { status, type, body: JSON.parse(body) };
  }

  it('431 for headers beyond the limit', async () => {
    const answer = parsed(
      await raw(
        `GET /api/docs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`,
      ),
    );
    expect(answer).toMatchObject({
      status: 431,
      type: 'application/problem+json',
      body: { status: 431, code: 'validation_failed' },
    });
  });

  it('serves a query value within its maxLength at 12 bytes a character, not 431', async () => {
    const tags = encodeURIComponent('😀'.repeat(2_000));
    const response = await raw(
      `GET /api/moat-reports?tags=${tags} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(parsed(response).status).toBe(401);
  });

  it('408 and a closed socket when a body arrives too slowly (requestTimeout honoured)', async () => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"email":',
    );
    // keep trickling a byte every 200 ms: the connection is never idle, the request never ends
    const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
    await closed;
    clearInterval(trickle);
    const elapsed = Date.now() - started;
    // Node checks the timeout every connectionsCheckingInterval (1 s here, 30 s by default)
    expect(elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_MS + 3_000);
    const answer = parsed(Buffer.concat(chunks).toString('utf8'));
    expect(answer).toMatchObject({
      status: 408,
      type: 'application/problem+json',
      body: { status: 408, code: 'validation_failed' },
    });
  });

  it('400 for bytes that are not HTTP', async () => {
    const answer = parsed(await raw('NOT HTTP AT ALL\r\n\r\n'));
    expect(answer).toMatchObject({
      status: 400,
      type: 'application/problem+json',
      body: { status: 400, code: 'validation_failed' },
    });
  });
});

describe('shutdown', () => {
  it(
    'lets an in-flight request finish and answers a later one 503 problem+json',
    async () => {
      const ctx = await createTestContext();
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = ctx.app.server.address() as AddressInfo;
      const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' });
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      const ended = new Promise((resolve) => socket.on('close', resolve));
      const received = new Promise((resolve) => ctx.app.server.once('request', resolve));
      // a request in flight: its body is still arriving when the server starts closing
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nOrigin: ${ORIGIN.origin}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      await received;
      const closing = ctx.app.close();
      // the server stops listening after the preClose hooks ran: the app knows it is closing
      await expect.poll(() => ctx.app.server.listening, { timeout: 10_000 }).toBe(false);
      // the rest of its body, then a second request on the same keep-alive connection
      socket.write(`${body.slice(5)}GET /api/docs HTTP/1.1\r\nHost: x\r\n\r\n`);
      await ended;
      await closing;
      await ctx.close();

      const text = Buffer.concat(chunks).toString('utf8');
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      expect(statuses).toEqual([401, 503]);
      const second = text.slice(text.lastIndexOf('HTTP/1.1 503'));
      expect(second).toMatch(/content-type: application\/problem\+json/i);
      expect(second).toMatch(/retry-after: 1/i);
      expect(second).toMatch(/connection: close/i);
      expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toMatchObject({
        status: 503,
        code: 'upstream_unavailable',
      });
    },
    SLOW_HOOK_MS,
  );
});
