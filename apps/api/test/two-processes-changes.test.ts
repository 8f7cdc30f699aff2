/**
 * Issue 30: two real server processes (`src/server.ts`) on one fresh PostgreSQL database. A
 * correction made on one (an edit deep in the past, a delete, a revert of an import) is seen by
 * the other's next read at once: holdings, cash, transactions, performance, the changes; and two
 * writers on the two processes serialise on the portfolio.
 */
import type { ServerProcess } from '@svc/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers.js';
import { sharedData } from './shared-data.js';
import { startTwoServers, type TwoServers } from './two-servers.js';

describe.runIf(ENGINES.includes('postgres'))('corrections seen by two server processes', () => {
  let servers: TwoServers;
  let one: ServerProcess;
  let two: ServerProcess;
  let cookie: string;

  beforeAll(async () => {
    servers = await startTwoServers({
      name: 'two_changes',
      base: 'http://127.0.0.1:3998',
      env: {
        QUOTES_PROVIDER: 'csv',
        PRICES_DIR: sharedData('prices'),
        FX_PROVIDER: 'ecb-file',
        ECB_FX_FILE: sharedData('fx/eurofxref-hist.csv'),
      },
    });
    ({ one, two } = servers);
    cookie = await servers.register(one, 'two-changes@example.test');
  }, 120_000);

  afterAll(async () => {
    expect(await servers?.close()).toEqual([0, 0]);
  }, 60_000);

  const call = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    servers.call(server, path, {
      ...init,
      headers: { ...(cookie ? { cookie } : {}), ...init.headers },
    });
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
