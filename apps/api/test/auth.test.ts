import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  ENGINES,
  ORIGIN,
  registerUser,
  sessionCookie,
  type TestContext,
} from './helpers.js';

describe.each(ENGINES)('accounts and sessions (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      engine,
      deps: { loginThrottle: { maxFailures: 3, windowSeconds: 60 } },
    });
  });
  afterAll(() => ctx.close());

  it('registers, sets the session cookie with the contract flags, and reads the session', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email: 'Ada@Example.com', password: 'correct horse battery', name: 'Ada' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ email: 'ada@example.com', name: 'Ada', plan: 'free' });
    expect(res.json().user).not.toHaveProperty('passwordHash');
    const raw = String(res.headers['set-cookie']);
    expect(raw).toMatch(/^service_session=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(raw).toContain('HttpOnly');
    expect(raw).toContain('SameSite=Lax');
    expect(raw).toContain('Path=/');
    expect(raw).not.toContain('Secure');
    const jwt = raw.split(';')[0]?.split('=')[1] ?? '';
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());
    expect(Object.keys(claims)).toEqual(expect.arrayContaining(['sub', 'sid', 'iat', 'exp']));
    expect(claims.sub).toBe(res.json().user.id);

    const session = await ctx.app.inject({
      url: '/api/auth/session',
      headers: { cookie: sessionCookie(res) },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { email: 'ada@example.com' }, plan: 'free' });
    expect(
      session
        .json()
        .quotas.map((q: { name: string }) => q.name)
        .sort(),
    ).toEqual(['ai_consult', 'stock_evaluation']);
  });

  it('reports quota usage from the shared counters, with the reset instant of the period', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'quota@example.com');
    await ctx.quotas.consume(userId, 'free', 'stock_evaluation');
    await ctx.quotas.consume(userId, 'free', 'stock_evaluation');
    const res = await ctx.app.inject({ url: '/api/auth/session', headers: { cookie } });
    const quota = res.json().quotas.find((q: { name: string }) => q.name === 'stock_evaluation');
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(quota.used).toBe(2);
    expect(quota.limit).toBeGreaterThanOrEqual(2);
    expect(Date.parse(quota.resetsAt)).toBe(nextMonth.getTime());
  });

  it('answers 409 conflict for an e-mail that exists, whatever its case', async () => {
    await registerUser(ctx.app, 'dup@example.com');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email: 'DUP@example.com', password: 'another password' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().code).toBe('conflict');
  });

  it('logs in, and gives the same 401 for an unknown e-mail and a wrong password', async () => {
    await registerUser(ctx.app, 'login@example.com', 'the right password');
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'login@example.com', password: 'the right password' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe('login@example.com');

    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'login@example.com', password: 'the wrong password' },
    });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'the wrong password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const strip = (body: { instance?: string }) => ({ ...body, instance: undefined });
    expect(strip(wrong.json())).toEqual(strip(unknown.json()));
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('rate limits repeated failures per IP and e-mail with 429 and Retry-After', async () => {
    await registerUser(ctx.app, 'victim@example.com', 'victim password');
    const attempt = (password: string, ip = '10.0.0.1') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: 'victim@example.com', password },
      });
    for (let i = 0; i < 3; i += 1) expect((await attempt('guess')).statusCode).toBe(401);
    const blocked = await attempt('victim password');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limited');
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another client IP is not blocked by the first one's failures.
    expect((await attempt('victim password', '10.0.0.2')).statusCode).toBe(200);
  });

  it('logout revokes the session at once: the same cookie is refused afterwards', async () => {
    const { cookie } = await registerUser(ctx.app, 'bye@example.com');
    expect(
      (await ctx.app.inject({ url: '/api/auth/session', headers: { cookie } })).statusCode,
    ).toBe(200);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, ...ORIGIN },
    });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(
      /service_session=;.*Expires=Thu, 01 Jan 1970/,
    );
    const after = await ctx.app.inject({ url: '/api/auth/session', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('unauthorized');
  });

  it('refuses a session revoked server-side, a tampered JWT and a JWT of another secret', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'revoked@example.com');
    const jwt = cookie.split('=')[1] ?? '';
    const [header, payload, signature] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    const tampered = `service_session=${header}.${forged}.${signature}`;
    expect(
      (await ctx.app.inject({ url: '/api/auth/session', headers: { cookie: tampered } }))
        .statusCode,
    ).toBe(401);

    await ctx.repos.sessions.revoke(userId, claims.sid, new Date());
    expect(
      (await ctx.app.inject({ url: '/api/auth/session', headers: { cookie } })).statusCode,
    ).toBe(401);

    const other = await createTestContext({ engine });
    try {
      const foreign = await registerUser(other.app, 'revoked@example.com');
      expect(
        (await ctx.app.inject({ url: '/api/auth/session', headers: { cookie: foreign.cookie } }))
          .statusCode,
      ).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('validates bodies: 400 validation_failed with field errors', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: ORIGIN,
      payload: { email: 'not-an-email', password: 'short' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    const paths = body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['body.email', 'body.password']);
  });
});

describe('sign-up switch and cookie security', () => {
  it('answers 403 forbidden on register when SIGNUP_ENABLED=false', async () => {
    const ctx = await createTestContext({ env: { SIGNUP_ENABLED: 'false' } });
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: ORIGIN,
        payload: { email: 'a@example.com', password: 'correct horse battery' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    } finally {
      await ctx.close();
    }
  });

  it('adds Secure to the cookie when BASE_URL is https', async () => {
    const ctx = await createTestContext({ env: { BASE_URL: 'https://svc.example.com' } });
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { origin: 'https://svc.example.com' },
        payload: { email: 'a@example.com', password: 'correct horse battery' },
      });
      expect(res.statusCode).toBe(201);
      expect(String(res.headers['set-cookie'])).toContain('Secure');
    } finally {
      await ctx.close();
    }
  });
});
