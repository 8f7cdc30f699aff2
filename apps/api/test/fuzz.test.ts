import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemDetails } from '../src/problem.js';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

/** Hooks open databases and build apps: slow on a busy machine. */
const SLOW_HOOK_MS = 180_000;

/**
 * Requests generated from the service's own `/openapi.json` (every path, method, parameter and
 * JSON body it declares), mixed with hostile text, sent with a valid session, with a personal
 * access token and without either. No answer may be a 500, an error body that is not
 * problem+json, or a body that shows a stack trace or SQL. The MCP tools are fuzzed the same way
 * from their `inputSchema`s. The seed is fixed under CI (`FC_SEED` overrides it) so that a
 * failure reproduces.
 */
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : process.env.CI
    ? 20_261_123
    : undefined;
const RUNS_PER_OPERATION = process.env.CI ? 40 : 25;
const RUNS_PER_TOOL = process.env.CI ? 30 : 20;

type Schema = Record<string, unknown>;
interface Operation {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly { name: string; in: string; required?: boolean; schema?: Schema }[];
  readonly body: Schema | undefined;
}

/** Text chosen to break things: NUL, lone surrogates, SQL, paths, huge and odd numbers. */
const HOSTILE = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  "'; drop table users; --",
  '" OR 1=1 --',
  '%00',
  '%ZZ',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ é',
  '\u202e\u0301',
  ' ',
  '',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999999999999999999999',
  '0.0000000000000000000000000000000000000001',
  '2024-02-30T25:61:00Z',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(5_000),
];

const hostileText = fc.constantFrom(...HOSTILE);
const anyText = fc.oneof(hostileText, fc.string(), fc.string({ unit: 'binary' }));

/** An arbitrary for a JSON Schema of the document: mostly its shape, often hostile, sometimes anything. */
function arbitraryFor(schema: Schema | undefined, doc: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || depth > 6) return fc.oneof(anyText, fc.jsonValue({ maxDepth: 2 }));
  const ref = schema.$ref;
  if (typeof ref === 'string') return arbitraryFor(resolve(ref, doc), doc, depth + 1);
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => arbitraryFor(v, doc, depth + 1)));
  const shaped = shapedArbitrary(schema, doc, depth);
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 2, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

function shapedArbitrary(schema: Schema, doc: Schema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.oneof(fc.integer(), fc.integer({ min: -1, max: 200 }));
    case 'number':
      return fc.oneof(fc.double(), fc.integer({ min: -1, max: 200 }));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryFor(schema.items as Schema | undefined, doc, depth + 1), {
        maxLength: 4,
      });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const entries = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [
          key,
          arbitraryFor(value, doc, depth + 1),
        ]),
      );
      return fc.record(entries, { requiredKeys: [] });
    }
    default:
      return fc.oneof(anyText, fc.jsonValue({ maxDepth: 2 }));
  }
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    default:
      return fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('AAPL', 'MCD', 'EUR', 'USD', '1', '10.5', 'buy', 'deposit'),
        hostileText,
      );
  }
}

function resolve(ref: string, doc: Schema): Schema {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return (node ?? {}) as Schema;
}

function operationsOf(doc: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const [method, op] of Object.entries(item as Record<string, Schema>)) {
      const content = (op.requestBody as Schema | undefined)?.content as
        | Record<string, { schema?: Schema }>
        | undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters ?? []) as Operation['parameters'],
        body: content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** `encodeURIComponent`, except that a lone surrogate goes out as its (invalid) UTF-8 bytes. */
function encode(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^%\w.-]/g, encodeURIComponent);
  }
}

/** Asserts the invariants of any answer; answers a description of what broke, for the report. */
function check(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).not.toBe(500);
  expect(res.statusCode, what).toBeLessThan(600);
  expect(res.body, `${what}: a stack trace`).not.toMatch(/\n\s+at |at [\w.<>]+ \(.+:\d+:\d+\)/);
  expect(res.body, `${what}: SQL`).not.toMatch(
    /\bselect\b[^"]{0,80}\bfrom\b|\binsert into\b|\bdelete from\b|SQLSTATE|relation "[^"]+"|syntax error at/i,
  );
  if (res.statusCode >= 400) {
    expect(String(res.headers['content-type']), what).toContain('application/problem+json');
    const parsed = ProblemDetails.safeParse(res.json());
    expect(parsed.success, `${what}: not a problem body: ${res.body.slice(0, 300)}`).toBe(true);
    expect(parsed.data?.status, what).toBe(res.statusCode);
  }
}

describe('fuzzing every operation of /openapi.json and every MCP tool', () => {
  let ctx: TestContext;
  let doc: Schema;
  let cookie: string;
  let token: string;
  let portfolioId: string;

  beforeAll(async () => {
    ctx = await createTestContext({
      env: {
        RATE_LIMIT_PER_MINUTE: '1000000',
        QUOTA_LIMITS: '{"free":{"stock_evaluation":{"limit":3}}}',
      },
    });
    doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
    ({ cookie } = await registerUser(ctx.app, 'fuzz@example.com'));
    const minted = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'fuzz' },
    });
    token = minted.json().token;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'Fuzz' },
    });
    portfolioId = created.json().id;
  }, SLOW_HOOK_MS);
  afterAll(() => ctx.close(), SLOW_HOOK_MS);

  /** Operations that end the session the rest of the run relies on. */
  const SKIPPED = new Set(['POST /api/auth/logout']);

  it('answers every generated REST request without a 500, with problem+json errors', async () => {
    const operations = operationsOf(doc).filter((op) => !SKIPPED.has(`${op.method} ${op.path}`));
    expect(operations.length).toBeGreaterThan(20);
    for (const op of operations) {
      const params = op.parameters.map((p) =>
        fc.tuple(
          fc.constant(p),
          p.in === 'path' && p.schema?.format === 'uuid'
            ? fc.oneof(fc.constant(portfolioId), arbitraryFor(p.schema, doc))
            : arbitraryFor(p.schema, doc),
          fc.boolean(),
        ),
      );
      const request = fc.record({
        values: fc.tuple(...params),
        body: arbitraryFor(op.body, doc),
        auth: fc.constantFrom('cookie', 'cookie', 'cookie', 'token', 'none'),
        junk: fc.constantFrom('', '', '', '&%ZZ', '&x=%00', '&%FF=1', '&a[b]=1'),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ values, body, auth, junk }) => {
          let url = op.path;
          const query: string[] = [];
          for (const [p, value, include] of values) {
            if (p.in === 'path') url = url.replace(`{${p.name}}`, encode(value) || 'x');
            else if (p.in === 'query' && (include || p.required)) {
              query.push(`${encodeURIComponent(p.name)}=${encode(value)}`);
            }
          }
          const search = query.length > 0 || junk ? `?${query.join('&')}${junk}` : '';
          const headers: Record<string, string> = { ...ORIGIN };
          if (auth === 'cookie') headers.cookie = cookie;
          if (auth === 'token') headers.authorization = `Bearer ${token}`;
          const hasBody = op.body !== undefined && op.method !== 'GET';
          if (hasBody) headers['content-type'] = 'application/json';
          const res = await ctx.app.inject({
            method: op.method as 'GET',
            url: `${url}${search}`,
            headers,
            ...(hasBody ? { payload: JSON.stringify(body) ?? 'null' } : {}),
          });
          check(
            res,
            `${op.method} ${url}${search} ${hasBody ? JSON.stringify(body)?.slice(0, 200) : ''}`,
          );
        }),
        { numRuns: RUNS_PER_OPERATION, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    }
  }, 600_000);

  it('answers every generated MCP tool call without an internal error', async () => {
    const mcp = (body: object) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/mcp/user/mcp',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
      });
    const listed = await mcp({ method: 'tools/list', params: {} });
    expect(listed.statusCode, listed.body).toBe(200);
    const tools = (listed.json() as { result: { tools: { name: string; inputSchema: Schema }[] } })
      .result.tools;
    expect(tools.length).toBeGreaterThan(3);
    for (const tool of tools) {
      await fc.assert(
        // arguments are always an object: the SDK answers a non-object itself (JSON-RPC -32603)
        fc.asyncProperty(shapedArbitrary(tool.inputSchema, tool.inputSchema, 0), async (args) => {
          const res = await mcp({
            method: 'tools/call',
            params: { name: tool.name, arguments: args },
          });
          const what = `${tool.name}(${JSON.stringify(args)?.slice(0, 200)})`;
          check(res, what);
          if (res.statusCode !== 200) return;
          const answer = res.json() as {
            result?: { isError?: boolean; content?: { type: string; text?: string }[] };
            error?: { code: number; message: string };
          };
          if (answer.error) {
            // JSON-RPC errors are for the protocol (invalid params); never an internal error
            expect(answer.error.code, `${what}: ${answer.error.message}`).not.toBe(-32603);
            return;
          }
          if (answer.result?.isError) {
            const text = answer.result.content?.find((c) => c.type === 'text')?.text ?? '{}';
            // the SDK's own argument check answers "MCP error -32602: Input validation error"
            if (text.startsWith('MCP error -32602')) return;
            expect(JSON.parse(text).code, `${what}: ${text}`).not.toBe('internal');
          }
        }),
        { numRuns: RUNS_PER_TOOL, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    }
  }, 600_000);
});
