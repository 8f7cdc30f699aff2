import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, ORIGIN, registerUser, type TestContext } from './helpers.js';

describe.each(ENGINES)('personal access tokens (%s)', (engine) => {
  let ctx: TestContext;
  let now = new Date('2030-03-01T12:00:00Z');
  let alice: { cookie: string; userId: string };
  let bob: { cookie: string; userId: string };

  beforeAll(async () => {
    ctx = await createTestContext({
      engine,
      deps: { now: () => now },
      beforeReady: (app) => {
        // A stand-in for the MCP app: a PAT-protected route using the exported guard.
        app.get('/test/whoami', { onRequest: app.requirePersonalAccessToken }, async (request) => ({
          email: request.tokenUser?.email,
        }));
      },
    });
    alice = await registerUser(ctx.app, 'alice@example.com');
    bob = await registerUser(ctx.app, 'bob@example.com');
  });
  afterAll(() => ctx.close());

  const mint = (cookie: string, payload: object) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload,
    });
  const list = (cookie: string) =>
    ctx.app.inject({ url: '/api/account/tokens', headers: { cookie } });
  const whoami = (token: string) =>
    ctx.app.inject({ url: '/test/whoami', headers: { authorization: `Bearer ${token}` } });

  it('mints a svc_pat_ token shown once, lists it without the secret, and verifies it', async () => {
    const res = await mint(alice.cookie, { name: 'laptop', expiresInDays: 30 });
    expect(res.statusCode).toBe(201);
    const minted = res.json();
    expect(minted.token).toMatch(/^svc_pat_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(minted.expiresAt) - now.getTime()).toBe(30 * 86_400_000);

    const listed = await list(alice.cookie);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(minted.token);
    const row = listed.json().find((t: { id: string }) => t.id === minted.id);
    expect(row).toMatchObject({ name: 'laptop', lastUsedAt: null });
    expect(minted.token.startsWith(row.prefix)).toBe(true);

    now = new Date('2030-03-02T08:00:00Z');
    const used = await whoami(minted.token);
    expect(used.statusCode).toBe(200);
    expect(used.json()).toEqual({ email: 'alice@example.com' });
    const touched = (await list(alice.cookie))
      .json()
      .find((t: { id: string }) => t.id === minted.id);
    expect(touched.lastUsedAt).toBe('2030-03-02T08:00:00.000Z');
    expect(
      (
        await ctx.app.inject({
          url: '/api/account/tokens',
          headers: { authorization: `Bearer ${minted.token}` },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('defaults to a 90-day lifetime and refuses an expired token', async () => {
    const minted = (await mint(alice.cookie, { name: 'short' })).json();
    expect(Date.parse(minted.expiresAt) - now.getTime()).toBe(90 * 86_400_000);
    expect((await whoami(minted.token)).statusCode).toBe(200);
    const saved = now;
    now = new Date(Date.parse(minted.expiresAt) + 1000);
    expect((await whoami(minted.token)).statusCode).toBe(401);
    now = saved;
  });

  it('revokes: the token stops working at once, and disappears from the list', async () => {
    const minted = (await mint(alice.cookie, { name: 'to revoke' })).json();
    expect((await whoami(minted.token)).statusCode).toBe(200);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/account/tokens/${minted.id}`,
      headers: { cookie: alice.cookie, ...ORIGIN },
    });
    expect(del.statusCode).toBe(204);
    const refused = await whoami(minted.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(
      /^Bearer realm=".*", error="invalid_token"$/,
    );
    expect((await list(alice.cookie)).json().map((t: { id: string }) => t.id)).not.toContain(
      minted.id,
    );
  });

  it("never lets user B read or revoke user A's tokens", async () => {
    const minted = (await mint(alice.cookie, { name: 'alice only' })).json();
    const bobList = (await list(bob.cookie)).json();
    expect(bobList.map((t: { id: string }) => t.id)).not.toContain(minted.id);
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/account/tokens/${minted.id}`,
      headers: { cookie: bob.cookie, ...ORIGIN },
    });
    expect(del.statusCode).toBe(404);
    expect(del.json().code).toBe('not_found');
    expect((await whoami(minted.token)).statusCode).toBe(200);
  });

  it('answers 401 with WWW-Authenticate: Bearer without a token, and for a malformed one', async () => {
    const none = await ctx.app.inject({ url: '/test/whoami' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    expect(none.headers['content-type']).toContain('application/problem+json');
    expect((await whoami('svc_pat_short')).statusCode).toBe(401);
    expect((await whoami(`svc_pat_${'A'.repeat(43)}`)).statusCode).toBe(401);
  });

  it('refuses cross-site writes: a foreign Origin and a missing Origin get 403', async () => {
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie: alice.cookie, origin: 'https://evil.example' },
      payload: { name: 'csrf' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('forbidden');
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie: alice.cookie },
      payload: { name: 'csrf' },
    });
    expect(missing.statusCode).toBe(403);
    const viaReferer = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie: alice.cookie, referer: 'http://127.0.0.1:3000/account/developer' },
      payload: { name: 'referer ok' },
    });
    expect(viaReferer.statusCode).toBe(201);
    const names = (await list(alice.cookie)).json().map((t: { name: string }) => t.name);
    expect(names).not.toContain('csrf');
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'alice@example.com', password: 'correct horse battery' },
    });
    expect(login.statusCode).toBe(403);
  });

  it('exposes verifyPersonalAccessToken on the instance for the MCP app', async () => {
    const minted = (await mint(bob.cookie, { name: 'mcp' })).json();
    expect((await ctx.app.verifyPersonalAccessToken(minted.token))?.email).toBe('bob@example.com');
    expect(await ctx.app.verifyPersonalAccessToken('not a token')).toBeNull();
  });
});
