/**
 * Issue 30: reads follow a correction at once. A service that cached a portfolio's timeline sees
 * an edit deep in the past, a delete and a revert on its next read, and answers exactly what a
 * fresh service (nothing cached) computes from the same ledger, although it reuses the closes and
 * rates it gathered before the write.
 */
import { createCsvQuoteProvider, createEcbFileFxProvider } from '@svc/market-data';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';
import { ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const prices = createCsvQuoteProvider({ dir: PRICES_DIR });
const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
const now = () => new Date('2024-01-05T22:00:00Z');

describe.each(engines)('performance after corrections on $name', (engine) => {
  let database: TestDatabase;
  const service = () =>
    createPortfolioService({ db: database.db, quotes: prices, fx, history: prices, now });

  beforeAll(async () => {
    database = await engine.open({ pool: { connectionTimeoutMillis: 5_000 } });
  });
  afterAll(() => database.cleanup());

  it('answers after each write what a fresh service computes', async () => {
    const userId = (await createRepositories(database.db).users.create({ email: uniqueEmail() }))
      .id;
    const cached = service();
    const { id } = await cached.createPortfolio(userId, { name: 'Corrections' });
    const record = (tx: Parameters<typeof cached.recordTransaction>[2]) =>
      cached.recordTransaction(userId, id, tx);
    await record({
      type: 'deposit',
      amount: '9000',
      currency: 'EUR',
      executedAt: '2021-01-04T09:00:00Z',
    });
    const first = await record({
      type: 'buy',
      symbol: 'AAPL',
      quantity: '10',
      price: '130',
      currency: 'USD',
      executedAt: '2021-01-05T20:00:00Z',
    });
    const later = await record({
      type: 'buy',
      symbol: 'KO',
      quantity: '20',
      price: '50',
      currency: 'USD',
      executedAt: '2022-06-01T20:00:00Z',
    });
    const figures = async () => {
      const [mine, fresh] = await Promise.all([
        cached.getPerformance(userId, id, { series: 'monthly' }),
        service().getPerformance(userId, id, { series: 'monthly' }),
      ]);
      const { computedAt: _a, ...kept } = mine;
      const { computedAt: _b, ...computed } = fresh;
      expect(kept).toEqual(computed);
      return kept;
    };
    const before = await figures();
    await cached.editTransaction(userId, id, first.id, { quantity: '12', price: '131.5' });
    const edited = await figures();
    expect(edited.netFlowsEur).toBe(before.netFlowsEur); // a trade moves no external flow
    // the holding's own flows follow the edited purchase
    const aapl = (f: typeof before) => f.holdings.find((h) => h.symbol === 'AAPL')?.netFlowsEur;
    expect(aapl(edited)).not.toBe(aapl(before));
    await cached.deleteTransaction(userId, id, later.id);
    const deleted = await figures();
    expect(deleted.holdings.map((h) => h.symbol)).toEqual(['AAPL']);
    const [deletion] = (await cached.listChanges(userId, id)).items;
    await cached.revertChange(userId, id, deletion?.id ?? '');
    const restored = await figures();
    expect(restored).toEqual(edited);
    // a write outside the journal (raw SQL): the next read reads the ledger whole
    await database.db
      .updateTable('transactions')
      .set({ quantity: '14' })
      .where('id', '=', first.id)
      .execute();
    const raw = await figures();
    expect(aapl(raw)).not.toBe(aapl(restored));
    // and the journal's next write patches that ledger again
    await cached.editTransaction(userId, id, first.id, { quantity: '12' });
    expect(aapl(await figures())).toBe(aapl(restored));
  });
});
