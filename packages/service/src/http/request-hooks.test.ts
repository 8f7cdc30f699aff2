import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UseCaseError } from '@svc/use-cases';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerInputGuard } from './input-guard.js';
import { REQUEST_ID_OPTIONS } from './logging.js';
import { registerProblemHandler } from './problem-handler.js';
import { registerRequestHooks } from './request-hooks.js';

const CHALLENGE = 'Cookie realm="test"';

/** A server as both apps build theirs: problem handler, request hooks, input guard, routes. */
async function build(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, ...REQUEST_ID_OPTIONS });
  registerProblemHandler(app, { challenge: CHALLENGE });
  registerRequestHooks(app);
  registerInputGuard(app);
  app.get('/items/:id', async (request) => ({ params: request.params, query: request.query }));
  app.post('/items', async (request) => ({ body: request.body }));
  app.patch('/items/:id', { preValidation: async () => {} }, async (request) => request.body);
  app.get('/private', async () => {
    throw new UseCaseError('unauthorized', 'Sign in first.');
  });
  app.get('/bearer', async (_request, reply) => {
    reply.header('www-authenticate', 'Bearer realm="x"');
    throw new UseCaseError('unauthorized', 'A token is required.');
  });
  await app.ready();
  return app;
}

/** The names of the hooks `printRoutes` lists for a route, per phase. */
function hooksOf(app: FastifyInstance, method: string, path: string): Record<string, string[]> {
  const lines = app.printRoutes({ includeHooks: true, commonPrefix: false, method }).split('\n');
  const at = lines.findIndex((line) => line.includes(`${path} (${method})`));
  expect(at, `${method} ${path} is listed`).toBeGreaterThan(-1);
  const hooks: Record<string, string[]> = {};
  for (const line of lines.slice(at + 1)) {
    const match = /• \((\w+)\) (\[.*\])/.exec(line);
    if (!match?.[1] || !match[2]) break;
    hooks[match[1]] = JSON.parse(match[2]) as string[];
  }
  return hooks;
}

describe('registerRequestHooks and registerInputGuard', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('echoes X-Request-Id on every answer: 200, 400, 404, 405 and 401', async () => {
    app = await build();
    for (const [method, url, status] of [
      ['GET', '/items/1', 200],
      ['GET', '/items/1?q=%00', 400],
      ['GET', '/nowhere', 404],
      ['DELETE', '/items', 405],
      ['GET', '/private', 401],
    ] as const) {
      const res = await app.inject({ method, url, headers: { 'x-request-id': 'req-42' } });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.headers['x-request-id'], `${method} ${url}`).toBe('req-42');
    }
    const generated = await app.inject({ url: '/items/1', headers: { 'x-request-id': 'bad id!' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 405 with Allow for a known path asked with a method it lacks, 404 otherwise', async () => {
    app = await build();
    const wrong = await app.inject({ method: 'PUT', url: '/items/7' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD, PATCH');
    expect(wrong.json()).toMatchObject({ code: 'method_not_allowed' });
    expect((await app.inject({ method: 'PUT', url: '/elsewhere' })).statusCode).toBe(404);
  });

  it.each([
    ['/items/1?q=%00', 'querystring.q'],
    ['/items/1?q=%ED%A0%80', 'querystring'],
    ['/items/1?q=%FF', 'querystring'],
    ['/items/a%00b', 'params.id'],
    // a raw NUL (no `%` escape) in the URL `inject` is given: refused as the escaped form is
    ['/items/1?q=a\u0000b', 'querystring.q'],
    ['/items/a\u0000b', 'params.id'],
  ])('refuses %s with 400 validation_failed on %s', async (url, path) => {
    app = await build();
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path }] });
  });

  it('serves a URL without escapes, and with escapes of clean text, as it is', async () => {
    app = await build();
    for (const [url, id, q] of [
      ['/items/7?q=a+b&r=x', '7', 'a b'],
      ['/items/%C3%A9t%C3%A9?q=%F0%9F%98%80', 'été', '\u{1F600}'],
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toMatchObject({ params: { id }, query: { q } });
    }
  });

  it('refuses NUL and lone surrogates in bodies of POST and PATCH, keys included', async () => {
    app = await build();
    const send = (method: 'POST' | 'PATCH', url: string, body: string) =>
      app?.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: body });
    const cases = [
      ['POST', '/items', '{"name":"a\\u0000b"}', 'body.name'],
      ['POST', '/items', '{"a\\u0000":1}', 'body.a\u0000'],
      ['PATCH', '/items/1', '{"list":["ok","\\ud800"]}', 'body.list.1'],
    ] as const;
    for (const [method, url, body, path] of cases) {
      const res = await send(method, url, body);
      expect(res?.statusCode, body).toBe(400);
      expect(res?.json()).toMatchObject({ code: 'validation_failed', errors: [{ path }] });
    }
    expect((await send('POST', '/items', '{"name":"Nestlé ≥ 😀"}'))?.json()).toEqual({
      body: { name: 'Nestlé ≥ 😀' },
    });
  });

  it('runs one onRequest hook per request, and a body check only on routes that take a body', async () => {
    app = await build();
    const get = hooksOf(app, 'GET', '/items/:id');
    expect(get.onRequest).toHaveLength(1);
    expect(get.preValidation).toBeUndefined();
    expect(get.onSend).toBeUndefined();
    expect(hooksOf(app, 'POST', '/items').preValidation).toHaveLength(1);
    // a route's own preValidation runs after the body check
    expect(hooksOf(app, 'PATCH', '/items/:id').preValidation).toHaveLength(2);
  });

  it('sets the challenge on a 401 that has none, and keeps a route’s own', async () => {
    app = await build();
    const session = await app.inject({ url: '/private' });
    expect(session.headers['www-authenticate']).toBe(CHALLENGE);
    const bearer = await app.inject({ url: '/bearer' });
    expect(bearer.statusCode).toBe(401);
    expect(bearer.headers['www-authenticate']).toBe('Bearer realm="x"');
    expect((await app.inject({ url: '/items/1' })).headers['www-authenticate']).toBeUndefined();
  });

  it('answers a request that arrives while the server closes 503 with Retry-After and Connection: close', async () => {
    const server = Fastify({
      logger: false,
      ...REQUEST_ID_OPTIONS,
      forceCloseConnections: false,
      return503OnClosing: false, // as createServer: the hook answers, not Fastify
    });
    app = server;
    registerProblemHandler(server);
    registerRequestHooks(server);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.get('/slow', async () => {
      await held;
      return { done: true };
    });
    server.get('/fast', async () => ({ fast: true }));
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as AddressInfo;
    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (path: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
        (resolve, reject) => {
          const req = httpRequest({ port, path, agent, host: '127.0.0.1' }, (res) => {
            let body = '';
            res.on('data', (chunk) => {
              body += chunk;
            });
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body }),
            );
          });
          req.on('error', reject);
          req.end();
        },
      );
    expect((await ask('/fast')).status).toBe(200);
    const slow = ask('/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = server.close();
    // the keep-alive socket is still open while /slow is in flight: a request queued on it
    const refused = ask('/fast');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect((await slow).status).toBe(200);
    const answer = await refused;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'upstream_unavailable' });
    agent.destroy();
    await closed;
    app = undefined;
  });
});
