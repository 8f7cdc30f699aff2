import { BODY_LIMIT_BYTES } from '@svc/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

describe('problem+json errors and the session guard', () => {
  let ctx: TestContext;
  const sessionRoutes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { RATE_LIMIT_PER_MINUTE: '5' },
      beforeReady: (app) => {
        app.get('/test/boom', async () => {
          throw new Error('secret connection string postgres://user:pw@db');
        });
        app.get('/test/limited', { config: { auth: 'session' } }, async () => ({ ok: true }));
      },
    });
    // Every operation the published document marks as needing the session cookie.
    const doc = ctx.app.swagger() as {
      paths: Record<string, Record<string, { security?: object[] }>>;
    };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (JSON.stringify(operation.security ?? []).includes('sessionCookie')) {
          sessionRoutes.push({ method: method.toUpperCase(), url: path.replace('{id}', ':id') });
        }
      }
    }
  });
  afterAll(() => ctx.close());

  it('collected the session routes of the app (the guard test below is not vacuous)', () => {
    const keys = sessionRoutes.map((r) => `${r.method} ${r.url}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/auth/session',
        'POST /api/auth/logout',
        'GET /api/account/tokens',
        'POST /api/account/tokens',
        'DELETE /api/account/tokens/:id',
      ]),
    );
  });

  it('answers 401 problem+json on every session route without a cookie', async () => {
    for (const route of sessionRoutes) {
      const url = route.url
        .replace(':id', '00000000-0000-4000-8000-000000000000')
        .replaceAll(/\{\w+\}/g, 'AAPL');
      const res = await ctx.app.inject({ method: route.method as 'GET', url, headers: ORIGIN });
      expect(res.statusCode, `${route.method} ${url}`).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized', instance: url });
    }
  });

  it('answers unknown routes with 404 problem+json, never HTML', async () => {
    const res = await ctx.app.inject({ url: '/no/such/page?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'not_found', status: 404, instance: '/no/such/page' });
  });

  it('hides the message and stack of unexpected errors (500 internal)', async () => {
    const res = await ctx.app.inject({ url: '/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('internal');
    expect(res.body).not.toContain('postgres://');
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(res.json()).not.toHaveProperty('stack');
  });

  it('maps body problems: 415 unsupported media type, 400 broken JSON, 413 too large', async () => {
    const media = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(media.statusCode).toBe(415);
    expect(media.json().code).toBe('unsupported_media_type');

    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('validation_failed');

    const big = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('payload_too_large');
    expect(big.headers['content-type']).toContain('application/problem+json');
  });

  it('rate limits session routes per user (429 rate_limited with Retry-After), not per IP', async () => {
    const a = await registerUser(ctx.app, 'busy@example.com');
    const b = await registerUser(ctx.app, 'calm@example.com');
    const hit = (cookie: string) => ctx.app.inject({ url: '/test/limited', headers: { cookie } });
    for (let i = 0; i < 5; i += 1) expect((await hit(a.cookie)).statusCode).toBe(200);
    const limited = await hit(a.cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await hit(b.cookie)).statusCode).toBe(200);
  });
});
