import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEdit, edgeValuesFor, editsOf } from './conformance/mutations.js';
import { type OpenApiDocument, type Operation, operationsOf } from './conformance/operations.js';
import { schemasOf, type ValidInput, validInputFor } from './conformance/valid-input.js';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

/**
 * The document against the server, as a schema-driven fuzzer checks it (positive and negative
 * data, as Schemathesis does): every operation of `/openapi.json` is sent inputs generated from
 * its own schemas (json-schema-faker, seeded by fast-check) and inputs that break exactly one
 * keyword of them (checked with ajv to be invalid). It fails when the server refuses valid input
 * (400 outside the operations whose extra rules the document states in prose), accepts invalid
 * input (any 2xx), or answers a status, media type or body the document does not list. The seed
 * is fixed under CI (`FC_SEED` overrides it).
 */
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : process.env.CI
    ? 20_261_125
    : undefined;
/** Draws per operation: `CONFORMANCE_RUNS` for a deep local run (e.g. 200), modest by default. */
const RUNS = process.env.CONFORMANCE_RUNS
  ? Number(process.env.CONFORMANCE_RUNS)
  : process.env.CI
    ? 12
    : 8;
const SLOW_HOOK_MS = 180_000;

/** Operations this test leaves to their own suites (and why). */
const LEFT_OUT: Readonly<Record<string, string>> = {
  'POST /api/auth/logout': 'ends the session the other requests use',
  'POST /api/mcp/user/mcp': 'JSON-RPC over a token: mcp-conformance.test.ts, from the tools',
};

/**
 * Operations whose documented rules go beyond their JSON Schema (stated in their descriptions),
 * so schema-valid input may still answer 400: the rule, for the report.
 */
const SEMANTIC_400: Readonly<Record<string, string>> = {
  'POST /api/moat-reports': 'the evaluation must be a MoatEvaluation of the same symbol',
  'POST /api/portfolios/{id}/transactions': 'a sell needs the units held',
  'POST /api/portfolios/{id}/import': 'the file must be a broker export',
  'POST /api/portfolio/ai-chat': 'the conversation ends with a user message',
  'POST /api/advisor/chat': 'the conversation ends with a user message',
  'GET /api/transactions': '`cursor` is opaque (only a `nextCursor`) and `to` is not before `from`',
  'GET /api/portfolios/{id}/changes': '`cursor` is opaque (only a `nextCursor`)',
  'PATCH /api/portfolios/{id}/transactions/{transactionId}':
    'the edited transaction must be valid for its type',
  'GET /api/portfolios/{id}/performance':
    'a custom period needs `from`; `from` not after `to`, `to` not after today',
  'GET /api/portfolios/{id}/holdings/{symbol}/performance':
    'a custom period needs `from`; `from` not after `to`, `to` not after today',
  'POST /api/account/import':
    'each transaction has the fields of its type, no sale beyond the units held, reports are MoatEvaluations',
  'DELETE /api/account': 'an account with a password confirms with it',
  'GET /api/stock-evaluation/changes':
    '`since` is required without `cursor`; `cursor` is opaque (only a `nextCursor`)',
  'POST /api/account/webhooks':
    'the URL must resolve to public addresses (loopback, private and link-local are refused)',
};

describe('the API against its OpenAPI document (schema-driven property test)', () => {
  let ctx: TestContext;
  let cookie: string;
  let operations: Operation[];
  let doc: OpenApiDocument;
  /** A portfolio of the user: half the draws address it, so more than 404 is exercised. */
  let portfolioId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
    operations = operationsOf(doc).filter((op) => !(`${op.method} ${op.path}` in LEFT_OUT));
    ({ cookie } = await registerUser(ctx.app, 'conformance@example.com'));
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'Conformance' },
    });
    portfolioId = created.json().id;
  }, SLOW_HOOK_MS);
  afterAll(() => ctx?.close());

  /**
   * `input` addressing the user's own portfolio on every other seed, where the path names one
   * (never for a delete: the portfolio is what the other draws address).
   */
  const withKnownIds = (op: Operation, input: ValidInput, seed: number): ValidInput =>
    op.path.startsWith('/api/portfolios/{id}') && op.method !== 'DELETE' && seed % 2 === 0
      ? { ...input, path: { ...input.path, id: portfolioId } }
      : input;

  /** Sends `input` to `op` as a signed-in browser would. */
  function send(
    op: Operation,
    input: ValidInput,
    contentType = 'application/json',
  ): Promise<LightMyRequestResponse> {
    const url = op.path.replaceAll(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(input.path[name] ?? '')),
    );
    const options: InjectOptions = {
      method: op.method as InjectOptions['method'],
      url,
      query: Object.fromEntries(Object.entries(input.query).map(([k, v]) => [k, String(v)])),
      headers: { cookie, ...ORIGIN },
      ...(input.body === undefined
        ? {}
        : {
            payload: JSON.stringify(input.body),
            headers: { cookie, ...ORIGIN, 'content-type': contentType },
          }),
    };
    return ctx.app.inject(options);
  }

  /** The answer is one the document lists: status, media type and body. */
  function expectDocumented(op: Operation, res: LightMyRequestResponse, what: string): void {
    const where = `${op.method} ${op.path} (${what}) answered ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(op.statuses.has(String(res.statusCode)), `${where}: status not documented`).toBe(true);
    for (const [name, header] of Object.entries(op.responseHeaders(res.statusCode))) {
      const value = res.headers[name.toLowerCase()];
      if (header.required) expect(value, `${where}: header ${name} missing`).toBeDefined();
      if (value !== undefined && header.schema?.type === 'integer') {
        expect(String(value), `${where}: header ${name}`).toMatch(/^\d+$/);
      }
    }
    const media = String(res.headers['content-type'] ?? '').split(';')[0] ?? '';
    const validate = op.responseValidator(res.statusCode, media);
    if (validate === undefined) {
      expect(res.body, `${where}: a body where none is documented`).toBe('');
      return;
    }
    expect(validate, `${where}: media type ${media} not documented`).not.toBeNull();
    if (validate && media.endsWith('json')) {
      expect(validate(res.json()), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  }

  it('knows the operations it drives', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  /** Runs `check` for every operation and fails once with every operation's counterexample. */
  async function eachOperation(check: (op: Operation) => Promise<void>): Promise<void> {
    const failures: string[] = [];
    for (const op of operations) {
      await check(op).catch((error: unknown) => {
        failures.push(
          `${op.method} ${op.path}: ${String((error as Error).cause ?? error).slice(0, 600)}`,
        );
      });
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  }

  it('accepts what the document allows, and answers as documented', async () => {
    await eachOperation(async (op) => {
      await fc.assert(
        fc.asyncProperty(fc.integer(), async (seed) => {
          const drawn = validInputFor(op, doc, seed);
          fc.pre(drawn !== undefined);
          const input = withKnownIds(op, drawn as ValidInput, seed);
          const res = await send(op, input);
          expectDocumented(op, res, `valid ${JSON.stringify(input).slice(0, 200)}`);
          if (!(`${op.method} ${op.path}` in SEMANTIC_400)) {
            expect(
              res.statusCode,
              `${op.method} ${op.path} refused valid input ${res.body}`,
            ).not.toBe(400);
          }
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    });
  }, 600_000);

  /** A valid input of `op` (the first seed from 1 the generator can satisfy), on the user's portfolio. */
  function baseInput(op: Operation): ValidInput | undefined {
    for (let seed = 2; seed < 40; seed += 2) {
      const drawn = validInputFor(op, doc, seed);
      if (drawn) return withKnownIds(op, drawn, seed);
    }
    return undefined;
  }

  /**
   * Runs `check` on every one of `cases` (each differs from a valid input in one place: a few
   * hundred per operation at most, so all are sent rather than a sample).
   */
  async function every(
    cases: ValidInput[],
    check: (input: ValidInput) => Promise<void>,
  ): Promise<void> {
    for (const input of cases) await check(input);
  }

  it('refuses what the document forbids, and answers as documented', async () => {
    await eachOperation(async (op) => {
      const base = baseInput(op);
      if (base === undefined) return;
      await every(negativeCases(op, doc, base), async (input) => {
        const res = await send(op, input);
        expectDocumented(op, res, `invalid ${JSON.stringify(input).slice(0, 300)}`);
        expect(
          res.statusCode,
          `${op.method} ${op.path} accepted invalid input ${JSON.stringify(input).slice(0, 300)}`,
        ).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
      });
    });
  }, 600_000);

  it('accepts every bound exactly, astral characters counted as one, and answers as documented', async () => {
    await eachOperation(async (op) => {
      const base = baseInput(op);
      if (base === undefined) return;
      await every(edgeCases(op, doc, base), async (input) => {
        const res = await send(op, input);
        const what = `edge ${JSON.stringify(input).slice(0, 300)}`;
        expectDocumented(op, res, what);
        if (!(`${op.method} ${op.path}` in SEMANTIC_400)) {
          expect(res.statusCode, `${op.method} ${op.path} refused ${what}: ${res.body}`).not.toBe(
            400,
          );
        }
      });
    });
  }, 600_000);

  it('refuses a body in a media type the document does not list, as documented', async () => {
    await eachOperation(async (op) => {
      const base = baseInput(op);
      if (base?.body === undefined) return;
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const res = await send(op, base, type);
        expectDocumented(op, res, `body as ${type}`);
        expect([400, 415], `${op.method} ${op.path} as ${type}: ${res.body}`).toContain(
          res.statusCode,
        );
      }
    });
  }, 600_000);

  it('states the rules the fuzzer of issue 18 found missing', () => {
    const op = (method: string, path: string) => {
      const found = operations.find((o) => o.method === method && o.path === path);
      if (!found) throw new Error(`${method} ${path} is not in the document`);
      return found;
    };
    const buy = (quantity: string) => ({
      type: 'buy',
      symbol: 'AAPL',
      quantity,
      price: '1',
      currency: 'USD',
      executedAt: '2024-03-01T10:00:00Z',
    });
    const record = op('POST', '/api/portfolios/{id}/transactions');
    expect(['1', '0.5', '0', '0.00', '-1'].map((q) => record.validBody(buy(q)))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    const quote = op('GET', '/api/quote');
    expect(
      ['AAPL', 'brk.b', 'TOOLONGSYMBOL1', '$$$'].map((s) => quote.validParameter('symbol', s)),
    ).toEqual([true, true, false, false]);
    const save = op('POST', '/api/moat-reports');
    expect(save.validBody({ symbol: 'AAPL' })).toBe(false);
    for (const o of operations) {
      for (const [status, header] of [
        [401, 'WWW-Authenticate'],
        [429, 'Retry-After'],
      ] as const) {
        if (!o.statuses.has(String(status))) continue;
        expect(o.responseHeaders(status)[header]?.required, `${o.method} ${o.path} ${status}`).toBe(
          true,
        );
      }
    }
    for (const path of ['/api/advisor/chat', '/api/portfolio/ai-chat']) {
      const form = doc.paths[path]?.post?.requestBody?.content?.['multipart/form-data']?.schema;
      expect(form?.required, path).toEqual(['payload']);
      expect(form?.additionalProperties, `${path}: unknown parts are refused`).toBe(false);
    }
    const register = op('POST', '/api/auth/register');
    for (const email of ['x@example-.com', `x@${'a'.repeat(64)}.com`]) {
      expect(register.validBody({ email, password: 'correct horse' }), email).toBe(false);
    }
  });

  it('agrees with the server where the fuzzer of issue 28 found them apart', async () => {
    const op = (method: string, path: string) => {
      const found = operations.find((o) => o.method === method && o.path === path);
      if (!found) throw new Error(`${method} ${path} is not in the document`);
      return found;
    };
    const post = (url: string, payload: object) =>
      ctx.app.inject({ method: 'POST', url, headers: { cookie, ...ORIGIN }, payload });

    // 1. an e-mail's local part is at most 64 characters, in the document and the server
    const register = op('POST', '/api/auth/register');
    for (const [length, ok] of [
      [64, true],
      [65, false],
    ] as const) {
      const body = { email: `${'a'.repeat(length)}@example.com`, password: 'correct horse' };
      expect(register.validBody(body), `local part of ${length}`).toBe(ok);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(ok ? 201 : 400);
      expectDocumented(register, res, `local part of ${length}`);
    }

    // 2. every offset RFC 3339 allows is taken (stored as the UTC instant); years 1900-2999
    const record = op('POST', '/api/portfolios/{id}/transactions');
    const deposit = (executedAt: string) => ({
      type: 'deposit',
      amount: '1',
      currency: 'EUR',
      executedAt,
    });
    const url = `/api/portfolios/${portfolioId}/transactions`;
    for (const [executedAt, instant] of [
      ['2024-03-01T10:00:00+16:00', '2024-02-29T18:00:00.000Z'],
      ['2024-03-01T10:00:00+23:59', '2024-02-29T10:01:00.000Z'],
      ['2024-03-01T10:00:00-23:59', '2024-03-02T09:59:00.000Z'],
      ['1900-01-01T00:00:00-23:59', '1900-01-01T23:59:00.000Z'],
      ['2999-12-31T23:59:59+23:59', '2999-12-31T00:00:59.000Z'],
    ] as const) {
      expect(record.validBody(deposit(executedAt)), executedAt).toBe(true);
      const res = await post(url, deposit(executedAt));
      expect(res.statusCode, `${executedAt}: ${res.body}`).toBe(201);
      expect(new Date(res.json().executedAt).toISOString()).toBe(instant);
    }
    for (const executedAt of [
      '0000-01-01T00:00:00Z',
      '1899-12-31T23:59:59Z',
      '3000-01-01T00:00:00Z',
      // the instant stored leaves the years (issue 41): 3000-01-01 and 1899-12-31 in UTC
      '2999-12-31T23:59:59-23:59',
      '1900-01-01T00:00:00+23:59',
    ]) {
      expect(record.validBody(deposit(executedAt)), executedAt).toBe(false);
      const res = await post(url, deposit(executedAt));
      expect(res.statusCode, executedAt).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }

    // 3. the advisor's files[] are binary parts in the document; a part sent as text is read as
    // a text attachment, and five of them (with payload and userText) are within the limits
    for (const path of ['/api/advisor/chat', '/api/portfolio/ai-chat']) {
      const form = doc.paths[path]?.post?.requestBody?.content?.['multipart/form-data']?.schema as {
        properties: Record<string, { items?: { format?: string }; contentMediaType?: string }>;
      };
      expect(form.properties['files[]']?.items?.format, path).toBe('binary');
      expect(form.properties.payload?.contentMediaType, path).toBe('application/json');
    }
    // a user of its own: the property tests above spend the first user's ai_consult units
    const { cookie: fresh } = await registerUser(ctx.app, 'conformance-files@example.com');
    const form = new FormData();
    form.append('payload', JSON.stringify({ messages: [] }));
    form.append('userText', 'What do these files hold?');
    for (let i = 0; i < 5; i += 1) form.append('files[]', `symbol,quantity\nAAPL,${i + 1}\n`);
    const encoded = new Response(form);
    const chat = await ctx.app.inject({
      method: 'POST',
      url: '/api/advisor/chat',
      headers: {
        cookie: fresh,
        ...ORIGIN,
        'content-type': encoded.headers.get('content-type') ?? '',
      },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(chat.statusCode, chat.body.slice(0, 300)).toBe(200);
    expect(chat.body).not.toContain('unknown part');
    form.append('files[]', 'one too many');
    const six = new Response(form);
    const tooMany = await ctx.app.inject({
      method: 'POST',
      url: '/api/advisor/chat',
      headers: { cookie: fresh, ...ORIGIN, 'content-type': six.headers.get('content-type') ?? '' },
      payload: Buffer.from(await six.arrayBuffer()),
    });
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().detail).toContain('at most 5 files');

    // 4. a message is not empty or blank, in the document and the server
    const advisor = op('POST', '/api/advisor/chat');
    for (const content of ['', '   ', '\u00a0\ufeff\n']) {
      const body = { messages: [{ role: 'user', content }] };
      expect(advisor.validBody(body), JSON.stringify(content)).toBe(false);
      const res = await post('/api/advisor/chat', body);
      expect(res.statusCode, JSON.stringify(content)).toBe(400);
    }
    expect(advisor.validBody({ messages: [{ role: 'user', content: '\u001c?' }] })).toBe(true);
  });

  it('states what the server refuses where the hostile suites of issue 41 found them apart', async () => {
    const op = (method: string, path: string) => {
      const found = operations.find((o) => o.method === method && o.path === path);
      if (!found) throw new Error(`${method} ${path} is not in the document`);
      return found;
    };
    // an edit takes each field as a new transaction does: no empty date, no amount <= 0
    const edit = op('PATCH', '/api/portfolios/{id}/transactions/{transactionId}');
    const recorded = await ctx.app.inject({
      method: 'POST',
      url: `/api/portfolios/${portfolioId}/transactions`,
      headers: { cookie, ...ORIGIN },
      payload: {
        type: 'deposit',
        amount: '10',
        currency: 'EUR',
        executedAt: '2024-01-02T00:00:00Z',
      },
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const url = `/api/portfolios/${portfolioId}/transactions/${recorded.json().id}`;
    for (const patch of [
      { executedAt: '' },
      { amount: '0' },
      { amount: '-5' },
      { fee: '-1' },
      { executedAt: '2999-12-31T23:59:59-23:59' },
    ]) {
      expect(edit.validBody(patch), JSON.stringify(patch)).toBe(false);
      const res = await ctx.app.inject({
        method: 'PATCH',
        url,
        headers: { cookie, ...ORIGIN },
        payload: patch,
      });
      expect(res.statusCode, `${JSON.stringify(patch)}: ${res.body}`).toBe(400);
    }
    expect(edit.validBody({ amount: '12.5', note: null })).toBe(true);
    // a token's name is not blank, in the document as in the server
    const mint = op('POST', '/api/account/tokens');
    for (const name of ['   ', '\u3000', '\t']) {
      expect(mint.validBody({ name }), JSON.stringify(name)).toBe(false);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/tokens',
        headers: { cookie, ...ORIGIN },
        payload: { name },
      });
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(mint.validBody({ name: ' agent ' })).toBe(true);
  });

  it('answers 405 with Allow for a method a documented path does not have', async () => {
    for (const path of Object.keys(doc.paths)) {
      const url = path.replaceAll(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      const documented = Object.keys(doc.paths[path] ?? {}).map((m) => m.toUpperCase());
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST', 'QUERY', 'TRACE'].filter(
        (m) => !documented.includes(m),
      )) {
        const res = await ctx.app.inject({
          method: method as InjectOptions['method'],
          url,
          headers: { cookie, ...ORIGIN },
        });
        expect(res.statusCode, `${method} ${path}`).toBe(405);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        const allow = String(res.headers.allow).split(', ');
        for (const m of documented) expect(allow, `${method} ${path} Allow`).toContain(m);
      }
    }
  });

  it('challenges with WWW-Authenticate on every 401 of a session route', async () => {
    const guarded = operations.filter(
      (op) => op.statuses.has('401') && op.method === 'GET' && !op.path.includes('{'),
    );
    expect(guarded.length).toBeGreaterThan(3);
    for (const op of guarded) {
      const res = await ctx.app.inject({ method: 'GET', url: op.path });
      if (res.statusCode !== 401) continue;
      expectDocumented(op, res, 'without a session');
      expect(res.headers['www-authenticate'], op.path).toMatch(/^Cookie realm="moat-portfolio"/);
    }
  });
});

/** Inputs that differ from a valid one in exactly one place, each refused by the document's validator. */
function negativeCases(op: Operation, doc: OpenApiDocument, base: ValidInput): ValidInput[] {
  const cases: ValidInput[] = [];
  const schemas = schemasOf(op, doc);
  for (const parameter of op.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const part = parameter.in;
    if (part === 'query' && parameter.required) {
      const { [parameter.name]: _dropped, ...rest } = base.query;
      cases.push({ ...base, query: rest });
    }
    const schema = schemas.get(`${part}:${parameter.name}`) ?? {};
    for (const edit of editsOf(schema, base[part][parameter.name], 'invalid')) {
      if (edit.path.length > 0) continue;
      const bad = typeof edit.value === 'number' ? String(edit.value) : edit.value;
      // A query or path value travels as text: only text the validator refuses is invalid.
      // '', '.' and '..' cannot travel as a path segment (clients resolve dot segments).
      if (typeof bad !== 'string' || (part === 'path' && ['', '.', '..'].includes(bad))) continue;
      if (op.validParameter(parameter.name, bad)) continue;
      cases.push({ ...base, [part]: { ...base[part], [parameter.name]: bad } });
    }
  }
  if (op.body !== undefined) {
    if (op.bodyRequired) cases.push({ path: base.path, query: base.query });
    const edits = editsOf(schemas.get('body') ?? {}, base.body, 'invalid');
    for (const bad of edits.map((edit) => applyEdit(base.body, edit))) {
      if (bad !== undefined && !op.validBody(bad)) cases.push({ ...base, body: bad });
    }
  }
  return dedupe(cases);
}

/** Inputs that differ from a valid one in one place, set at an edge the document allows. */
function edgeCases(op: Operation, doc: OpenApiDocument, base: ValidInput): ValidInput[] {
  const cases: ValidInput[] = [];
  const schemas = schemasOf(op, doc);
  for (const parameter of op.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const part = parameter.in;
    for (const value of edgeValuesFor(schemas.get(`${part}:${parameter.name}`) ?? {})) {
      const text = String(value);
      if (!op.validParameter(parameter.name, text)) continue;
      cases.push({ ...base, [part]: { ...base[part], [parameter.name]: text } });
    }
  }
  if (base.body !== undefined) {
    const edits = editsOf(schemas.get('body') ?? {}, base.body, 'edges');
    for (const edge of edits.map((edit) => applyEdit(base.body, edit))) {
      if (op.validBody(edge)) cases.push({ ...base, body: edge });
    }
  }
  return dedupe(cases);
}

function dedupe(cases: ValidInput[]): ValidInput[] {
  const seen = new Set<string>();
  return cases.filter((input) => {
    const key = JSON.stringify(input);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
