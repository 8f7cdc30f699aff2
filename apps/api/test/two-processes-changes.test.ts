/**
 * Issue 30: two real server processes (`src/server.ts`) on one fresh PostgreSQL database. A
 * correction made on one (an edit deep in the past, a delete, a revert of an import) is seen by
 * the other's next read at once: holdings, cash, transactions, performance, the changes; and two
 * writers on the two processes serialise on the portfolio.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  createDatabase,
  type Database,
  type ServerProcess,
  startServerProcess,
} from '@svc/service/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers.js';
import { COMPANYFACTS_DIR, sharedData } from './shared-data.js';

const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const BASE = 'http://127.0.0.1:3998';
const API_DIR = resolve(import.meta.dirname, '..');

describe.runIf(ENGINES.includes('postgres'))('corrections seen by two server processes', () => {
  const database = `svc_two_changes_${randomBytes(5).toString('hex')}`;
  let admin: Database;
  let one: ServerProcess;
  let two: ServerProcess;
  let dataDir: string;
  let cookie: string;

  beforeAll(async () => {
    admin = await createDatabase({ databaseUrl: serverUrl, pool: { max: 1 } });
    await sql`create database ${sql.id(database)}`.execute(admin.db);
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    dataDir = await mkdtemp(join(tmpdir(), 'svc-two-changes-'));
    const env = {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      BASE_URL: BASE,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FUNDAMENTALS_PROVIDER: 'snapshot',
      FUNDAMENTALS_SNAPSHOT_DIR: COMPANYFACTS_DIR,
      QUOTES_PROVIDER: 'csv',
      PRICES_DIR: sharedData('prices'),
      FX_PROVIDER: 'ecb-file',
      ECB_FX_FILE: sharedData('fx/eurofxref-hist.csv'),
    };
    const start = () =>
      startServerProcess({ cwd: API_DIR, env, readyLine: 'service ready', timeoutMs: 60_000 });
    [one, two] = await Promise.all([start(), start()]);
    const registered = await call(one, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({
        email: 'two-changes@example.test',
        password: 'correct horse battery',
      }),
    });
    expect(registered.status).toBe(201);
    const set = registered.headers.getSetCookie().find((c) => c.startsWith('service_session='));
    cookie = (set ?? '').split(';')[0] as string;
  }, 120_000);

  afterAll(async () => {
    const codes = await Promise.all([one?.stop(), two?.stop()]);
    expect(codes).toEqual([0, 0]);
    await sql`drop database if exists ${sql.id(database)} with (force)`.execute(admin.db);
    await admin.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  function call(server: ServerProcess, path: string, init: RequestInit = {}) {
    return fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        origin: BASE,
        ...(cookie ? { cookie } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
    });
  }
  const json = async (server: ServerProcess, path: string) => {
    const res = await call(server, path);
    expect(res.status, path).toBe(200);
    return res.json() as Promise<Record<string, unknown> & { items?: unknown[] }>;
  };
  const holdings = async (server: ServerProcess, id: string) =>
    Object.fromEntries(
      (
        (await json(server, `/api/holdings?portfolioId=${id}`)) as unknown as {
          symbol: string;
          quantity: string;
        }[]
      ).map((h) => [h.symbol, h.quantity]),
    );

  it('an edit, a delete and a revert on one process show on the other at once', async () => {
    const created = await call(one, '/api/portfolios', {
      method: 'POST',
      body: JSON.stringify({ name: 'Shared' }),
    });
    const { id } = (await created.json()) as { id: string };
    const buy = await call(one, `/api/portfolios/${id}/transactions`, {
      method: 'POST',
      body: JSON.stringify({
        type: 'buy',
        symbol: 'AAPL',
        quantity: '10',
        price: '130',
        currency: 'USD',
        executedAt: '2021-01-05T20:00:00Z',
      }),
    });
    const bought = (await buy.json()) as { id: string };
    // both processes have read (and memoised) the holdings, transactions and performance
    for (const server of [one, two]) {
      expect(await holdings(server, id)).toEqual({ AAPL: '10' });
      await json(server, `/api/transactions?portfolioId=${id}`);
      await json(server, `/api/portfolios/${id}/performance`);
    }
    const before = await json(two, `/api/portfolios/${id}/performance`);

    const edited = await call(one, `/api/portfolios/${id}/transactions/${bought.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ quantity: '12' }),
    });
    expect(edited.status).toBe(200);
    expect(await holdings(two, id)).toEqual({ AAPL: '12' });
    const page = await json(two, `/api/transactions?portfolioId=${id}`);
    expect(page.items).toMatchObject([{ id: bought.id, quantity: '12' }]);
    const after = await json(two, `/api/portfolios/${id}/performance`);
    expect(after.holdings).not.toEqual(before.holdings);
    const changes = await json(two, `/api/portfolios/${id}/changes`);
    expect(changes.items).toMatchObject([{ kind: 'edit' }, { kind: 'record' }]);

    // an import on the second process, reverted on the first while the second imports again
    const csv = [
      'Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note',
      '04-01-2022,KO,YAHOO,USD,60,5,buy,0,',
    ].join('\n');
    const otherCsv = [
      'Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note',
      '05-01-2022,PG,YAHOO,USD,160,3,buy,0,',
    ].join('\n');
    const importOn = (server: ServerProcess, text: string) =>
      call(server, `/api/portfolios/${id}/import`, {
        method: 'POST',
        body: text,
        headers: { 'content-type': 'text/csv' },
      });
    expect((await importOn(two, csv)).status).toBe(201);
    const importChange = (
      (await json(one, `/api/portfolios/${id}/changes?limit=1`)).items as {
        id: string;
        kind: string;
      }[]
    )[0];
    expect(importChange?.kind).toBe('import');
    const [reverted, imported] = await Promise.all([
      call(one, `/api/portfolios/${id}/changes/${importChange?.id}/revert`, { method: 'POST' }),
      importOn(two, otherCsv),
    ]);
    expect(reverted.status).toBe(201);
    expect(imported.status).toBe(201);
    for (const server of [one, two]) {
      expect(await holdings(server, id)).toEqual({ AAPL: '12', PG: '3' });
    }

    // a delete on the second, seen by the first
    expect(
      (await call(two, `/api/portfolios/${id}/transactions/${bought.id}`, { method: 'DELETE' }))
        .status,
    ).toBe(204);
    expect(await holdings(one, id)).toEqual({ PG: '3' });
    const perf = await json(one, `/api/portfolios/${id}/performance`);
    expect((perf.holdings as { symbol: string }[]).map((h) => h.symbol)).toEqual(['PG']);
  });
});
