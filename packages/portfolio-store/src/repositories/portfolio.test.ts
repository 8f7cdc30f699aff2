import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { testLedger } from '../test-support/ledger.js';
import { createRepositories, type Repositories } from './index.js';
import type { NewTransaction } from './transactions.js';

describe.each(backends)('portfolio data on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  let ledger: ReturnType<typeof testLedger>;
  const newUser = async () => (await repos.users.create({ email: uniqueEmail() })).id;

  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
    ledger = testLedger(database.db);
  });
  afterAll(() => database.cleanup());

  describe('portfolios', () => {
    it('lists, reads and renames only the owner’s portfolios', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const main = await repos.portfolios.create(alice, { name: 'Main' });
      const usd = await repos.portfolios.create(alice, { name: 'US', baseCurrency: 'usd' });
      await repos.portfolios.create(bob, { name: 'Bob’s' });

      expect(main.baseCurrency).toBe('EUR');
      expect(usd.baseCurrency).toBe('USD');
      expect((await repos.portfolios.list(alice)).map((p) => p.name).sort()).toEqual([
        'Main',
        'US',
      ]);
      expect(await repos.portfolios.get(bob, main.id)).toBeUndefined();
      expect(await repos.portfolios.rename(bob, main.id, 'Hijacked')).toBeUndefined();
      expect((await repos.portfolios.rename(alice, main.id, 'Core'))?.name).toBe('Core');
      expect((await repos.portfolios.get(alice, main.id))?.name).toBe('Core');
      expect(await repos.portfolios.get(alice, 'nope')).toBeUndefined();
    });
  });

  describe('transactions', () => {
    const buy = (day: number, symbol = 'AAPL'): NewTransaction => ({
      type: 'buy',
      symbol,
      quantity: '1.5',
      price: '187.123456789',
      fee: '0.99',
      currency: 'usd',
      executedAt: `2026-01-${String(day).padStart(2, '0')}T10:00:00Z`,
    });

    it('bumps the ledger version in the transaction of every insert, import, update and delete', async () => {
      const user = await newUser();
      const other = await newUser();
      const a = await repos.portfolios.create(user, { name: 'A' });
      const b = await repos.portfolios.create(user, { name: 'B' });
      const version = () => repos.portfolios.ledgerVersion(user, a.id);
      const seen = [await version()];
      await ledger.insert(user, a.id, buy(1));
      seen.push(await version());
      await ledger.importMany(user, a.id, [buy(2), buy(3), buy(4)]);
      seen.push(await version());
      await database.db
        .updateTable('transactions')
        .set({ note: 'edited' })
        .where('portfolio_id', '=', a.id)
        .execute();
      seen.push(await version());
      await database.db.deleteFrom('transactions').where('portfolio_id', '=', a.id).execute();
      seen.push(await version());
      expect(seen.map(Number)).toEqual([0, 1, 2, 3, 4]);
      // a failed import (second row malformed) rolls the bump back with the rows
      await expect(
        ledger.importMany(user, a.id, [buy(5), { ...buy(6), quantity: 'x' }]),
      ).rejects.toMatchObject({ code: 'invalid_input' });
      expect(await version()).toBe('4');
      expect(await repos.portfolios.ledgerVersion(user, b.id)).toBe('0');
      expect(await repos.portfolios.ledgerVersion(other, a.id)).toBeUndefined();
      expect(await repos.portfolios.ledgerVersion(user, 'nope')).toBeUndefined();
    });

    it('keeps decimals exact as strings and refuses another user’s portfolio', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const portfolio = await repos.portfolios.create(alice, { name: 'P' });
      const tx = await ledger.insert(alice, portfolio.id, buy(2));
      expect(tx).toMatchObject({
        quantity: '1.5',
        price: '187.123456789',
        fee: '0.99',
        currency: 'USD',
      });
      expect(tx.executedAt).toBe('2026-01-02T10:00:00.000Z');
      await expect(ledger.insert(bob, portfolio.id, buy(3))).rejects.toMatchObject({
        code: 'not_found',
      });
      expect((await repos.transactions.list(bob)).items).toEqual([]);
      expect((await repos.transactions.list(bob, { portfolioId: portfolio.id })).items).toEqual([]);
    });

    it('pages newest first with a keyset cursor, and filters by portfolio and dates', async () => {
      const user = await newUser();
      const a = await repos.portfolios.create(user, { name: 'A' });
      const b = await repos.portfolios.create(user, { name: 'B' });
      await ledger.importMany(
        user,
        a.id,
        [1, 2, 3, 4, 5].map((d) => buy(d)),
      );
      await ledger.insert(user, b.id, buy(6, 'MSFT'));

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await repos.transactions.list(user, { portfolioId: a.id, limit: 2, cursor });
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((t) => t.executedAt.slice(0, 10)));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(['2026-01-05', '2026-01-04', '2026-01-03', '2026-01-02', '2026-01-01']);

      const all = await repos.transactions.list(user);
      expect(all.items.map((t) => t.symbol)).toEqual([
        'MSFT',
        'AAPL',
        'AAPL',
        'AAPL',
        'AAPL',
        'AAPL',
      ]);
      const window = await repos.transactions.list(user, {
        from: new Date('2026-01-02T00:00:00Z'),
        to: new Date('2026-01-04T00:00:00Z'),
      });
      expect(window.items.map((t) => t.executedAt.slice(0, 10))).toEqual([
        '2026-01-03',
        '2026-01-02',
      ]);
      await expect(repos.transactions.list(user, { cursor: 'garbage' })).rejects.toMatchObject({
        code: 'invalid_input',
      });
      await expect(repos.transactions.list(user, { limit: 101 })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    });

    it('stores the amount of cash entries and the ratio of a split in their own columns', async () => {
      const user = await newUser();
      const portfolio = await repos.portfolios.create(user, { name: 'Cash' });
      const at = '2026-02-01T09:00:00Z';
      const dividend = await ledger.insert(user, portfolio.id, {
        type: 'dividend',
        symbol: 'AAPL',
        amount: '12.345678',
        currency: 'USD',
        executedAt: at,
      });
      const split = await ledger.insert(user, portfolio.id, {
        type: 'split',
        symbol: 'AAPL',
        ratio: '4',
        currency: 'USD',
        executedAt: at,
      });
      expect(dividend).toMatchObject({ amount: '12.345678', ratio: null, price: null });
      expect(split).toMatchObject({ ratio: '4', amount: null, quantity: null });
      const listed = await repos.transactions.list(user, { portfolioId: portfolio.id });
      expect(listed.items.map((t) => [t.type, t.amount, t.ratio]).sort()).toEqual([
        ['dividend', '12.345678', null],
        ['split', null, '4'],
      ]);
      await expect(
        ledger.insert(user, portfolio.id, { ...split, ratio: 'four' }),
      ).rejects.toMatchObject({ code: 'invalid_input' });
    });

    it('imports all rows or none', async () => {
      const user = await newUser();
      const portfolio = await repos.portfolios.create(user, { name: 'Import' });
      const good = [buy(1), buy(2), buy(3)];
      const bad = [...good, { ...buy(4), quantity: 'twelve' }];
      await expect(ledger.importMany(user, portfolio.id, bad)).rejects.toMatchObject({
        code: 'invalid_input',
      });
      expect((await repos.transactions.list(user)).items).toEqual([]);

      const imported = await ledger.importMany(user, portfolio.id, good);
      expect(imported.items).toHaveLength(3);
      const listed = await repos.transactions.list(user);
      expect(listed.items).toHaveLength(3);
      expect(new Set(listed.items.map((t) => t.importBatchId))).toEqual(
        new Set([imported.importBatchId]),
      );
    });

    it('lists the instants as the driver’s Date.toISOString wrote them (UTC, ms truncated)', async () => {
      const user = await newUser();
      const portfolio = await repos.portfolios.create(user, { name: 'Instants' });
      const instants = [
        '2026-03-04T05:06:07.891234+02:00', // microseconds: truncated to the millisecond
        '1969-12-31T23:59:59.999999Z',
        '2000-02-29T00:00:00Z',
      ];
      const inserted = [];
      for (const executedAt of instants) {
        inserted.push(await ledger.insert(user, portfolio.id, { ...buy(1), executedAt }));
      }
      const listed = await repos.transactions.list(user, { portfolioId: portfolio.id });
      const byId = new Map(listed.items.map((t) => [t.id, t.executedAt]));
      // insert answers through the driver's Date (iso), the list through PostgreSQL's to_char
      expect(inserted.map((t) => byId.get(t.id))).toEqual(inserted.map((t) => t.executedAt));
      expect(inserted.map((t) => t.executedAt)).toEqual([
        '2026-03-04T03:06:07.891Z',
        '1969-12-31T23:59:59.999Z',
        '2000-02-29T00:00:00.000Z',
      ]);
    });
  });

  describe('holdings and cash', () => {
    it('replaces a portfolio’s derived rows atomically and scopes reads by user', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const p = await repos.portfolios.create(alice, { name: 'P' });
      const holding = {
        symbol: 'AAPL',
        name: 'Apple Inc.',
        quantity: '10',
        averageCost: '150.25',
        currency: 'USD',
        lastPrice: '190.10',
        marketValue: '1901.00',
        marketValueEur: '1753.51',
        costBasisEur: '1385.94',
        unrealizedPnlEur: '367.57',
        weight: '0.7781',
        valuedAt: '2026-03-01T17:30:00Z',
      };
      const cash = { currency: 'EUR', amount: '500.00', amountEur: '500.00', valuedAt: null };
      await ledger.replaceForPortfolio(alice, p.id, { holdings: [holding], cash: [cash] });
      const stored = await repos.positions.listHoldings(alice, { portfolioId: p.id });
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ ...holding, valuedAt: '2026-03-01T17:30:00.000Z' });
      expect(await repos.positions.listCash(alice)).toMatchObject([cash]);

      await expect(
        ledger.replaceForPortfolio(bob, p.id, { holdings: [], cash: [] }),
      ).rejects.toMatchObject({ code: 'not_found' });
      expect(await repos.positions.listHoldings(bob)).toEqual([]);
      expect(await repos.positions.listHoldings(bob, { portfolioId: p.id })).toEqual([]);

      // A failing replacement (duplicate symbol) leaves the old rows in place.
      await expect(
        ledger.replaceForPortfolio(alice, p.id, {
          holdings: [holding, holding],
          cash: [],
        }),
      ).rejects.toMatchObject({ code: 'conflict' });
      expect(await repos.positions.listHoldings(alice)).toHaveLength(1);

      await ledger.replaceForPortfolio(alice, p.id, { holdings: [], cash: [] });
      expect(await repos.positions.listHoldings(alice)).toEqual([]);
      expect(await repos.positions.listCash(alice)).toEqual([]);
    });
    it('bumps the positions version with every write of holdings or cash, and reads versions in one query', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const a = await repos.portfolios.create(alice, { name: 'A' });
      const b = await repos.portfolios.create(alice, { name: 'B' });
      const holding = {
        symbol: 'MSFT',
        name: null,
        quantity: '3',
        averageCost: '300',
        currency: 'USD',
        lastPrice: null,
        marketValue: null,
        marketValueEur: null,
        costBasisEur: '830.10',
        unrealizedPnlEur: null,
        weight: null,
      };
      const positions = async () =>
        (await repos.portfolios.versions(alice, { portfolioId: a.id }))[0]?.positionsVersion;
      const seen = [await positions()];
      // a first replacement inserts into both tables (its deletes touch no row): two bumps
      await ledger.replaceForPortfolio(alice, a.id, {
        holdings: [holding],
        cash: [{ currency: 'USD', amount: '10', amountEur: null }],
      });
      seen.push(await positions());
      await database.db
        .updateTable('holdings')
        .set({ weight: '1' })
        .where('portfolio_id', '=', a.id)
        .execute();
      seen.push(await positions());
      await database.db
        .updateTable('cash_positions')
        .set({ amount_eur: '9.10' })
        .where('portfolio_id', '=', a.id)
        .execute();
      seen.push(await positions());
      await database.db.deleteFrom('holdings').where('portfolio_id', '=', a.id).execute();
      seen.push(await positions());
      expect(seen.map(Number)).toEqual([0, 2, 3, 4, 5]);
      // replacing existing rows: a delete and an insert on each table
      await ledger.replaceForPortfolio(alice, a.id, { holdings: [holding], cash: [] });
      expect(await positions()).toBe('7');
      // a failed replacement (duplicate symbol) rolls its bumps back with its rows
      await expect(
        ledger.replaceForPortfolio(alice, a.id, {
          holdings: [holding, holding],
          cash: [],
        }),
      ).rejects.toMatchObject({ code: 'conflict' });
      expect(await positions()).toBe('7');

      // a ledger write bumps the ledger version only
      await ledger.insert(alice, b.id, {
        type: 'deposit',
        amount: '5',
        currency: 'EUR',
        executedAt: '2026-01-02T10:00:00Z',
      });
      const all = await repos.portfolios.versions(alice);
      expect(all).toEqual(
        [
          { id: a.id, ledgerVersion: '0', positionsVersion: '7' },
          { id: b.id, ledgerVersion: '1', positionsVersion: '0' },
        ].sort((x, y) => (x.id < y.id ? -1 : 1)),
      );
      // the ownership check: another user's portfolio, a malformed id, a user without portfolios
      expect(await repos.portfolios.versions(bob, { portfolioId: a.id })).toEqual([]);
      expect(await repos.portfolios.versions(alice, { portfolioId: 'nope' })).toEqual([]);
      expect(await repos.portfolios.versions(bob)).toEqual([]);
    });
  });

  describe('FX rates and quotes', () => {
    it('upserts and answers the latest value on or before a date', async () => {
      await repos.marketData.upsertFxRates([
        { base: 'eur', quote: 'usd', date: '2026-01-02', rate: '1.0350' },
        { base: 'EUR', quote: 'USD', date: '2026-01-05', rate: '1.0410' },
      ]);
      await repos.marketData.upsertFxRates([
        { base: 'EUR', quote: 'USD', date: '2026-01-05', rate: '1.0420', source: 'ecb' },
      ]);
      expect(await repos.marketData.latestFxRate('EUR', 'USD', '2026-01-04')).toEqual({
        base: 'EUR',
        quote: 'USD',
        date: '2026-01-02',
        rate: '1.0350',
        source: null,
      });
      expect((await repos.marketData.latestFxRate('EUR', 'USD', '2026-02-01'))?.rate).toBe(
        '1.0420',
      );
      expect(await repos.marketData.latestFxRate('EUR', 'USD', '2025-12-31')).toBeUndefined();

      await repos.marketData.upsertQuotes([
        {
          symbol: 'msft',
          price: '401.5',
          currency: 'USD',
          asOf: '2026-01-02T21:00:00Z',
          source: 't',
        },
        {
          symbol: 'MSFT',
          price: '405.25',
          currency: 'USD',
          asOf: '2026-01-05T21:00:00Z',
          source: 't',
        },
      ]);
      expect((await repos.marketData.latestQuote('MSFT'))?.price).toBe('405.25');
      const older = await repos.marketData.latestQuote('msft', new Date('2026-01-03T00:00:00Z'));
      expect(older).toEqual({
        symbol: 'MSFT',
        price: '401.5',
        currency: 'USD',
        asOf: '2026-01-02T21:00:00.000Z',
        source: 't',
      });
    });
  });
});
