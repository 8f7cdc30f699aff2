import { createCsvQuoteProvider, createEcbFileFxProvider } from '@svc/market-data';
import { createRepositories, type Executor } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';
import { ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';
import { rejection } from './support/rejection.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

const quotes = createCsvQuoteProvider({ dir: PRICES_DIR });
const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
const now = () => new Date('2024-03-01T22:00:00Z');

/** Kysely's plugin interface, as the store's `Executor` takes it. */
type KyselyPlugin = Parameters<Executor['withPlugin']>[0];

/**
 * A Kysely plugin that counts the SELECT statements built on each table: what the memo must not
 * run again. (The version read is a precompiled statement and never passes through here.)
 */
function selectCounter() {
  const counts = new Map<string, number>();
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      if (node.kind === 'SelectQueryNode') {
        for (const from of node.from?.froms ?? []) {
          // a TableNode: { kind, table: { identifier: { name } } }
          const table = (from as { table?: { identifier?: { name?: string } } }).table?.identifier
            ?.name;
          if (from.kind === 'TableNode' && table !== undefined) {
            counts.set(table, (counts.get(table) ?? 0) + 1);
          }
        }
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { plugin, selects: (table: string) => counts.get(table) ?? 0 };
}

describe.each(engines)('memoised portfolio reads on $name', (engine) => {
  let database: TestDatabase;
  let userId: string;
  let portfolioId: string;
  const service = (db: Executor = database.db, readMemoBytes?: number) =>
    createPortfolioService({ db, quotes, fx, now, readMemoBytes });
  const counted = () => {
    const counter = selectCounter();
    return { ...counter, portfolios: service(database.db.withPlugin(counter.plugin)) };
  };

  beforeAll(async () => {
    database = await engine.open({ pool: { connectionTimeoutMillis: 5_000 } });
    const repos = createRepositories(database.db);
    userId = (await repos.users.create({ email: uniqueEmail('memo') })).id;
    const portfolios = service();
    portfolioId = (await portfolios.createPortfolio(userId, { name: 'Memo' })).id;
    const record = (tx: Parameters<typeof portfolios.recordTransaction>[2]) =>
      portfolios.recordTransaction(userId, portfolioId, tx);
    await record({
      type: 'deposit',
      amount: '9000',
      currency: 'USD',
      executedAt: '2024-01-02T09:00:00Z',
    });
    for (const [day, symbol] of [
      ['2024-01-03', 'AAPL'],
      ['2024-01-04', 'MSFT'],
      ['2024-01-05', 'AAPL'],
      ['2024-01-08', 'MSFT'],
    ] as const) {
      await record({
        type: 'buy',
        symbol,
        quantity: '2',
        price: '150',
        currency: 'USD',
        executedAt: `${day}T15:00:00Z`,
      });
    }
  });
  afterAll(() => database.cleanup());

  it('answers a repeat read from the memo: no row query, the same frozen answer, the same JSON as an unmemoised read', async () => {
    const { portfolios, selects } = counted();
    const holdings = await portfolios.listHoldings(userId, { portfolioId });
    const cash = await portfolios.listCash(userId, { portfolioId });
    const page = await portfolios.listTransactions(userId, { portfolioId, limit: 3 });
    const all = await portfolios.listHoldings(userId);
    expect([selects('holdings'), selects('cash_positions'), selects('transactions')]).toEqual([
      2, 1, 1,
    ]);
    expect(holdings.map((h) => h.symbol)).toEqual(['AAPL', 'MSFT']);
    expect(page.items).toHaveLength(3);

    expect(await portfolios.listHoldings(userId, { portfolioId })).toBe(holdings);
    expect(await portfolios.listCash(userId, { portfolioId })).toBe(cash);
    expect(await portfolios.listTransactions(userId, { portfolioId, limit: 3 })).toBe(page);
    expect(await portfolios.listHoldings(userId)).toBe(all);
    expect([selects('holdings'), selects('cash_positions'), selects('transactions')]).toEqual([
      2, 1, 1,
    ]);

    expect(Object.isFrozen(holdings) && Object.isFrozen(holdings[0])).toBe(true);
    expect(Object.isFrozen(page) && Object.isFrozen(page.items[0])).toBe(true);
    const unmemoised = service(database.db, 0);
    expect(JSON.stringify(holdings)).toBe(
      JSON.stringify(await unmemoised.listHoldings(userId, { portfolioId })),
    );
    expect(JSON.stringify(page)).toBe(
      JSON.stringify(await unmemoised.listTransactions(userId, { portfolioId, limit: 3 })),
    );
    expect(JSON.stringify(cash)).toBe(
      JSON.stringify(await unmemoised.listCash(userId, { portfolioId })),
    );
  });

  it('keys a transactions page by its cursor, limit and filters: page 2 is not page 1', async () => {
    const { portfolios, selects } = counted();
    const first = await portfolios.listTransactions(userId, { portfolioId, limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    const second = await portfolios.listTransactions(userId, {
      portfolioId,
      limit: 2,
      cursor: first.nextCursor ?? undefined,
    });
    const wider = await portfolios.listTransactions(userId, { portfolioId, limit: 4 });
    const january4 = await portfolios.listTransactions(userId, {
      portfolioId,
      limit: 2,
      from: '2024-01-04',
      to: '2024-01-04',
    });
    expect(first.items.map((t) => t.executedAt.slice(0, 10))).toEqual(['2024-01-08', '2024-01-05']);
    expect(second.items.map((t) => t.executedAt.slice(0, 10))).toEqual([
      '2024-01-04',
      '2024-01-03',
    ]);
    expect(wider.items.map((t) => t.id)).toEqual(
      [...first.items, ...second.items].map((t) => t.id),
    );
    expect(january4.items.map((t) => t.symbol)).toEqual(['MSFT']);
    expect(selects('transactions')).toBe(4);
    // each page again: from the memo, each its own
    expect(
      await portfolios.listTransactions(userId, {
        portfolioId,
        limit: 2,
        cursor: first.nextCursor ?? undefined,
      }),
    ).toBe(second);
    expect(await portfolios.listTransactions(userId, { portfolioId, limit: 2 })).toBe(first);
    expect(selects('transactions')).toBe(4);
  });

  it('shows a write through another service instance on another pool at once', async () => {
    const other = await database.connectAgain();
    try {
      const { portfolios: here, selects } = counted();
      const there = service(other.db);
      const holdings = await here.listHoldings(userId, { portfolioId });
      const page = await here.listTransactions(userId, { portfolioId });
      const all = await here.listTransactions(userId);
      await there.recordTransaction(userId, portfolioId, {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '1',
        price: '160',
        currency: 'USD',
        executedAt: '2024-02-01T15:00:00Z',
      });
      const heldAfter = await here.listHoldings(userId, { portfolioId });
      expect(heldAfter.find((h) => h.symbol === 'AAPL')?.quantity).toBe('5');
      expect(holdings.find((h) => h.symbol === 'AAPL')?.quantity).toBe('4');
      const pageAfter = await here.listTransactions(userId, { portfolioId });
      expect(pageAfter.items).toHaveLength(page.items.length + 1);
      expect(pageAfter.items[0]).toMatchObject({ symbol: 'AAPL', quantity: '1', price: '160' });
      expect((await here.listTransactions(userId)).items).toEqual(pageAfter.items);
      expect(all.items).toEqual(page.items);
      expect([selects('holdings'), selects('transactions')]).toEqual([2, 4]);
      // the other instance answers the same
      expect(await there.listHoldings(userId, { portfolioId })).toEqual(heldAfter);
    } finally {
      await other.close();
    }
  });

  it('shows a raw SQL update of a holding, a cash position or a transaction at once', async () => {
    const portfolios = service();
    const before = await portfolios.listHoldings(userId, { portfolioId });
    const cashBefore = await portfolios.listCash(userId, { portfolioId });
    const pageBefore = await portfolios.listTransactions(userId, { portfolioId, limit: 50 });
    expect(await portfolios.listHoldings(userId, { portfolioId })).toBe(before);

    await database.db
      .updateTable('holdings')
      .set({ name: 'Microsoft Corporation' })
      .where('portfolio_id', '=', portfolioId)
      .where('symbol', '=', 'MSFT')
      .execute();
    const renamed = await portfolios.listHoldings(userId, { portfolioId });
    expect(renamed.find((h) => h.symbol === 'MSFT')?.name).toBe('Microsoft Corporation');
    expect(await portfolios.listHoldings(userId)).toEqual(renamed);

    await database.db
      .updateTable('cash_positions')
      .set({ amount: '1234.5' })
      .where('portfolio_id', '=', portfolioId)
      .execute();
    expect((await portfolios.listCash(userId, { portfolioId }))[0]?.amount).toBe('1234.50');
    expect(cashBefore[0]?.amount).not.toBe('1234.50');

    const newest = pageBefore.items[0];
    await database.db
      .updateTable('transactions')
      .set({ note: 'edited by hand' })
      .where('id', '=', newest?.id ?? '')
      .execute();
    const pageAfter = await portfolios.listTransactions(userId, { portfolioId, limit: 50 });
    expect(pageAfter.items[0]).toEqual({ ...newest, note: 'edited by hand' });

    await database.db.deleteFrom('holdings').where('portfolio_id', '=', portfolioId).execute();
    expect(await portfolios.listHoldings(userId, { portfolioId })).toEqual([]);
    await portfolios.revalue(userId, portfolioId);
    expect((await portfolios.listHoldings(userId, { portfolioId })).map((h) => h.symbol)).toEqual([
      'AAPL',
      'MSFT',
    ]);
  });

  it("answers not_found for another user's portfolio, whatever the owner's reads memoised", async () => {
    const portfolios = service();
    const other = (await createRepositories(database.db).users.create({ email: uniqueEmail('b') }))
      .id;
    await portfolios.listHoldings(userId, { portfolioId });
    await portfolios.listCash(userId, { portfolioId });
    await portfolios.listTransactions(userId, { portfolioId });
    const attempts = [
      () => portfolios.listHoldings(other, { portfolioId }),
      () => portfolios.listCash(other, { portfolioId }),
      () => portfolios.listTransactions(other, { portfolioId }),
      () => portfolios.listTransactions(other, { portfolioId, cursor: 'not-a-cursor' }),
      () => portfolios.listHoldings(userId, { portfolioId: 'not-a-uuid' }),
    ];
    for (const attempt of attempts) expect((await rejection(attempt())).code).toBe('not_found');
    expect(await portfolios.listHoldings(other)).toEqual([]);
    expect((await portfolios.listTransactions(other)).items).toEqual([]);
    // a malformed cursor of the owner is still a validation problem, and is not memoised
    const malformed = await rejection(
      portfolios.listTransactions(userId, { portfolioId, cursor: 'not-a-cursor' }),
    );
    expect(malformed.code).toBe('validation_failed');
    // the other user's first portfolio changes what "all of mine" covers
    const theirs = await portfolios.createPortfolio(other, { name: 'Theirs' });
    await portfolios.recordTransaction(other, theirs.id, {
      type: 'deposit',
      amount: '10',
      currency: 'EUR',
      executedAt: '2024-01-02T09:00:00Z',
    });
    expect((await portfolios.listTransactions(other)).items).toHaveLength(1);
    expect((await portfolios.listCash(other)).map((c) => c.amount)).toEqual(['10.00']);
  });
});
