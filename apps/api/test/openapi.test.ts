import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OidcClient } from '@svc/use-cases';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_SECTION_IDS } from '../src/docs/schema.js';
import { multipartBody, parseSse } from './ai-support.js';
import {
  createTestContext,
  ORIGIN,
  registerUser,
  sessionCookie,
  type TestContext,
} from './helpers.js';
import { sharedData } from './shared-data.js';

type Operation = {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  security?: object[];
};
type OpenApiDoc = {
  openapi: string;
  info: { version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
};

// A stand-in OpenID provider client: this suite checks shapes; oidc.test.ts runs a real provider.
const stubOidc: OidcClient = {
  start: async () => ({
    url: new URL('https://idp.example/authorize?client_id=svc'),
    checks: { state: 's', nonce: 'n', codeVerifier: 'v' },
  }),
  finish: async () => ({
    issuer: 'https://idp.example',
    subject: 'sub-1',
    email: 'oidc@example.com',
    name: 'O',
  }),
};

const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

describe('OpenAPI document', () => {
  let ctx: TestContext;
  let doc: OpenApiDoc;
  let ajv: Ajv2020;
  const covered = new Set<string>();

  beforeAll(async () => {
    ctx = await createTestContext({ deps: { oidc: stubOidc } });
    doc = (await ctx.app.inject({ url: '/openapi.json' })).json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi.json');
  });
  afterAll(() => ctx.close());

  /** Sends a request and validates its real answer against the published document. */
  async function check(path: string, options: InjectOptions): Promise<LightMyRequestResponse> {
    const res = await ctx.app.inject(options);
    const method = String(options.method ?? 'GET').toLowerCase();
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path} is documented`).toBeDefined();
    const response = operation?.responses[String(res.statusCode)];
    expect(response, `${method} ${path} documents status ${res.statusCode}`).toBeDefined();
    covered.add(`${method} ${path} ${res.statusCode}`);
    if (!response?.content) {
      expect(res.body, `${method} ${path} ${res.statusCode} has no body`).toBe('');
      return res;
    }
    const media = String(res.headers['content-type']).split(';')[0] ?? '';
    expect(Object.keys(response.content), `${method} ${path} ${res.statusCode} media`).toContain(
      media,
    );
    const pointer = [
      'paths',
      path,
      method,
      'responses',
      String(res.statusCode),
      'content',
      media,
      'schema',
    ]
      .map(escapePointer)
      .join('/');
    const validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
    const body = media.endsWith('json') ? res.json() : res.body;
    const ok = validate(body);
    expect(ok, `${method} ${path} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`).toBe(
      true,
    );
    return res;
  }

  /** The account's own data (CONTRACT §6): password, export, import, deletes. */
  async function checkAccountDataOperations(): Promise<void> {
    const password = 'correct horse battery';
    const { cookie } = await registerUser(ctx.app, 'account-data-doc@example.com', password);
    const write = { cookie, ...ORIGIN };
    await check('/api/auth/password', {
      method: 'POST',
      url: '/api/auth/password',
      headers: write,
      payload: { currentPassword: 'wrong password', newPassword: 'another password' },
    });
    await check('/api/auth/password', {
      method: 'POST',
      url: '/api/auth/password',
      headers: write,
      payload: { currentPassword: password, newPassword: 'another password' },
    });
    const portfolio = await check('/api/portfolios', {
      method: 'POST',
      url: '/api/portfolios',
      headers: write,
      payload: { name: 'Exported' },
    });
    await check('/api/portfolios/{id}/transactions', {
      method: 'POST',
      url: `/api/portfolios/${portfolio.json().id}/transactions`,
      headers: write,
      payload: {
        type: 'deposit',
        amount: '100',
        currency: 'EUR',
        executedAt: '2024-01-02T10:00:00Z',
      },
    });
    const exported = await check('/api/account/export', {
      url: '/api/account/export',
      headers: { cookie },
    });
    await check('/api/account/export', {
      url: '/api/account/export?format=ghostfolio',
      headers: { cookie },
    });
    await check('/api/account/import', {
      method: 'POST',
      url: '/api/account/import',
      headers: write,
      payload: exported.json(),
    });
    await check('/api/account/import', {
      method: 'POST',
      url: '/api/account/import',
      headers: write,
      payload: { format: 'native' },
    });
    await check('/api/portfolios/{id}', {
      method: 'DELETE',
      url: `/api/portfolios/${portfolio.json().id}`,
      headers: write,
    });
    await check('/api/portfolios/{id}', {
      method: 'DELETE',
      url: `/api/portfolios/${portfolio.json().id}`,
      headers: write,
    });
    await check('/api/account', {
      method: 'DELETE',
      url: '/api/account',
      headers: write,
      payload: { password },
    });
    await check('/api/account', {
      method: 'DELETE',
      url: '/api/account',
      headers: write,
      payload: { password: 'another password' },
    });
  }

  /** The portfolio and quote operations, each with its success and error answers. */
  async function checkPortfolioOperations(): Promise<void> {
    const { cookie } = await registerUser(ctx.app, 'portfolio-doc@example.com');
    const other = await registerUser(ctx.app, 'portfolio-other@example.com');
    const write = { cookie, ...ORIGIN };
    const created = await check('/api/portfolios', {
      method: 'POST',
      url: '/api/portfolios',
      headers: write,
      payload: { name: 'Doc' },
    });
    const id = created.json().id;
    await check('/api/portfolios', {
      method: 'POST',
      url: '/api/portfolios',
      headers: write,
      payload: { name: '' },
    });
    await check('/api/portfolios', { url: '/api/portfolios', headers: { cookie } });
    await check('/api/portfolios', { url: '/api/portfolios' });
    await check('/api/portfolios/{id}', { url: `/api/portfolios/${id}`, headers: { cookie } });
    await check('/api/portfolios/{id}', {
      url: `/api/portfolios/${id}`,
      headers: { cookie: other.cookie },
    });
    await check('/api/portfolios/{id}', {
      method: 'PATCH',
      url: `/api/portfolios/${id}`,
      headers: { ...write, 'if-match': '"stale"' },
      payload: { name: 'Doc renamed' },
    });
    await check('/api/portfolios/{id}', {
      method: 'PATCH',
      url: `/api/portfolios/${id}`,
      headers: write,
      payload: { name: 'Doc renamed' },
    });
    await check('/api/portfolios/{id}', {
      method: 'PATCH',
      url: `/api/portfolios/${id}`,
      headers: { cookie: other.cookie, ...ORIGIN },
      payload: { name: 'Mine' },
    });
    const txUrl = `/api/portfolios/${id}/transactions`;
    const buy = {
      type: 'buy',
      symbol: 'AAPL',
      quantity: '2',
      price: '150',
      currency: 'USD',
      executedAt: '2024-01-02T15:00:00Z',
    };
    await check('/api/portfolios/{id}/transactions', {
      method: 'POST',
      url: txUrl,
      headers: write,
      payload: buy,
    });
    await check('/api/portfolios/{id}/transactions', {
      method: 'POST',
      url: txUrl,
      headers: write,
      payload: { ...buy, type: 'sell', quantity: '3' },
    });
    await check('/api/portfolios/{id}/import', {
      method: 'POST',
      url: `/api/portfolios/${id}/import`,
      headers: { ...write, 'content-type': 'text/csv' },
      payload: readFileSync(sharedData('broker-exports/ghostfolio/ok_vti-buy-on-ibkr.csv'), 'utf8'),
    });
    await check('/api/portfolios/{id}/import', {
      method: 'POST',
      url: `/api/portfolios/${id}/import`,
      headers: { ...write, 'content-type': 'text/csv' },
      payload: readFileSync(sharedData('broker-exports/ghostfolio/not-ok_invalid-date-yy.csv')),
    });
    await check('/api/portfolios/{id}/import', {
      method: 'POST',
      url: `/api/portfolios/${id}/import`,
      headers: { ...write, 'content-type': 'application/xml' },
      payload: '<csv/>',
    });
    await check('/api/portfolios/{id}/revalue', {
      method: 'POST',
      url: `/api/portfolios/${id}/revalue`,
      headers: write,
    });
    await check('/api/portfolios/{id}/revalue', {
      method: 'POST',
      url: `/api/portfolios/${id}/revalue`,
      headers: { cookie: other.cookie, ...ORIGIN },
    });
    const perf = `/api/portfolios/${id}/performance`;
    await check('/api/portfolios/{id}/performance', {
      url: `${perf}?series=weekly`,
      headers: { cookie },
    });
    await check('/api/portfolios/{id}/performance', {
      url: perf,
      headers: { cookie: other.cookie },
    });
    await check('/api/portfolios/{id}/performance', {
      url: `${perf}?period=2W`,
      headers: { cookie },
    });
    const xray = `/api/portfolios/${id}/xray`;
    await check('/api/portfolios/{id}/xray', { url: xray, headers: { cookie } });
    await check('/api/portfolios/{id}/xray', { url: xray, headers: { cookie: other.cookie } });
    await check('/api/portfolios/{id}/xray', { url: xray });
    await check('/xray/{portfolioId}', { url: `/xray/${id}`, headers: { cookie } });
    await check('/xray/{portfolioId}', { url: `/xray/${id}`, headers: { cookie: other.cookie } });
    const holdingPerf = `/api/portfolios/${id}/holdings/AAPL/performance`;
    await check('/api/portfolios/{id}/holdings/{symbol}/performance', {
      url: `${holdingPerf}?period=1M`,
      headers: { cookie },
    });
    await check('/api/portfolios/{id}/holdings/{symbol}/performance', {
      url: holdingPerf.replace('AAPL', 'MSFT'),
      headers: { cookie },
    });
    await check('/api/holdings', { url: `/api/holdings?portfolioId=${id}`, headers: { cookie } });
    await check('/api/holdings', {
      url: `/api/holdings?portfolioId=${id}`,
      headers: { cookie: other.cookie },
    });
    await check('/api/cash', { url: `/api/cash?portfolioId=${id}`, headers: { cookie } });
    await check('/api/cash', { url: '/api/cash?portfolioId=nope', headers: { cookie } });
    await check('/api/transactions', {
      url: `/api/transactions?portfolioId=${id}&limit=1`,
      headers: { cookie },
    });
    await check('/api/transactions', { url: '/api/transactions?limit=500', headers: { cookie } });
    // issue 30: corrections of the ledger and its journal
    const recorded = await ctx.app.inject({
      method: 'POST',
      url: txUrl,
      headers: write,
      payload: { ...buy, executedAt: '2024-01-03T15:00:00Z' },
    });
    const recordedUrl = `${txUrl}/${recorded.json().id}`;
    const txPath = '/api/portfolios/{id}/transactions/{transactionId}';
    const theirs = { cookie: other.cookie, ...ORIGIN };
    await check(txPath, { url: recordedUrl, headers: { cookie } });
    await check(txPath, { url: recordedUrl, headers: { cookie: other.cookie } });
    await check(txPath, {
      method: 'PATCH',
      url: recordedUrl,
      headers: { ...write, 'if-match': '"stale"' },
      payload: { quantity: '3' },
    });
    await check(txPath, {
      method: 'PATCH',
      url: recordedUrl,
      headers: write,
      payload: { quantity: '3' },
    });
    await check(txPath, {
      method: 'PATCH',
      url: recordedUrl,
      headers: write,
      payload: { quantity: 'x' },
    });
    await check(txPath, {
      method: 'PATCH',
      url: recordedUrl,
      headers: theirs,
      payload: { quantity: '1' },
    });
    const sold = await ctx.app.inject({
      method: 'POST',
      url: txUrl,
      headers: write,
      payload: { ...buy, type: 'sell', quantity: '5', executedAt: '2024-02-01T15:00:00Z' },
    });
    expect(sold.statusCode, sold.body).toBe(201);
    await check(txPath, {
      method: 'PATCH',
      url: recordedUrl,
      headers: write,
      payload: { quantity: '1' },
    });
    await check(txPath, { method: 'DELETE', url: recordedUrl, headers: write });
    await check(txPath, { method: 'DELETE', url: recordedUrl, headers: theirs });
    await check(txPath, { method: 'DELETE', url: `${txUrl}/${sold.json().id}`, headers: write });
    const changesUrl = `/api/portfolios/${id}/changes`;
    const listedChanges = await check('/api/portfolios/{id}/changes', {
      url: `${changesUrl}?limit=1`,
      headers: { cookie },
    });
    await check('/api/portfolios/{id}/changes', {
      url: changesUrl,
      headers: { cookie: other.cookie },
    });
    await check('/api/portfolios/{id}/changes', {
      url: `${changesUrl}?cursor=x`,
      headers: { cookie },
    });
    const revertUrl = `${changesUrl}/${listedChanges.json().items[0].id}/revert`;
    const revertPath = '/api/portfolios/{id}/changes/{changeId}/revert';
    await check(revertPath, { method: 'POST', url: revertUrl, headers: theirs });
    await check(revertPath, { method: 'POST', url: revertUrl, headers: write });
    await check(revertPath, { method: 'POST', url: revertUrl, headers: write });
    // issue 38: the user's correction of an instrument
    const instrumentPath = '/api/portfolios/{id}/instruments/{symbol}';
    const held = (
      await ctx.app.inject({ url: `/api/holdings?portfolioId=${id}`, headers: { cookie } })
    ).json();
    const heldSymbol = encodeURIComponent(held[0]?.symbol ?? 'AAPL');
    await check(instrumentPath, {
      method: 'PUT',
      url: `/api/portfolios/${id}/instruments/${heldSymbol}`,
      headers: write,
      payload: { ticker: held[0]?.symbol ?? 'AAPL', mic: 'XNAS' },
    });
    await check(instrumentPath, {
      method: 'PUT',
      url: `/api/portfolios/${id}/instruments/NOPE`,
      headers: write,
      payload: { ticker: 'NOPE' },
    });
    await check(instrumentPath, {
      method: 'PUT',
      url: `/api/portfolios/${id}/instruments/${heldSymbol}`,
      headers: write,
      payload: { mic: 'x' },
    });
    await check('/api/quote', { url: '/api/quote?symbol=AAPL', headers: { cookie } });
    await check('/api/quote', { url: '/api/quote?symbol=ZZZZZ', headers: { cookie } });
    await check('/api/quote', { url: '/api/quote?symbol=%24%24', headers: { cookie } });
    // a mapping saved with an import of an unknown broker's file, listed, deleted
    const unknown = [
      'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Gebühren;Betrag',
      '21.03.2024;Einzahlung;;;;;USD;;1.000,00',
    ].join('\n');
    const preview = await ctx.app.inject({
      method: 'POST',
      url: `/api/portfolios/${id}/import?dryRun=1`,
      headers: { ...write, 'content-type': 'text/csv' },
      payload: unknown,
    });
    const proposed = JSON.stringify(preview.json().proposal?.mapping);
    const imported = await ctx.app.inject({
      method: 'POST',
      // confirmed: the preview's token of the proposal
      url: `/api/portfolios/${id}/import?saveMapping=1&mapping=${encodeURIComponent(proposed)}&previewToken=${preview.json().previewToken}`,
      headers: { ...write, 'content-type': 'text/csv' },
      payload: unknown,
    });
    const saved = await check('/api/import-mappings', {
      url: '/api/import-mappings',
      headers: { cookie },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(saved.json()).toHaveLength(1);
    const mappingId = (saved.json() as { id: string }[])[0]?.id ?? 'none';
    await check('/api/import-mappings/{id}', {
      method: 'DELETE',
      url: `/api/import-mappings/${mappingId}`,
      headers: write,
    });
    await check('/api/import-mappings/{id}', {
      method: 'DELETE',
      url: `/api/import-mappings/${mappingId}`,
      headers: write,
    });
  }

  /** The narrative, advisor, confirm and ai-chat operations (offline model), with their errors. */
  async function checkAdvisorOperations(): Promise<void> {
    const { cookie } = await registerUser(ctx.app, 'advisor-doc@example.com');
    const write = { cookie, ...ORIGIN };
    const evaluation = (
      await ctx.app.inject({ url: '/api/stock-evaluation?symbol=AAPL', headers: { cookie } })
    ).json();
    await check('/api/stock-evaluation/ai', {
      method: 'POST',
      url: '/api/stock-evaluation/ai',
      headers: write,
      payload: { evaluation, language: 'en' },
    });
    await check('/api/stock-evaluation/ai', {
      method: 'POST',
      url: '/api/stock-evaluation/ai',
      headers: write,
      payload: { evaluation: { symbol: 'AAPL' } },
    });
    await check('/api/stock-evaluation/ai', {
      method: 'POST',
      url: '/api/stock-evaluation/ai',
      headers: ORIGIN,
      payload: { evaluation },
    });

    const portfolioId = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/portfolios',
        headers: write,
        payload: { name: 'Advisor doc' },
      })
    ).json().id;
    const ask = { messages: [{ role: 'user', content: 'What do I hold?' }] };
    await check('/api/advisor/chat', {
      method: 'POST',
      url: '/api/advisor/chat',
      headers: write,
      payload: ask,
    });
    await check('/api/advisor/chat', {
      method: 'POST',
      url: '/api/advisor/chat',
      headers: write,
      payload: { messages: [{ role: 'system', content: 'x' }] },
    });
    await check('/api/advisor/chat', {
      method: 'POST',
      url: '/api/advisor/chat',
      headers: write,
      payload: { ...ask, activePortfolioId: '00000000-0000-4000-8000-000000000000' },
    });
    const exe = await multipartBody({ payload: JSON.stringify(ask) }, [
      { name: 'x.exe', type: 'application/octet-stream', data: 'MZ' },
    ]);
    await check('/api/advisor/chat', {
      method: 'POST',
      url: '/api/advisor/chat',
      headers: { ...write, ...exe.headers },
      payload: exe.payload,
    });
    const csv = readFileSync(sharedData('broker-exports/ghostfolio/ok_vti-buy-on-ibkr.csv'));
    const upload = await multipartBody(
      {
        payload: JSON.stringify({ messages: [], activePortfolioId: portfolioId }),
        userText: 'Import this file',
      },
      [{ name: 'export.csv', type: 'text/csv', data: csv }],
    );
    const turn = await check('/api/advisor/chat', {
      method: 'POST',
      url: '/api/advisor/chat',
      headers: { ...write, ...upload.headers },
      payload: upload.payload,
    });
    const proposalId = parseSse(turn.body)
      .events.map((e) => JSON.parse(e.data))
      .find((f) => f.type === 'proposal')?.proposal.id;
    expect(proposalId).toBeTypeOf('string');
    const decide = (id: string) =>
      check('/api/advisor/confirm', {
        method: 'POST',
        url: '/api/advisor/confirm',
        headers: write,
        payload: { proposalId: id, decision: 'accept' },
      });
    await decide(proposalId);
    await decide(proposalId);
    await decide('00000000-0000-4000-8000-000000000000');
    await check('/api/advisor/confirm', {
      method: 'POST',
      url: '/api/advisor/confirm',
      headers: write,
      payload: { proposalId, decision: 'maybe' },
    });
    await check('/api/portfolio/ai-chat', {
      method: 'POST',
      url: '/api/portfolio/ai-chat',
      headers: write,
      payload: ask,
    });
    await check('/api/portfolio/ai-chat', {
      method: 'POST',
      url: '/api/portfolio/ai-chat',
      headers: write,
      payload: { messages: [] },
    });
  }

  it('is a valid OpenAPI 3.1.0 document, version 2.5.33, with both security schemes', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.5.33');
    expect(doc.info.description).toContain('not financial advice');
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'service_session',
    });
    expect(doc.components.securitySchemes.personalAccessToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('describes every error response as problem+json and marks session routes', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(
          operation.responses['500']?.content?.['application/problem+json'],
          `${method} ${path}`,
        ).toBeDefined();
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400)
            expect(Object.keys(response.content ?? {})).toEqual(['application/problem+json']);
        }
        if (operation.security) expect(operation.responses['401']).toBeDefined();
      }
    }
  });

  it('matches the real answers of every route', async () => {
    await check('/api/docs', { url: '/api/docs' });
    for (const id of DOCS_SECTION_IDS)
      await check('/api/docs/{section}', { url: `/api/docs/${id}` });
    await check('/api/docs/{section}', { url: '/api/docs/nope' });

    const reg = await check('/api/auth/register', {
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email: 'doc@example.com', password: 'correct horse battery', name: 'Doc' },
    });
    const cookie = sessionCookie(reg);
    await check('/api/auth/register', {
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email: 'doc@example.com', password: 'correct horse battery' },
    });
    await check('/api/auth/register', {
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email: 'x' },
    });
    await check('/api/auth/login', {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'doc@example.com', password: 'correct horse battery' },
    });
    await check('/api/auth/login', {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'doc@example.com', password: 'wrong password' },
    });
    await check('/api/auth/session', { url: '/api/auth/session', headers: { cookie } });
    await check('/api/auth/session', { url: '/api/auth/session' });

    await check('/api/auth/oidc/login', { url: '/api/auth/oidc/login' });
    await check('/api/auth/oidc/callback', { url: '/api/auth/oidc/callback?code=x&state=s' });

    await check('/api/account/tokens', { url: '/api/account/tokens', headers: { cookie } });
    const minted = await check('/api/account/tokens', {
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'doc' },
    });
    await check('/api/account/tokens', {
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, origin: 'https://evil.example' },
      payload: { name: 'doc' },
    });
    await check('/api/account/tokens', { url: '/api/account/tokens', headers: { cookie } });
    await check('/api/account/tokens/{id}', {
      method: 'PATCH',
      url: `/api/account/tokens/${minted.json().id}`,
      headers: { cookie, ...ORIGIN },
      payload: { scopes: ['portfolio:values'] },
    });
    await check('/api/account/tokens/{id}', {
      method: 'PATCH',
      url: '/api/account/tokens/8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e',
      headers: { cookie, ...ORIGIN },
      payload: { scopes: ['moat:read'] },
    });
    await check('/api/account/tokens/{id}/activity', {
      url: `/api/account/tokens/${minted.json().id}/activity`,
      headers: { cookie },
    });
    await check('/api/account/tokens/{id}/activity', {
      url: '/api/account/tokens/8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e/activity',
      headers: { cookie },
    });
    await check('/api/account/tokens/{id}', {
      method: 'DELETE',
      url: `/api/account/tokens/${minted.json().id}`,
      headers: { cookie, ...ORIGIN },
    });
    await check('/api/account/tokens/{id}', {
      method: 'DELETE',
      url: `/api/account/tokens/${minted.json().id}`,
      headers: { cookie, ...ORIGIN },
    });
    await check('/api/account/tokens/{id}', {
      method: 'DELETE',
      url: '/api/account/tokens/not-a-uuid',
      headers: { cookie, ...ORIGIN },
    });

    const evaluation = await check('/api/stock-evaluation', {
      url: '/api/stock-evaluation?symbol=AAPL',
      headers: { cookie },
    });
    await check('/api/stock-evaluation', {
      url: '/api/stock-evaluation?symbol=AAPL',
      headers: { cookie },
    });
    await check('/api/stock-evaluation', {
      url: '/api/stock-evaluation?symbol=AAPL&fresh=true',
      headers: { cookie },
    });
    await check('/api/stock-evaluation', {
      url: '/api/stock-evaluation?symbol=ZZZZ',
      headers: { cookie },
    });
    await check('/api/stock-evaluation', { url: '/api/stock-evaluation?symbol=AAPL' });

    await check('/evaluation/{symbol}', { url: '/evaluation/AAPL', headers: { cookie } });
    await check('/evaluation/{symbol}', { url: '/evaluation/ZZZZ', headers: { cookie } });
    await check('/evaluation/{symbol}', { url: '/evaluation/AAPL' });

    await check('/api/stock-evaluation/history', {
      url: '/api/stock-evaluation/history?symbol=AAPL',
      headers: { cookie },
    });
    await check('/api/stock-evaluation/history', {
      url: '/api/stock-evaluation/history?symbol=AAPL&limit=0',
      headers: { cookie },
    });
    await check('/api/stock-evaluation/history/diff', {
      url: '/api/stock-evaluation/history/diff?symbol=AAPL',
      headers: { cookie },
    });
    await check('/api/stock-evaluation/history/diff', {
      url: '/api/stock-evaluation/history/diff?symbol=AAPL&from=x&to=y',
      headers: { cookie },
    });
    await check('/api/stock-evaluation/changes', {
      url: '/api/stock-evaluation/changes?since=2020-01-01T00:00:00Z',
      headers: { cookie },
    });
    await check('/api/stock-evaluation/changes', {
      url: '/api/stock-evaluation/changes',
      headers: { cookie },
    });

    await check('/api/account/webhooks', {
      method: 'POST',
      url: '/api/account/webhooks',
      headers: { cookie, ...ORIGIN },
      payload: { url: 'http://127.0.0.1:9/hook', events: ['evaluation.changed'] },
    });
    const hook = await check('/api/account/webhooks', {
      method: 'POST',
      url: '/api/account/webhooks',
      headers: { cookie, ...ORIGIN },
      payload: { url: 'http://93.184.215.14/hook', events: ['evaluation.changed'] },
    });
    await check('/api/account/webhooks', {
      method: 'POST',
      url: '/api/account/webhooks',
      headers: { cookie, ...ORIGIN },
      payload: {
        url: 'http://93.184.215.14/hook',
        events: ['evaluation.changed'],
        portfolioId: '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e',
      },
    });
    await check('/api/account/webhooks', { url: '/api/account/webhooks', headers: { cookie } });
    await check('/api/account/webhooks/{id}/deliveries', {
      url: `/api/account/webhooks/${hook.json().id}/deliveries`,
      headers: { cookie },
    });
    await check('/api/account/webhooks/{id}/deliveries', {
      url: '/api/account/webhooks/8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e/deliveries',
      headers: { cookie },
    });
    await check('/api/account/webhooks/{id}', {
      method: 'DELETE',
      url: `/api/account/webhooks/${hook.json().id}`,
      headers: { cookie, ...ORIGIN },
    });
    await check('/api/account/webhooks/{id}', {
      method: 'DELETE',
      url: `/api/account/webhooks/${hook.json().id}`,
      headers: { cookie, ...ORIGIN },
    });

    await check('/api/moat-screener', { url: '/api/moat-screener', headers: { cookie } });
    await check('/api/moat-screener', {
      url: '/api/moat-screener?action=meta',
      headers: { cookie },
    });
    await check('/api/moat-screener', {
      url: '/api/moat-screener?limit=101',
      headers: { cookie },
    });
    await check('/api/moat-screener', {
      url: '/api/moat-screener?minScoreChange=-5&maxScoreChange=5',
      headers: { cookie },
    });

    const report = await check('/api/moat-reports', {
      method: 'POST',
      url: '/api/moat-reports',
      headers: { cookie, ...ORIGIN },
      payload: { symbol: 'AAPL', evaluationJson: evaluation.body, tags: ['doc'] },
    });
    await check('/api/moat-reports', {
      method: 'POST',
      url: '/api/moat-reports',
      headers: { cookie, ...ORIGIN },
      payload: { symbol: 'AAPL', evaluationJson: '{"symbol":"AAPL"}' },
    });
    await check('/api/moat-reports', { url: '/api/moat-reports?tags=doc', headers: { cookie } });
    await check('/api/moat-reports/{id}', {
      url: `/api/moat-reports/${report.json().id}`,
      headers: { cookie },
    });
    await check('/api/moat-reports/{id}', { url: '/api/moat-reports/42', headers: { cookie } });
    await check('/api/moat-reports/{id}', {
      method: 'DELETE',
      url: `/api/moat-reports/${report.json().id}`,
      headers: { cookie, ...ORIGIN },
    });
    await check('/api/moat-reports/{id}', {
      method: 'DELETE',
      url: `/api/moat-reports/${report.json().id}`,
      headers: { cookie, ...ORIGIN },
    });

    await check('/healthz', { url: '/healthz' });
    await check('/readyz', { url: '/readyz' });

    await check('/account/developer', { url: '/account/developer', headers: { cookie } });
    await check('/account/developer', { url: '/account/developer' });
    const browser = { accept: 'text/html' };
    await check('/account/developer', { url: '/account/developer', headers: browser });
    await check('/evaluation/{symbol}', { url: '/evaluation/AAPL', headers: browser });
    await check('/', { url: '/' });
    await check('/', { url: '/', headers: browser });
    await check('/', { url: '/?symbol=KO' });
    await check('/', { url: '/?symbol=not%20a%20ticker' });
    await check('/signin', { url: '/signin?next=%2Fevaluation%2FKO' });
    await check('/signup', { url: '/signup' });

    await check('/api/auth/logout', {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, ...ORIGIN },
    });
    await check('/api/auth/logout', {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, ...ORIGIN },
    });

    await checkPortfolioOperations();
    await checkAdvisorOperations();
    await checkAccountDataOperations();

    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    const untested = operations.filter((op) => ![...covered].some((c) => c.startsWith(`${op} `)));
    expect(untested, 'every documented operation was exercised').toEqual([]);
  });

  it('rejects a wrong body against the same schemas (the validation can fail)', () => {
    const pointer = [
      'paths',
      '/api/auth/register',
      'post',
      'responses',
      '201',
      'content',
      'application/json',
      'schema',
    ]
      .map(escapePointer)
      .join('/');
    const validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
    expect(validate({ user: { id: 'not-a-uuid', email: 'a@example.com' } })).toBe(false);
  });

  it('validates a registered user on the second path too (keeps fixtures honest)', async () => {
    const { cookie } = await registerUser(ctx.app, 'second@example.com');
    const res = await check('/api/auth/session', { url: '/api/auth/session', headers: { cookie } });
    expect(res.json().user.email).toBe('second@example.com');
  });
});
