import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, registerUser, type TestContext } from './helpers.js';

/** `GET /evaluation/{symbol}` (CONTRACT §8) through `app.inject`, on the shared SEC snapshot. */
describe('GET /evaluation/{symbol}: the moat card as a page', () => {
  let ctx: TestContext;
  let cookie: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ cookie } = await registerUser(ctx.app, 'card-page@example.com'));
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('serves a signed-in user the card: every criterion, its chart, the sources, no script', async () => {
    const res = await ctx.app.inject({ url: '/evaluation/aapl', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toContain("default-src 'none'");
    expect(res.body).toContain(`<style nonce="${nonce}">`);
    expect(res.body).not.toContain('<script');
    expect(res.body).toContain('<title>Apple Inc. (AAPL): moat card</title>');
    expect(res.body.match(/<li class="criterion /g)).toHaveLength(8);
    expect(res.body.match(/<svg class="trend-chart"/g)?.length).toBeGreaterThanOrEqual(7);
    expect(res.body).toContain('Source: snapshot');
    expect(res.body).toContain('Informational only, not financial advice.');
    // The same evaluation the REST route answers (now cached).
    const rest = await ctx.app.inject({
      url: '/api/stock-evaluation?symbol=AAPL',
      headers: { cookie },
    });
    expect(res.body).toContain(`<p class="verdict">${rest.json().verdict}</p>`);
    expect(res.body).toContain(`<strong>${rest.json().totalScore.toFixed(1)}</strong>`);
  });

  it('answers 401 problem+json without a session, as the API does', async () => {
    const res = await ctx.app.inject({ url: '/evaluation/AAPL' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('answers 404 problem+json for a company the provider does not know', async () => {
    const res = await ctx.app.inject({ url: '/evaluation/ZZZZ', headers: { cookie } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 404 });
  });

  it('answers 400 validation_failed for what is not a ticker', async () => {
    const res = await ctx.app.inject({ url: '/evaluation/AAPL%3B%20DROP', headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('is linked from the developer page and the API docs', async () => {
    const page = await ctx.app.inject({ url: '/account/developer', headers: { cookie } });
    expect(page.body).toContain('<a id="card-link" href="/evaluation/AAPL">');
    const docs = (await ctx.app.inject({ url: '/api/docs/advisor-moat' })).json();
    const paths = docs.content.endpoints.map((e: { method: string; path: string }) => e.path);
    expect(paths).toContain('/evaluation/KO');
  });
});
