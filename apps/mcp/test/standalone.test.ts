/**
 * The MCP server on its own, as it is deployed: a real `apps/mcp` process beside a real `apps/api`
 * process (both `src/server.ts` through tsx, as `pnpm start` runs them), on one fresh PostgreSQL
 * database. An agent meets it with the official SDK client; what the API does holds there at
 * once: a token revoked through the API is refused, and quotas are counted once for both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  createDatabase,
  type Database,
  type ServerProcess,
  startServerProcess,
} from '@svc/service/testing';
import { TOKEN_SCOPES } from '@svc/use-cases';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const BASE = 'http://127.0.0.1:3998'; // the public address (a load balancer's)
const APPS = resolve(import.meta.dirname, '../..');

/** Starts `apps/<app>/src/server.ts` and waits for its ready line. */
const start = (app: 'api' | 'mcp', env: Record<string, string>): Promise<ServerProcess> =>
  startServerProcess({
    cwd: join(APPS, app),
    env,
    readyLine: app === 'api' ? 'service ready' : 'mcp server ready',
  });

async function stop(server: ServerProcess | undefined): Promise<number | null> {
  return server ? server.stop() : null;
}

describe('the standalone MCP server beside the API, on one PostgreSQL', () => {
  const database = `svc_mcp_${randomBytes(5).toString('hex')}`;
  let admin: Database;
  let api: ServerProcess;
  let mcp: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    admin = await createDatabase({ databaseUrl: serverUrl, pool: { max: 1 } });
    await sql`create database ${sql.id(database)}`.execute(admin.db);
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    dataDir = await mkdtemp(join(tmpdir(), 'svc-mcp-standalone-'));
    const env = {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      BASE_URL: BASE,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SESSION_CACHE_SECONDS: '300',
      FUNDAMENTALS_PROVIDER: 'snapshot',
      FUNDAMENTALS_SNAPSHOT_DIR: join(SHARED, 'fundamentals/raw/companyfacts'),
      QUOTES_PROVIDER: 'none',
      FX_PROVIDER: 'none',
      QUOTA_LIMITS: JSON.stringify({ free: { stock_evaluation: { limit: 3 } } }),
    };
    api = await start('api', env); // migrates the database first
    mcp = await start('mcp', env);
  }, 180_000);

  afterAll(async () => {
    const codes = await Promise.all([stop(api), stop(mcp)]);
    expect(codes).toEqual([0, 0]);
    await sql`drop database if exists ${sql.id(database)} with (force)`.execute(admin.db);
    await admin.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** Signs up through the API and mints a personal access token there. */
  async function agentOf(email: string): Promise<{ cookie: string; id: string; token: string }> {
    const headers = { origin: BASE, 'content-type': 'application/json' };
    const registered = await fetch(`${api.url}/api/auth/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    expect(registered.status).toBe(201);
    const cookie = registered.headers
      .getSetCookie()
      .find((c) => c.startsWith('service_session='))
      ?.split(';')[0] as string;
    const minted = await fetch(`${api.url}/api/account/tokens`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: JSON.stringify({ name: 'agent', scopes: TOKEN_SCOPES }),
    });
    expect(minted.status).toBe(201);
    return { cookie, ...((await minted.json()) as { id: string; token: string }) };
  }

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'standalone-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${mcp.url}/api/mcp/user/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  }

  it('serves the discovery document, the probes and 401 problem+json without a token', async () => {
    const discovery = (await (await fetch(`${mcp.url}/.well-known/mcp.json`)).json()) as {
      endpoint?: string;
    };
    expect(JSON.stringify(discovery)).toContain(`${BASE}/api/mcp/user/mcp`);
    expect((await fetch(`${mcp.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${mcp.url}/readyz`)).status).toBe(200);
    const refused = await fetch(`${mcp.url}/api/mcp/user/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    expect(((await refused.json()) as { code: string }).code).toBe('unauthorized');
  });

  it('answers unknown routes 404 and unsupported methods 405 with Allow, as problem+json', async () => {
    const missing = await fetch(`${mcp.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect(missing.headers.get('x-request-id')).toBeTruthy();
    expect(((await missing.json()) as { code: string }).code).toBe('not_found');
    const wrong = await fetch(`${mcp.url}/healthz`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect(((await wrong.json()) as { code: string }).code).toBe('method_not_allowed');
  });

  it('answers the official client: every tool listed, a read, and a readable failure', async () => {
    const { token } = await agentOf('mcp-client@example.test');
    const client = await connect(token);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'compareEvaluations',
        'generateMoatNarrative',
        'getEvaluationChanges',
        'getEvaluationHistory',
        'getMoatEvaluation',
        'getPortfolioPerformance',
        'getPortfolioXray',
        'listCash',
        'listHoldings',
        'listMoatReports',
        'listPortfolioChanges',
        'listPortfolios',
        'saveMoatReport',
        'screenMoat',
      ]);
      const portfolios = await client.callTool({ name: 'listPortfolios', arguments: {} });
      expect(portfolios.isError).not.toBe(true);
      const failed = await client.callTool({
        name: 'listHoldings',
        arguments: { portfolioId: '00000000-0000-4000-8000-000000000000' },
      });
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent).toBeUndefined();
      const text = (failed.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(JSON.parse(text)).toMatchObject({ code: 'not_found', status: 404 });
    } finally {
      await client.close();
    }
  });

  it('answers malformed and hostile bodies with 400 problem+json, as the API does', async () => {
    const { token } = await agentOf('mcp-hostile@example.test');
    const post = (body: string) =>
      fetch(`${mcp.url}/api/mcp/user/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const call = (args: object) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'screenMoat', arguments: args },
      });
    for (const body of ['{"jsonrpc":', call({ sector: '\u0000' })]) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as { code: string }).code).toBe('validation_failed');
    }
  });

  it('refuses a token revoked through the API at once', async () => {
    const { cookie, id, token } = await agentOf('mcp-revoked@example.test');
    const listTools = () =>
      fetch(`${mcp.url}/api/mcp/user/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await listTools()).status).toBe(200); // now memoised in the MCP process
    const revoked = await fetch(`${api.url}/api/account/tokens/${id}`, {
      method: 'DELETE',
      headers: { origin: BASE, cookie },
    });
    expect(revoked.status).toBe(204);
    await expect
      .poll(async () => (await listTools()).status, { timeout: 3_000, interval: 5 })
      .toBe(401);
  });

  it('counts one quota for both servers: 6 fresh evaluations each way, 3 units, 3 served', async () => {
    const { cookie, token } = await agentOf('mcp-quota@example.test');
    const client = await connect(token);
    try {
      const rest = Array.from({ length: 6 }, () =>
        fetch(`${api.url}/api/stock-evaluation?symbol=COST&fresh=1`, { headers: { cookie } }).then(
          async (res) =>
            res.status === 200 ? 'served' : ((await res.json()) as { code: string }).code,
        ),
      );
      const tools = Array.from({ length: 6 }, () =>
        client
          .callTool({ name: 'getMoatEvaluation', arguments: { symbol: 'COST', fresh: true } })
          .then((result) => {
            if (result.isError !== true) return 'served';
            const text = (result.content as { text: string }[])[0]?.text ?? '{}';
            return (JSON.parse(text) as { code: string }).code;
          }),
      );
      const outcomes = (await Promise.all([...rest, ...tools])).sort();
      expect(outcomes).toEqual([...Array(9).fill('quota_exceeded'), ...Array(3).fill('served')]);
    } finally {
      await client.close();
    }
  });
});
