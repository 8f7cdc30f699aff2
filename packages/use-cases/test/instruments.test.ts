import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createCsvQuoteProvider,
  createEcbFileFxProvider,
  createOpenFigiClient,
} from '@svc/market-data';
import { Holding } from '@svc/portfolio';
import { createRepositories, staticMigrationProvider } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';
import { ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const quotes = createCsvQuoteProvider({ dir: PRICES_DIR });
const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
const now = () => new Date('2024-03-01T22:00:00Z');

/** A local OpenFIGI replaying hand-written answers in the documented `/v3/mapping` shape. */
async function openFigiReplay() {
  const asked: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const jobs = JSON.parse(body) as { idType: string; idValue: string }[];
      asked.push(...jobs.map((j) => j.idValue));
      const answer = jobs.map((job) =>
        job.idValue === 'DE0007164600'
          ? {
              data: [
                {
                  figi: 'BBG000BG5JL6',
                  ticker: 'SAP',
                  name: 'SAP SE',
                  exchCode: 'GY',
                  securityType: 'Common Stock',
                  marketSector: 'Equity',
                },
                {
                  figi: 'BBG000BCMCQ9',
                  ticker: 'SAP',
                  name: 'SAP SE-SPONS ADR',
                  exchCode: 'US',
                  securityType: 'ADR',
                  marketSector: 'Equity',
                },
              ],
            }
          : { warning: 'No identifier found.' },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(engines)('instruments on $name', (engine) => {
  let database: TestDatabase;
  let repos: ReturnType<typeof createRepositories>;

  beforeAll(async () => {
    database = await engine.open({ pool: { connectionTimeoutMillis: 5_000 } });
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  const service = () => createPortfolioService({ db: database.db, quotes, fx, now });
  const newUser = async (label: string) =>
    (await repos.users.create({ email: uniqueEmail(label) })).id;

  it('migration 0019: holdings under a bare ISIN or ticker become instruments, one instrument under two symbols merges, no row is lost, old changes still revert', async () => {
    const migrator = new Migrator({
      db: database.db,
      provider: staticMigrationProvider,
      migrationTableSchema: database.schema ?? 'public',
    });
    // the schema before instruments (0019 down), with rows written then
    expect((await migrator.migrateTo('0016-evaluation-events-and-webhooks')).error).toBeUndefined();
    const userId = await newUser('before-0019');
    const { rows } = await sql<{ id: string }>`
      insert into portfolios (user_id, name) values (${userId}, 'Old') returning id`.execute(
      database.db,
    );
    const portfolioId = rows[0]?.id as string;
    await sql`
      insert into transactions (user_id, portfolio_id, type, symbol, quantity, price, amount, currency, executed_at, name)
      values
        (${userId}, ${portfolioId}, 'deposit', null, null, null, 5000, 'USD', '2024-01-01T00:00:00Z', null),
        (${userId}, ${portfolioId}, 'buy', 'US0378331005', 2, 180, null, 'USD', '2024-01-02T15:00:00Z', 'APPLE INC'),
        (${userId}, ${portfolioId}, 'buy', 'AAPL', 3, 185, null, 'USD', '2024-01-03T15:00:00Z', null),
        (${userId}, ${portfolioId}, 'buy', 'Gold bar 100 g', 1, 1900, null, 'EUR', '2024-01-04T10:00:00Z', null)
    `.execute(database.db);
    // an import change journalled then (migration 0014): the ISIN buy, as its row was
    const change = await sql<{ id: string }>`
      insert into portfolio_changes (user_id, portfolio_id, kind, source, summary, transaction_count)
      values (${userId}, ${portfolioId}, 'import', 'rest', 'Imported 1 transaction(s)', 1) returning id
    `.execute(database.db);
    const changeId = change.rows[0]?.id as string;
    await sql`
      insert into portfolio_change_rows (change_id, transaction_id, after)
      select ${changeId}::uuid, t.id, to_jsonb(t) from transactions t
      where t.portfolio_id = ${portfolioId}::uuid and t.symbol = 'US0378331005'
    `.execute(database.db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const portfolios = service();
    const pass = await portfolios.resolvePendingInstruments();
    expect(pass).toEqual({ rows: 3, portfolios: 1 });
    expect(await portfolios.resolvePendingInstruments()).toEqual({ rows: 0, portfolios: 0 });

    const holdings = await portfolios.listHoldings(userId, { portfolioId });
    expect(holdings.map((h) => [h.symbol, h.quantity])).toEqual([
      ['AAPL', '5'],
      ['Gold bar 100 g', '1'],
    ]);
    const apple = holdings[0];
    // the newest row's word: the ticker in SEC's list (its CIK), the ISIN from the offline file
    expect(apple?.instrument).toEqual({
      isin: 'US0378331005',
      ticker: 'AAPL',
      currency: 'USD',
      kind: 'share',
      cik: '0000320193',
      resolution: 'sec',
    });
    expect(apple?.name).toBe('APPLE INC');
    expect(apple?.lastPrice).not.toBeNull(); // priced now that it has a ticker
    expect(holdings[1]?.instrument).toMatchObject({
      resolution: 'unresolved',
      kind: 'other',
      unresolvedReason: expect.stringContaining('neither an ISIN nor a ticker'),
    });
    for (const h of holdings) expect(Holding.strict().parse(h)).toEqual(h);
    const count = await sql<{ n: number }>`
      select count(*)::int as n from transactions where portfolio_id = ${portfolioId}::uuid`.execute(
      database.db,
    );
    expect(count.rows[0]?.n).toBe(4);

    // the old import still reverts: its row is found as the journal (rewritten alike) left it
    await portfolios.revertChange(userId, portfolioId, changeId);
    const after = await portfolios.listHoldings(userId, { portfolioId });
    expect(after.find((h) => h.symbol === 'AAPL')?.quantity).toBe('3');
  });

  it('the user corrects a resolution: journalled, merged with the holding it names, revertible', async () => {
    const userId = await newUser('assign');
    const portfolios = service();
    const p = await portfolios.createPortfolio(userId, { name: 'Assign' });
    const buy = (symbol: string, quantity: string, day = '02') =>
      portfolios.recordTransaction(userId, p.id, {
        type: 'buy',
        symbol,
        quantity,
        price: '100',
        currency: 'USD',
        executedAt: `2024-01-${day}T15:00:00Z`,
      });
    await buy('JNJ', '2');
    // an ISIN nobody knows offline: kept usable, unresolved
    await buy('US4781601046', '1');
    let holdings = await portfolios.listHoldings(userId, { portfolioId: p.id });
    expect(holdings.find((h) => h.symbol === 'US4781601046')?.instrument.resolution).toBe(
      'unresolved',
    );
    const assigned = await portfolios.assignInstrument(userId, p.id, 'US4781601046', {
      ticker: 'jnj',
      isin: 'US4781601046',
      mic: 'XNYS',
    });
    expect(assigned).toMatchObject({ symbol: 'JNJ', transactionCount: 1 });
    holdings = await portfolios.listHoldings(userId, { portfolioId: p.id });
    expect(holdings.map((h) => [h.symbol, h.quantity])).toEqual([['JNJ', '3']]);
    const changes = await portfolios.listChanges(userId, p.id);
    expect(changes.items[0]).toMatchObject({ kind: 'edit', transactionCount: 1 });
    expect(changes.items[0]?.summary).toContain('US4781601046');
    // the assignment holds for this user's next record of that ISIN
    await buy('US4781601046', '1', '05');
    holdings = await portfolios.listHoldings(userId, { portfolioId: p.id });
    expect(holdings.map((h) => [h.symbol, h.quantity])).toEqual([['JNJ', '4']]);
    expect(holdings[0]?.instrument.resolution).toBe('user');
    // ... and for nobody else's
    const other = await newUser('assign-other');
    const q = await portfolios.createPortfolio(other, { name: 'Other' });
    await portfolios.recordTransaction(other, q.id, {
      type: 'buy',
      symbol: 'US4781601046',
      quantity: '1',
      price: '100',
      currency: 'USD',
      executedAt: '2024-01-02T15:00:00Z',
    });
    expect((await portfolios.listHoldings(other, { portfolioId: q.id }))[0]?.symbol).toBe(
      'US4781601046',
    );
    // reverting the assignment (after the later record) splits the holding back
    await portfolios.revertChange(userId, p.id, assigned.changeId);
    holdings = await portfolios.listHoldings(userId, { portfolioId: p.id });
    expect(holdings.map((h) => [h.symbol, h.quantity])).toEqual([
      ['JNJ', '3'],
      ['US4781601046', '1'],
    ]);
    // a symbol never held, and an assignment without identifiers, are refused
    await expect(
      portfolios.assignInstrument(userId, p.id, 'NOPE', { ticker: 'X' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      portfolios.assignInstrument(userId, p.id, 'JNJ', { kind: 'fund' }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('asks OpenFIGI for what the export and the offline file do not know, once, and caches the answer', async () => {
    const figi = await openFigiReplay();
    try {
      const openFigi = createOpenFigiClient({ baseUrl: figi.url, minIntervalMs: 0 });
      const portfolios = createPortfolioService({ db: database.db, quotes, fx, now, openFigi });
      const userId = await newUser('figi');
      const p = await portfolios.createPortfolio(userId, { name: 'Figi' });
      const record = (symbol: string) =>
        portfolios.recordTransaction(userId, p.id, {
          type: 'buy',
          symbol,
          quantity: '1',
          price: '100',
          currency: 'EUR',
          executedAt: '2024-01-02T15:00:00Z',
        });
      const sap = await record('DE0007164600');
      expect(sap.symbol).toBe('SAP.DE'); // the Xetra listing (EUR), asked by its suffix
      expect(sap.instrument).toEqual({
        isin: 'DE0007164600',
        ticker: 'SAP',
        mic: 'XETR',
        currency: 'EUR',
        name: 'SAP SE',
        kind: 'share',
        resolution: 'openfigi',
      });
      await record('DE0007164600');
      const unknown = await record('XS0000000009');
      expect(unknown.instrument).toMatchObject({ resolution: 'unresolved' });
      // one question per identifier: the second SAP and the cached miss are not asked again
      await record('XS0000000009');
      expect(figi.asked.filter((id) => id === 'DE0007164600')).toHaveLength(1);
      expect(figi.asked.filter((id) => id === 'XS0000000009')).toHaveLength(1);
    } finally {
      await figi.close();
    }
  });
});
