import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { MCP_ENDPOINT_PATH } from '@svc/mcp-server';
import { createLogger, loadConfig, openRuntime, type Runtime } from '@svc/service';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { trackEventStream } from '../src/plugins/external/metrics.js';
import { BASE_URL, createTestContext, ORIGIN, registerUser, sessionCookie } from './helpers.js';
import { COMPANYFACTS_DIR } from './shared-data.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const PASSWORD = 'a very secret passphrase 7';
const silent = { info: () => {}, warn: () => {} };

/** A log destination that keeps every line. */
function captureLines() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

/** The real runtime (as `server.ts` opens it) on an embedded database in a temporary folder. */
async function openTestRuntime(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-api-observability-'));
  const config = await loadConfig(
    {
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      BASE_URL,
      FUNDAMENTALS_PROVIDER: 'snapshot',
      FUNDAMENTALS_SNAPSHOT_DIR: COMPANYFACTS_DIR,
      FX_PROVIDER: 'none',
      ...env,
    },
    silent,
  );
  const runtime = await openRuntime(config);
  return {
    runtime,
    async close(app: FastifyInstance) {
      await app.close();
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The value of one sample line `name{labels} value` of a Prometheus exposition, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let opened: Awaited<ReturnType<typeof openTestRuntime>>;
  let runtime: Runtime;
  let app: FastifyInstance;
  let base: string;
  const scrape = (authorization = `Bearer ${METRICS_TOKEN}`) =>
    app.inject({ url: '/metrics', headers: { authorization } });

  beforeAll(async () => {
    opened = await openTestRuntime({
      METRICS_TOKEN,
      QUOTA_LIMITS: '{"free":{"stock_evaluation":{"limit":2}}}',
    });
    runtime = opened.runtime;
    // The hijacked stream's socket would hold close() for the keep-alive timeout otherwise.
    app = await buildApp(runtime.deps, { logger: false, server: { forceCloseConnections: true } });
    app.get('/test/stream', async (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write('data: open\n\n');
      trackEventStream(reply);
    });
    app.get('/test/model-down', async () => {
      throw Object.assign(new Error('model endpoint refused'), {
        name: 'AdvisorError',
        code: 'upstream_unavailable',
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => opened.close(app));

  it('answers only the configured bearer token, outside OpenAPI', async () => {
    const none = await app.inject({ url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    const wrong = await scrape('Bearer metrics-token-0123456789abcdeX');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    const ok = await scrape();
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const openapi = (await app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
  });

  it('counts requests by route pattern, quota events, provider errors, pool and process', async () => {
    const { cookie } = await registerUser(app, 'metrics@example.com');
    const get = (url: string) => app.inject({ url, headers: { cookie } });
    expect((await get('/api/stock-evaluation?symbol=AAPL')).statusCode).toBe(200); // granted
    expect((await get('/api/stock-evaluation?symbol=AAPL')).statusCode).toBe(200); // cached, free
    expect((await get('/api/stock-evaluation?symbol=ZZZZ')).statusCode).toBe(404); // refunded
    expect((await get('/api/stock-evaluation?symbol=KO')).statusCode).toBe(404); // refunded
    expect((await get('/api/stock-evaluation?symbol=MSFT')).statusCode).toBe(404); // refunded
    expect((await get('/api/stock-evaluation?symbol=PG')).statusCode).toBe(200); // granted
    expect((await get('/api/stock-evaluation?symbol=KR')).statusCode).toBe(429); // refused
    const id = crypto.randomUUID();
    expect((await get(`/api/moat-reports/${id}`)).statusCode).toBe(404);
    expect((await app.inject({ url: '/no/such/path' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/test/model-down' })).statusCode).toBe(500);

    const text = (await scrape()).body;
    const count = (labels: string) =>
      sample(text, `http_request_duration_seconds_count{${labels}}`);
    expect(count('method="GET",route="/api/stock-evaluation",status_code="200"')).toBe(3);
    expect(count('method="GET",route="/api/stock-evaluation",status_code="404"')).toBe(3);
    expect(count('method="GET",route="/api/stock-evaluation",status_code="429"')).toBe(1);
    expect(count('method="GET",route="/api/moat-reports/:id",status_code="404"')).toBe(1);
    expect(count('method="GET",route="__unknown__",status_code="404"')).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain('route="/metrics"');
    expect(
      sample(
        text,
        'http_request_duration_seconds_bucket{le="30",method="GET",route="/api/stock-evaluation",status_code="200"}',
      ),
    ).toBe(3);

    const quota = (outcome: string) =>
      sample(text, `svc_quota_events_total{quota="stock_evaluation",outcome="${outcome}"}`);
    expect([quota('granted'), quota('refunded'), quota('refused')]).toEqual([5, 3, 1]);
    expect(
      sample(text, 'svc_provider_errors_total{provider="fundamentals",code="insufficient_data"}'),
    ).toBe(3);
    expect(
      sample(text, 'svc_provider_errors_total{provider="model",code="upstream_unavailable"}'),
    ).toBe(1);
    // PGlite: one connection behind a pool of one, idle between requests.
    expect(sample(text, 'svc_db_pool_connections{state="total"}')).toBe(1);
    expect(sample(text, 'svc_db_pool_connections{state="idle"}')).toBe(1);
    expect(sample(text, 'svc_db_pool_connections{state="waiting"}')).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
  });

  it('serves a second app built from the same runtime, sharing the service metrics', async () => {
    const second = await buildApp(runtime.deps, { logger: false });
    try {
      await second.inject({ url: '/api/docs' });
      const text = (
        await second.inject({
          url: '/metrics',
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        })
      ).body;
      expect(
        sample(
          text,
          'http_request_duration_seconds_count{method="GET",route="/api/docs",status_code="200"}',
        ),
      ).toBe(1);
      expect(text).not.toContain('route="/api/stock-evaluation"');
      expect(
        sample(text, 'svc_quota_events_total{quota="stock_evaluation",outcome="refused"}'),
      ).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('shows an event stream as open until its connection closes', async () => {
    const open = () =>
      scrape().then((res) => sample(res.body, 'svc_sse_streams_open{route="/test/stream"}'));
    const controller = new AbortController();
    const res = await fetch(`${base}/test/stream`, { signal: controller.signal });
    const reader = res.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('data: open\n\n');
    expect(await open()).toBe(1);
    controller.abort();
    await expect(reader?.read()).rejects.toThrow();
    for (let i = 0; i < 50 && (await open()) !== 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await open()).toBe(0);
  });
});

describe('without METRICS_TOKEN', () => {
  let ctx: Awaited<ReturnType<typeof createTestContext>>;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('has no GET /metrics (404 problem+json)', async () => {
    const res = await ctx.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers every request with X-Request-Id: the caller’s when well-formed, else a UUID', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const fresh = await ctx.app.inject({ url: '/api/docs' });
    const other = await ctx.app.inject({ url: '/api/docs' });
    expect(fresh.headers['x-request-id']).toMatch(uuid);
    expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);
    const given = await ctx.app.inject({
      url: '/api/docs',
      headers: { 'x-request-id': 'lb-7f3a.42:edge' },
    });
    expect(given.headers['x-request-id']).toBe('lb-7f3a.42:edge');
    const hostile = await ctx.app.inject({
      url: '/api/docs',
      headers: { 'x-request-id': 'evil"\tid with spaces' },
    });
    expect(hostile.headers['x-request-id']).toMatch(uuid);
    const refused = await ctx.app.inject({ url: '/api/auth/session' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-request-id']).toMatch(uuid);
    const missing = await ctx.app.inject({ url: '/nowhere', headers: { 'x-request-id': 'r-1' } });
    expect([missing.statusCode, missing.headers['x-request-id']]).toEqual([404, 'r-1']);
  });
});

describe('logs', () => {
  let opened: Awaited<ReturnType<typeof openTestRuntime>>;
  let app: FastifyInstance;
  const { lines, stream } = captureLines();

  beforeAll(async () => {
    opened = await openTestRuntime();
    app = await buildApp(opened.runtime.deps, {
      server: { loggerInstance: createLogger({ logLevel: 'trace', logFormat: 'json' }, stream) },
    });
    // A careless debug line that dumps headers and bodies: what redaction must protect against.
    app.addHook('preHandler', async (request) => {
      request.log.debug({ headers: request.headers, body: request.body }, 'request dump');
    });
    await app.ready();
  });
  afterAll(() => opened.close(app));

  it('carry the request id on every request line and no password, cookie or token', async () => {
    const email = 'logs@example.com';
    await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email, password: PASSWORD },
    });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { ...ORIGIN, 'x-request-id': 'login-1' },
      payload: { email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const cookie = sessionCookie(login);
    const minted = await app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'logs' },
    });
    const pat: string = minted.json().token;
    expect(pat).toMatch(/^svc_pat_/);
    const mcp = await app.inject({
      method: 'POST',
      url: MCP_ENDPOINT_PATH,
      headers: {
        authorization: `Bearer ${pat}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-request-id': 'mcp-1',
      },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.statusCode).toBe(200);
    await app.inject({ url: '/api/auth/oidc/callback?code=oidc-secret-code&state=s3cr3t' });

    const text = lines.join('\n');
    for (const secret of [PASSWORD, pat, cookie.split('=')[1] as string, 'oidc-secret-code']) {
      expect(text).not.toContain(secret);
    }
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const dumps = parsed.filter((line) => line.msg === 'request dump');
    expect(dumps.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(dumps)).toContain('"authorization":"[Redacted]"');
    expect(JSON.stringify(dumps)).toContain('"password":"[Redacted]"');
    expect(JSON.stringify(dumps)).toContain('"cookie":"[Redacted]"');

    const requestLines = parsed.filter((line) => line.req !== undefined || line.res !== undefined);
    expect(requestLines.length).toBeGreaterThanOrEqual(10);
    expect(requestLines.every((line) => typeof line.reqId === 'string')).toBe(true);
    const tagged = (id: string) => parsed.filter((line) => line.reqId === id).map((l) => l.msg);
    expect(tagged('login-1')).toEqual(['incoming request', 'request dump', 'request completed']);
    expect(tagged('mcp-1')).toContain('request completed');
  });

  it('log an unexpected MCP tool failure with the request id of its HTTP request', async () => {
    const minted = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email: 'logs-mcp@example.com', password: PASSWORD },
    });
    const cookie = sessionCookie(minted);
    const token = (
      await app.inject({
        method: 'POST',
        url: '/api/account/tokens',
        headers: { cookie, ...ORIGIN },
        payload: { name: 'logs-mcp' },
      })
    ).json().token as string;
    const evaluations = opened.runtime.deps.moat.evaluations;
    const original = evaluations.getEvaluation;
    evaluations.getEvaluation = async () => {
      throw new Error('a bug in the evaluation flow');
    };
    try {
      const call = await app.inject({
        method: 'POST',
        url: MCP_ENDPOINT_PATH,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-request-id': 'mcp-fails-1',
        },
        payload: {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'getMoatEvaluation', arguments: { symbol: 'AAPL' } },
        },
      });
      expect(call.statusCode).toBe(200);
      expect(call.json().result.isError).toBe(true);
    } finally {
      evaluations.getEvaluation = original;
    }
    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'MCP tool failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.reqId).toBe('mcp-fails-1');
    expect(JSON.stringify(failed[0])).toContain('a bug in the evaluation flow');
  });

  it('are readable text through pino-pretty when LOG_FORMAT=pretty, redacted alike', () => {
    const pretty = captureLines();
    const logger = createLogger({ logLevel: 'info', logFormat: 'pretty' }, pretty.stream);
    logger.info({ reqId: 'r-9', headers: { authorization: `Bearer ${PASSWORD}` } }, 'hello');
    const text = pretty.lines.join('\n');
    expect(text).toMatch(/INFO.*hello/);
    expect(text).toContain('reqId: "r-9"');
    expect(text).not.toContain(PASSWORD);
    expect(() => JSON.parse(pretty.lines[0] ?? '')).toThrow();

    const auto = captureLines();
    createLogger({ logLevel: 'info', logFormat: 'auto' }, auto.stream, false).info('plain');
    expect(JSON.parse(auto.lines[0] ?? '{}')).toMatchObject({ level: 30, msg: 'plain' });
  });
});
