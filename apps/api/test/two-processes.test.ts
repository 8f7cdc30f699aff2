/**
 * Issue 10: two real server processes (`src/server.ts`, as `pnpm start` runs it) behind one base
 * URL, on one fresh PostgreSQL database, started at the same time (both migrate it). What one
 * process does must hold in the other at once: revocations, the failed-login throttle and quotas.
 */
import type { ServerProcess } from '@svc/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers.js';
import { startTwoServers, type TwoServers } from './two-servers.js';

describe.runIf(ENGINES.includes('postgres'))('two server processes on one PostgreSQL', () => {
  let servers: TwoServers;
  let one: ServerProcess;
  let two: ServerProcess;

  beforeAll(async () => {
    servers = await startTwoServers({
      name: 'two',
      base: 'http://127.0.0.1:3999',
      env: {
        SESSION_CACHE_SECONDS: '300',
        QUOTA_LIMITS: JSON.stringify({ free: { stock_evaluation: { limit: 3 } } }),
      },
    });
    ({ one, two } = servers);
  }, 120_000);

  afterAll(async () => {
    expect(await servers?.close()).toEqual([0, 0]);
  }, 60_000);

  const call = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    servers.call(server, path, init);
  const register = (server: ServerProcess, email: string) => servers.register(server, email);

  it('a logout on one process is refused by the other at once', async () => {
    const cookie = await register(one, 'p-logout@example.test');
    expect((await call(two, '/api/auth/session', { headers: { cookie } })).status).toBe(200);
    expect(
      (await call(one, '/api/auth/logout', { method: 'POST', headers: { cookie } })).status,
    ).toBe(204);
    await expect
      .poll(async () => (await call(two, '/api/auth/session', { headers: { cookie } })).status, {
        timeout: 3_000,
        interval: 5,
      })
      .toBe(401);
  });

  it('a token revoked on one process is refused by the other at once', async () => {
    const cookie = await register(one, 'p-token@example.test');
    const minted = await call(one, '/api/account/tokens', {
      method: 'POST',
      headers: { cookie },
      body: JSON.stringify({ name: 'agent' }),
    });
    expect(minted.status).toBe(201);
    const { id, token } = (await minted.json()) as { id: string; token: string };
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
    const revoked = await call(one, `/api/account/tokens/${id}`, {
      method: 'DELETE',
      headers: { cookie },
    });
    expect(revoked.status).toBe(204);
    await expect
      .poll(async () => (await listTools()).status, { timeout: 3_000, interval: 5 })
      .toBe(401);
    expect((await listTools()).headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('shares the failed-login throttle between the processes', async () => {
    await register(two, 'p-throttle@example.test');
    const login = (server: ServerProcess, password: string) =>
      call(server, '/api/auth/login', {
        method: 'POST',
        body: JSON.stringify({ email: 'p-throttle@example.test', password }),
      });
    for (let i = 0; i < 5; i++) expect((await login(i % 2 ? two : one, 'nope')).status).toBe(401);
    const refused = await login(one, 'correct horse battery');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('counts quotas exactly across the processes: 12 fresh evaluations, 3 units, 3 served', async () => {
    const cookie = await register(one, 'p-quota@example.test');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(i % 2 ? two : one, '/api/stock-evaluation?symbol=COST&fresh=1', {
          headers: { cookie },
        }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
    const refusal = (await answers.find((res) => res.status === 429)?.json()) as {
      quota: { used: number; limit: number };
    };
    expect(refusal.quota).toMatchObject({ used: 3, limit: 3 });
  });
});
