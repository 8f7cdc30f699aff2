import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

const sidOf = (cookie: string): string =>
  JSON.parse(Buffer.from(cookie.split('.')[1] ?? '', 'base64url').toString()).sid;

describe('in-process session cache', () => {
  let ctx: TestContext | undefined;
  afterEach(() => ctx?.close());

  const session = (cookie: string) =>
    (ctx as TestContext).app.inject({ url: '/api/auth/session', headers: { cookie } });

  it('reuses a verified session for SESSION_CACHE_SECONDS, even past a revocation by another process', async () => {
    ctx = await createTestContext({ env: { SESSION_CACHE_SECONDS: '5' } });
    const { cookie, userId } = await registerUser(ctx.app, 'cached@example.com');
    expect((await session(cookie)).statusCode).toBe(200);
    // Another process revokes the row directly: this process trusts its memory for ≤ 5 s.
    await ctx.repos.sessions.revoke(userId, sidOf(cookie), new Date());
    expect((await session(cookie)).statusCode).toBe(200);
  });

  it('forgets the session at once on logout in this process', async () => {
    ctx = await createTestContext({ env: { SESSION_CACHE_SECONDS: '300' } });
    const { cookie } = await registerUser(ctx.app, 'bye@example.com');
    expect((await session(cookie)).statusCode).toBe(200);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, ...ORIGIN },
    });
    expect(out.statusCode).toBe(204);
    expect((await session(cookie)).statusCode).toBe(401);
  });

  it('checks the row on every request with SESSION_CACHE_SECONDS=0', async () => {
    ctx = await createTestContext({ env: { SESSION_CACHE_SECONDS: '0' } });
    const { cookie, userId } = await registerUser(ctx.app, 'strict@example.com');
    expect((await session(cookie)).statusCode).toBe(200);
    await ctx.repos.sessions.revoke(userId, sidOf(cookie), new Date());
    expect((await session(cookie)).statusCode).toBe(401);
  });

  it('never serves a remembered session past its expiry on the service clock', async () => {
    let now = new Date();
    ctx = await createTestContext({
      env: { SESSION_CACHE_SECONDS: '300', SESSION_TTL_HOURS: '1' },
      deps: { now: () => now },
    });
    const { cookie } = await registerUser(ctx.app, 'late@example.com');
    expect((await session(cookie)).statusCode).toBe(200);
    now = new Date(now.getTime() + 3_600_000 + 1_000);
    expect((await session(cookie)).statusCode).toBe(401);
  });
});
