import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeNext, wantsHtml } from '../src/routes/pages/page-shell.js';
import { createTestContext, registerUser, type TestContext } from './helpers.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('safeNext and wantsHtml', () => {
  it('keeps same-site paths only', () => {
    expect(safeNext('/evaluation/AAPL?x=1')).toBe('/evaluation/AAPL?x=1');
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/a\nLocation: x',
      '',
      undefined,
      ['/a'],
    ]) {
      expect(safeNext(bad), String(bad)).toBe('/');
    }
  });
  it('tells a browser from a client by Accept', () => {
    expect(wantsHtml(BROWSER_ACCEPT)).toBe(true);
    expect(wantsHtml('*/*')).toBe(false);
    expect(wantsHtml(undefined)).toBe(false);
    expect(wantsHtml('application/json')).toBe(false);
    expect(wantsHtml('application/json, text/html;q=0.5')).toBe(false);
    expect(wantsHtml('text/html;q=0')).toBe(false);
  });
});

/** The people's pages (CONTRACT §9 "Pages") through `app.inject`. */
describe('pages: /, /signin, /signup and the sign-in redirect', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('GET / is a page for a browser and a JSON index for a client', async () => {
    const page = await ctx.app.inject({ url: '/', headers: { accept: BROWSER_ACCEPT } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers.vary).toContain('Accept');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    for (const href of ['/signup', '/signin', '/api/docs', '/account/developer']) {
      expect(page.body).toContain(`href="${href}"`);
    }
    expect(page.body).toContain('<form class="search" method="get" action="/"');
    expect(page.body).toContain('/api/mcp/user/mcp');

    for (const accept of [undefined, '*/*', 'application/json']) {
      const index = await ctx.app.inject({ url: '/', headers: accept ? { accept } : {} });
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-type']).toContain('application/json');
      expect(index.json().links.docs).toMatch(/\/api\/docs$/);
      expect(index.json().links.evaluationPage).toMatch(/\/evaluation\/\{symbol\}$/);
    }
  });

  it("keeps the API's 404 problem+json, even for a browser", async () => {
    const res = await ctx.app.inject({ url: '/nowhere', headers: { accept: BROWSER_ACCEPT } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('the search box opens the card; a bad symbol says what a symbol looks like', async () => {
    const ok = await ctx.app.inject({ url: '/?symbol=%20brk.b%20' });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/evaluation/BRK.B');
    const bad = await ctx.app.inject({
      url: '/?symbol=%3Cscript%3E',
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.body).toContain('role="alert">Not a ticker');
    expect(bad.body).not.toContain('<script>');
    const client = await ctx.app.inject({ url: '/?symbol=%3Cscript%3E' });
    expect(client.statusCode).toBe(200);
    expect(client.json().links).toBeDefined();
  });

  it('sends a signed-out browser to /signin?next=… from the card and the developer page', async () => {
    for (const url of ['/evaluation/AAPL', '/account/developer']) {
      const res = await ctx.app.inject({ url, headers: { accept: BROWSER_ACCEPT } });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location).toBe(`/signin?next=${encodeURIComponent(url)}`);
      const api = await ctx.app.inject({ url });
      expect(api.statusCode, url).toBe(401);
      expect(api.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('sign-in and sign-up pages carry a same-site next only, escaped', async () => {
    const page = await ctx.app.inject({ url: '/signin?next=%2Fevaluation%2FKO%3Fa%3D%22x' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-endpoint="/api/auth/login"');
    expect(page.body).toContain('data-next="/evaluation/KO?a=&quot;x"');
    const foreign = await ctx.app.inject({ url: '/signup?next=https%3A%2F%2Fevil.example' });
    expect(foreign.body).toContain('data-endpoint="/api/auth/register"');
    expect(foreign.body).toContain('data-next="/"');
    expect(foreign.body).not.toContain('evil.example');
  });

  it('a signed-in browser gets the pages; home links the developer page', async () => {
    const { cookie } = await registerUser(ctx.app, 'pages@example.com');
    const dev = await ctx.app.inject({
      url: '/account/developer',
      headers: { cookie, accept: BROWSER_ACCEPT },
    });
    expect(dev.statusCode).toBe(200);
    expect(dev.body).toContain('id="password-form"');
    const home = await ctx.app.inject({ url: '/', headers: { cookie, accept: BROWSER_ACCEPT } });
    expect(home.body).toContain('You are signed in.');
  });
});
