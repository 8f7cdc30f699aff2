/**
 * Issue 30 (CONTRACT §6) across two real server processes on one PostgreSQL database, each with a
 * session memo of 300 s: a password changed on one process ends the other sessions on the other
 * at once, and an account erased on one stops its sessions and tokens on the other at once.
 */
import { createDatabase, type ServerProcess } from '@svc/service/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers.js';
import {
  sessionCookieOf as cookieOf,
  startTwoServers,
  TWO_SERVERS_PASSWORD,
  type TwoServers,
} from './two-servers.js';

describe.runIf(ENGINES.includes('postgres'))(
  'the account lifecycle across two server processes',
  () => {
    let servers: TwoServers;
    let one: ServerProcess;
    let two: ServerProcess;

    beforeAll(async () => {
      servers = await startTwoServers({
        name: 'two30',
        base: 'http://127.0.0.1:3999',
        env: { SESSION_CACHE_SECONDS: '300' },
      });
      ({ one, two } = servers);
    }, 120_000);

    afterAll(async () => {
      expect(await servers?.close()).toEqual([0, 0]);
    }, 60_000);

    const call = (server: ServerProcess, path: string, init: RequestInit = {}) =>
      servers.call(server, path, init);
    const register = (server: ServerProcess, email: string) => servers.register(server, email);

    const password = TWO_SERVERS_PASSWORD;
    const login = async (server: ServerProcess, email: string, secret = password) => {
      const res = await call(server, '/api/auth/login', {
        method: 'POST',
        body: JSON.stringify({ email, password: secret }),
      });
      expect(res.status).toBe(200);
      return cookieOf(res);
    };
    const sessionOn = async (server: ServerProcess, cookie: string) =>
      (await call(server, '/api/auth/session', { headers: { cookie } })).status;
    const soon = { timeout: 3_000, interval: 5 };

    it('a password changed on one process ends the other sessions on the other at once', async () => {
      const email = 'p-password@example.test';
      const first = await register(one, email);
      const second = await login(two, email);
      // both verified by process two: in its memo now
      expect(await sessionOn(two, first)).toBe(200);
      expect(await sessionOn(two, second)).toBe(200);
      const changed = await call(one, '/api/auth/password', {
        method: 'POST',
        headers: { cookie: first },
        body: JSON.stringify({ currentPassword: password, newPassword: 'a brand new password' }),
      });
      expect(changed.status).toBe(204);
      await expect.poll(() => sessionOn(two, second), soon).toBe(401);
      expect(await sessionOn(two, first)).toBe(200);
      expect(await sessionOn(one, second)).toBe(401);
    });

    it('a portfolio deleted on one process is gone from the reads of the other at once', async () => {
      const cookie = await register(one, 'p-delete@example.test');
      const created = await call(one, '/api/portfolios', {
        method: 'POST',
        headers: { cookie },
        body: JSON.stringify({ name: 'Short-lived' }),
      });
      const { id } = (await created.json()) as { id: string };
      const recorded = await call(one, `/api/portfolios/${id}/transactions`, {
        method: 'POST',
        headers: { cookie },
        body: JSON.stringify({
          type: 'deposit',
          amount: '100',
          currency: 'EUR',
          executedAt: '2024-01-02T10:00:00Z',
        }),
      });
      expect(recorded.status).toBe(201);
      // process two reads (and memoises) the cash and the list first
      const cash = await call(two, `/api/cash?portfolioId=${id}`, { headers: { cookie } });
      expect(cash.status).toBe(200);
      expect(await cash.json()).toHaveLength(1);
      expect(await (await call(two, '/api/cash', { headers: { cookie } })).json()).toHaveLength(1);
      const deleted = await call(one, `/api/portfolios/${id}`, {
        method: 'DELETE',
        headers: { cookie },
      });
      expect(deleted.status).toBe(204);
      expect((await call(two, `/api/cash?portfolioId=${id}`, { headers: { cookie } })).status).toBe(
        404,
      );
      expect(await (await call(two, '/api/cash', { headers: { cookie } })).json()).toEqual([]);
      expect(await (await call(two, '/api/portfolios', { headers: { cookie } })).json()).toEqual(
        [],
      );
    });

    it('an account erased on one process is gone on the other at once: sessions, tokens, rows', async () => {
      const email = 'p-erase@example.test';
      const first = await register(one, email);
      const second = await login(two, email);
      const minted = await call(one, '/api/account/tokens', {
        method: 'POST',
        headers: { cookie: first },
        body: JSON.stringify({ name: 'agent' }),
      });
      const { token } = (await minted.json()) as { token: string };
      const listTools = () =>
        call(two, '/api/mcp/user/mcp', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        });
      expect((await listTools()).status).toBe(200);
      expect(await sessionOn(two, second)).toBe(200);
      const { id: userId } = (
        (await (await call(two, '/api/auth/session', { headers: { cookie: second } })).json()) as {
          user: { id: string };
        }
      ).user;

      const erased = await call(one, '/api/account', {
        method: 'DELETE',
        headers: { cookie: first },
        body: JSON.stringify({ password }),
      });
      expect(erased.status).toBe(204);
      await expect.poll(() => sessionOn(two, second), soon).toBe(401);
      await expect.poll(async () => (await listTools()).status, soon).toBe(401);
      expect(await sessionOn(two, first)).toBe(401);
      const db = await createDatabase({ databaseUrl: servers.databaseUrl, pool: { max: 1 } });
      try {
        const { rows } = await sql<{ n: string }>`
        select (select count(*) from users where id = ${userId})
             + (select count(*) from sessions where user_id = ${userId})
             + (select count(*) from personal_access_tokens where user_id = ${userId}) as n`.execute(
          db.db,
        );
        expect(Number(rows[0]?.n)).toBe(0);
      } finally {
        await db.close();
      }
    });
  },
);
