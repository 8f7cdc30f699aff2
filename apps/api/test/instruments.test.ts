/**
 * Issue 38: holdings and transactions name their instrument; a Trading 212 export's US shares
 * resolve to their tickers; the user corrects a resolution through REST (journalled, revertible),
 * on PostgreSQL and PGlite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InstrumentAssignmentResult } from '@svc/schemas';
import { Holding, Transaction } from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { ENGINES } from './helpers.js';
import { portfolioFixture } from './portfolio-fixture.js';
import { SHARED_DATA_DIR } from './shared-data.js';

const T212 = readFileSync(
  join(SHARED_DATA_DIR, 'broker-exports', 'export-to-ghostfolio', 'trading212-export.csv'),
  'utf8',
);

describe.each(ENGINES)('instruments over REST on %s', (engine) => {
  const fx = portfolioFixture(engine, 'instruments');
  const { call } = fx;
  const holdings = async (id: string) => {
    const res = await call(fx.alice, 'GET', `/api/holdings?portfolioId=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as unknown[]).map((h) => Holding.strict().parse(h));
  };

  it("imports Trading 212's US shares under their tickers, and the user reassigns one", async () => {
    const { id } = await fx.createPortfolio(fx.alice, 'T212');
    await fx.importCsv(fx.alice, id, T212);
    const held = await holdings(id);
    const csco = held.find((h) => h.symbol === 'CSCO');
    expect(csco?.instrument).toMatchObject({
      isin: 'US17275R1023',
      ticker: 'CSCO',
      kind: 'share',
      cik: '0000858877',
      resolution: 'export',
    });
    const txs = await call(fx.alice, 'GET', `/api/transactions?portfolioId=${id}&limit=100`);
    const buy = (txs.json().items as unknown[])
      .map((t) => Transaction.parse(t))
      .find((t) => t.symbol === 'VICI' && t.type === 'buy');
    expect(buy?.instrument).toMatchObject({ isin: 'US9256521090', ticker: 'VICI' });

    // Bob cannot touch Alice's portfolio
    const theirs = await call(fx.bob, 'PUT', `/api/portfolios/${id}/instruments/ASTS`, {
      ticker: 'X',
    });
    expect(theirs.statusCode).toBe(404);
    // a malformed assignment is a field problem
    const bad = await call(fx.alice, 'PUT', `/api/portfolios/${id}/instruments/ASTS`, {
      mic: 'NASDAQ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');

    // Alice says ASTS is listed on Nasdaq under the ISIN of its class A shares
    const res = await call(fx.alice, 'PUT', `/api/portfolios/${id}/instruments/ASTS`, {
      ticker: 'ASTS',
      mic: 'XNAS',
      isin: 'US00217D1000',
      kind: 'share',
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = InstrumentAssignmentResult.parse(res.json());
    expect(result).toMatchObject({ symbol: 'ASTS', transactionCount: 1 });
    expect(result.instrument).toMatchObject({ mic: 'XNAS', resolution: 'user' });
    expect((await holdings(id)).find((h) => h.symbol === 'ASTS')?.instrument.resolution).toBe(
      'user',
    );

    // and takes it back
    const reverted = await call(
      fx.alice,
      'POST',
      `/api/portfolios/${id}/changes/${result.changeId}/revert`,
    );
    expect(reverted.statusCode, reverted.body).toBe(201);
    expect((await holdings(id)).find((h) => h.symbol === 'ASTS')?.instrument.resolution).toBe(
      'export',
    );
  });
});
