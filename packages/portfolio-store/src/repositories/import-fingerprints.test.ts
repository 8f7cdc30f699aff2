import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../errors.js';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { testLedger } from '../test-support/ledger.js';
import { createRepositories, type Repositories } from './index.js';
import type { NewTransaction } from './transactions.js';

describe.each(backends)(
  'import fingerprints and per-currency holdings (0003) on $name',
  (backend) => {
    let database: TestDatabase;
    let repos: Repositories;
    let ledger: ReturnType<typeof testLedger>;

    beforeAll(async () => {
      database = await backend.open();
      repos = createRepositories(database.db);
      ledger = testLedger(database.db);
    });
    afterAll(() => database.cleanup());

    const deposit = (fingerprint: string | null, name?: string): NewTransaction => ({
      type: 'deposit',
      amount: '10',
      currency: 'EUR',
      executedAt: '2024-01-01T00:00:00Z',
      fingerprint,
      ...(name ? { symbol: 'IE00B3RBWM25', name } : {}),
    });

    it('refuses a fingerprint twice in one portfolio, allows it in another, and finds the stored ones', async () => {
      const user = (await repos.users.create({ email: uniqueEmail() })).id;
      const a = await repos.portfolios.create(user, { name: 'A' });
      const b = await repos.portfolios.create(user, { name: 'B' });
      const [stored] = (await ledger.importMany(user, a.id, [deposit('f1', 'VANGUARD FTSE AW')]))
        .items;
      expect(stored).toMatchObject({ fingerprint: 'f1', name: 'VANGUARD FTSE AW' });
      const twice = await ledger
        .importMany(user, a.id, [deposit('f2'), deposit('f1')])
        .catch((e: unknown) => e);
      expect(twice).toBeInstanceOf(StoreError);
      expect((twice as StoreError).code).toBe('conflict');
      // all or nothing: f2 was not kept
      expect(await repos.transactions.presentFingerprints(user, a.id, ['f1', 'f2', 'f3'])).toEqual(
        new Set(['f1']),
      );
      await ledger.importMany(user, b.id, [deposit('f1')]);
      // rows without a fingerprint (recorded by hand) may repeat
      await ledger.importMany(user, a.id, [deposit(null), deposit(null)]);
      expect((await repos.transactions.listAll(user, a.id)).length).toBe(3);
      const other = (await repos.users.create({ email: uniqueEmail() })).id;
      expect(await repos.transactions.presentFingerprints(other, a.id, ['f1'])).toEqual(new Set());
    });

    it('stores one symbol in two currencies, with the price and rate dates and the stale flag', async () => {
      const user = (await repos.users.create({ email: uniqueEmail() })).id;
      const p = await repos.portfolios.create(user, { name: 'TSLA' });
      const holding = (currency: string) => ({
        symbol: 'TSLA',
        name: 'Tesla',
        quantity: '1',
        averageCost: '100',
        currency,
        lastPrice: null,
        marketValue: null,
        marketValueEur: null,
        costBasisEur: '90',
        unrealizedPnlEur: null,
        weight: null,
        valuedAt: '2024-03-01T22:00:00Z',
        priceAsOf: '2024-03-01T00:00:00Z',
        fxAsOf: '2024-03-01',
        stale: true,
        realizedPnlEur: '1.5',
      });
      const stored = await ledger.replaceForPortfolio(user, p.id, {
        holdings: [holding('USD'), holding('EUR')],
        cash: [{ currency: 'USD', amount: '5', amountEur: '4.6', fxAsOf: '2024-03-01' }],
      });
      expect(stored.holdings.map((h) => h.currency).sort()).toEqual(['EUR', 'USD']);
      const listed = await repos.positions.listHoldings(user, { portfolioId: p.id });
      expect(listed.map((h) => h.currency)).toEqual(['EUR', 'USD']);
      expect(listed[0]).toMatchObject({
        priceAsOf: '2024-03-01T00:00:00.000Z',
        fxAsOf: '2024-03-01',
        stale: true,
        realizedPnlEur: '1.5',
      });
      expect((await repos.positions.listCash(user, { portfolioId: p.id }))[0]?.fxAsOf).toBe(
        '2024-03-01',
      );
      const again = await ledger
        .replaceForPortfolio(user, p.id, { holdings: [holding('USD'), holding('USD')], cash: [] })
        .catch((e: unknown) => e);
      expect((again as StoreError).code).toBe('conflict');
    });
  },
);
