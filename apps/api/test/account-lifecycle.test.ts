/**
 * Issue 30 (CONTRACT §6): changing the password ends every other session at once; erasing an
 * account leaves no row that names the user (probed over every column of every table) and stops
 * every session and token at once. On PGlite and on a real PostgreSQL, with a session memo of
 * 300 s, so that "at once" is the memo being told, not it expiring.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  ENGINES,
  ORIGIN,
  registerUser,
  sessionCookie,
  type TestContext,
} from './helpers.js';

const PASSWORD = 'correct horse battery';

describe.each(ENGINES)('password change and account erasure on %s', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ engine, env: { SESSION_CACHE_SECONDS: '300' } });
  });
  afterAll(() => ctx.close());

  const call = (
    cookie: string | undefined,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { ...ORIGIN, ...(cookie ? { cookie } : {}) },
      ...(payload === undefined ? {} : { payload }),
    });
  const login = async (email: string, password: string) =>
    call(undefined, 'POST', '/api/auth/login', { email, password });
  const sessionStatus = async (cookie: string) =>
    (await call(cookie, 'GET', '/api/auth/session')).statusCode;
  const mcpStatus = async (token: string) =>
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/mcp/user/mcp',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      })
    ).statusCode;

  describe('POST /api/auth/password', () => {
    it('changes the password and ends every other session at once; this one stays', async () => {
      const email = `pw-${engine}@example.com`;
      const { cookie: first } = await registerUser(ctx.app, email, PASSWORD);
      const second = sessionCookie(await login(email, PASSWORD));
      const third = sessionCookie(await login(email, PASSWORD));
      // every session verified once: each is in the memo now
      for (const cookie of [first, second, third]) expect(await sessionStatus(cookie)).toBe(200);

      const res = await call(second, 'POST', '/api/auth/password', {
        currentPassword: PASSWORD,
        newPassword: 'a new and longer one',
      });
      expect(res.statusCode, res.body).toBe(204);

      expect(await sessionStatus(second)).toBe(200);
      expect(await sessionStatus(first)).toBe(401);
      expect(await sessionStatus(third)).toBe(401);
      expect((await login(email, PASSWORD)).statusCode).toBe(401);
      expect((await login(email, 'a new and longer one')).statusCode).toBe(200);
    });

    it('answers 403 (not "Not signed in") for a wrong current password and 400 for a new one sign-up would refuse', async () => {
      const email = `pw-wrong-${engine}@example.com`;
      const { cookie } = await registerUser(ctx.app, email, PASSWORD);
      const other = sessionCookie(await login(email, PASSWORD));
      const wrong = await call(cookie, 'POST', '/api/auth/password', {
        currentPassword: 'not the password',
        newPassword: 'whatever it is now',
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(wrong.json()).toMatchObject({
        code: 'forbidden',
        title: 'Forbidden',
        detail: 'The current password is wrong.',
      });
      expect(wrong.headers['www-authenticate']).toBeUndefined();
      const short = await call(cookie, 'POST', '/api/auth/password', {
        currentPassword: PASSWORD,
        newPassword: 'short',
      });
      expect(short.statusCode).toBe(400);
      expect(short.json().code).toBe('validation_failed');
      // nothing changed: both sessions live, the old password still signs in
      expect(await sessionStatus(other)).toBe(200);
      expect((await login(email, PASSWORD)).statusCode).toBe(200);
      expect(
        (
          await call(undefined, 'POST', '/api/auth/password', {
            currentPassword: PASSWORD,
            newPassword: 'a new and longer one',
          })
        ).statusCode,
      ).toBe(401);
    });
  });

  describe('DELETE /api/account', () => {
    it('erases every row that names the user; sessions and tokens stop at once', async () => {
      const email = `erase-${engine}@example.com`;
      const { cookie, userId } = await registerUser(ctx.app, email, PASSWORD);
      const other = sessionCookie(await login(email, PASSWORD));
      const kept = await registerUser(ctx.app, `kept-${engine}@example.com`, PASSWORD);
      // a failed login leaves a throttle row; requests leave rate-limit rows
      expect((await login(email, 'wrong password')).statusCode).toBe(401);
      const minted = await call(cookie, 'POST', '/api/account/tokens', { name: 'agent' });
      expect(minted.statusCode).toBe(201);
      const { token } = minted.json();
      expect(await mcpStatus(token)).toBe(200);
      for (const owner of [cookie, kept.cookie]) {
        const p = await call(owner, 'POST', '/api/portfolios', { name: 'Main' });
        expect(p.statusCode).toBe(201);
        const tx = await call(owner, 'POST', `/api/portfolios/${p.json().id}/transactions`, {
          type: 'buy',
          symbol: 'AAPL',
          quantity: '2',
          price: '150',
          currency: 'USD',
          executedAt: '2024-01-10T15:00:00Z',
        });
        expect(tx.statusCode, tx.body).toBe(201);
      }
      const evaluation = await call(cookie, 'GET', '/api/stock-evaluation?symbol=MCD');
      expect(evaluation.statusCode).toBe(200);
      const saved = await call(cookie, 'POST', '/api/moat-reports', {
        symbol: 'MCD',
        evaluationJson: evaluation.body,
        tags: [email],
      });
      expect(saved.statusCode).toBe(201);
      expect(await sessionStatus(other)).toBe(200);
      expect(await probe(userId, email)).not.toEqual([]);

      const missing = await call(cookie, 'DELETE', '/api/account', {});
      expect(missing.statusCode).toBe(400);
      const wrong = await call(cookie, 'DELETE', '/api/account', { password: 'not it' });
      expect(wrong.statusCode).toBe(403);
      expect(await sessionStatus(cookie)).toBe(200);

      const erased = await call(cookie, 'DELETE', '/api/account', { password: PASSWORD });
      expect(erased.statusCode, erased.body).toBe(204);
      const cleared = erased.cookies.find((c) => c.name === 'service_session');
      expect(cleared?.value).toBe('');

      expect(await sessionStatus(cookie)).toBe(401);
      expect(await sessionStatus(other)).toBe(401);
      expect(await mcpStatus(token)).toBe(401);
      expect((await login(email, PASSWORD)).statusCode).toBe(401);
      expect(await probe(userId, email)).toEqual([]);
      // the other user's rows are untouched
      expect(await sessionStatus(kept.cookie)).toBe(200);
      expect((await call(kept.cookie, 'GET', '/api/holdings')).json()).toHaveLength(1);
    });

    it('an account without a password needs a sign-in in the last 10 minutes', async () => {
      const client = { ip: '127.0.0.1', userAgent: undefined };
      const identity = (n: string) => ({
        issuer: 'https://id.example.test',
        subject: `sub-${n}-${engine}`,
        email: `oidc-${n}-${engine}@example.com`,
        name: null,
      });
      const fresh = await ctx.app.auth.signInWithOidc(identity('fresh'), client);
      const stale = await ctx.app.auth.signInWithOidc(identity('stale'), client);
      await sql`update sessions set created_at = now() - interval '11 minutes' where user_id = ${stale.user.id}`.execute(
        ctx.db,
      );
      const staleCookie = `service_session=${stale.jwt}`;
      const refused = await call(staleCookie, 'DELETE', '/api/account', {});
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().code).toBe('reauthentication_required');
      expect(await sessionStatus(staleCookie)).toBe(200);

      const freshCookie = `service_session=${fresh.jwt}`;
      const erased = await call(freshCookie, 'DELETE', '/api/account', {});
      expect(erased.statusCode, erased.body).toBe(204);
      expect(await sessionStatus(freshCookie)).toBe(401);
      expect(await probe(fresh.user.id, fresh.user.email)).toEqual([]);
    });
  });

  /**
   * Every column of every table of the schema whose text contains the user's id or e-mail
   * (case-insensitively; also the digest the rate-limit keys carry would not be the e-mail).
   */
  async function probe(userId: string, email: string): Promise<string[]> {
    const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()`.execute(ctx.db);
    expect(columns.length).toBeGreaterThan(20);
    const hits: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const { rows } = await sql<{ n: string | number }>`
        select count(*) as n from ${sql.table(table)}
        where position(${userId} in lower(${sql.ref(column)}::text)) > 0
           or position(${email.toLowerCase()} in lower(${sql.ref(column)}::text)) > 0`.execute(
        ctx.db,
      );
      if (Number(rows[0]?.n ?? 0) > 0) hits.push(`${table}.${column}`);
    }
    return hits;
  }
});
