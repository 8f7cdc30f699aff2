import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createCsvQuoteProvider,
  createEcbFileFxProvider,
  MarketDataError,
  type QuoteProvider,
} from '@svc/market-data';
import { CashPosition, Holding, Transaction } from '@svc/portfolio';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsinTable } from '../src/portfolio/isin-symbols.js';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';
import { RevaluationResult, TransactionPage } from '../src/portfolio/schemas.js';
import { BROKER_EXPORTS_DIR, ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';
import { rejection } from './support/rejection.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

// ---- real offline providers on the shared data ----
const quotes = createCsvQuoteProvider({ dir: PRICES_DIR });
const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
const readExport = (path: string) => readFileSync(join(BROKER_EXPORTS_DIR, path), 'utf8');

/** A clock the tests move. */
function clock(iso: string) {
  let current = new Date(iso);
  return { now: () => current, set: (next: string) => (current = new Date(next)) };
}

describe.each(engines)('portfolio flows on $name', (engine) => {
  let database: TestDatabase;
  let repos: ReturnType<typeof createRepositories>;
  const time = clock('2024-03-01T22:00:00Z');

  beforeAll(async () => {
    database = await engine.open({ pool: { connectionTimeoutMillis: 5_000 } });
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  const service = (overrides: { quotes?: QuoteProvider | null } = {}) =>
    createPortfolioService({
      db: database.db,
      quotes: overrides.quotes === undefined ? quotes : overrides.quotes,
      fx,
      now: time.now,
    });

  const newUser = async (label: string) =>
    (await repos.users.create({ email: uniqueEmail(label) })).id;

  /** Deposit 3000 USD, buy 10 AAPL @ 150 + fee 1, buy 5 AAPL @ 170. */
  async function aaplPortfolio(userId: string) {
    const portfolios = service();
    const portfolio = await portfolios.createPortfolio(userId, { name: '  Main  ' });
    const record = (tx: Parameters<typeof portfolios.recordTransaction>[2]) =>
      portfolios.recordTransaction(userId, portfolio.id, tx);
    await record({
      type: 'deposit',
      amount: '3000',
      currency: 'USD',
      executedAt: '2024-01-02T09:00:00Z',
    });
    await record({
      type: 'buy',
      symbol: 'AAPL',
      quantity: '10',
      price: '150',
      fee: '1',
      currency: 'USD',
      executedAt: '2024-01-02T15:00:00Z',
    });
    await record({
      type: 'buy',
      symbol: 'AAPL',
      quantity: '5',
      price: '170',
      currency: 'USD',
      executedAt: '2024-02-01T15:00:00Z',
    });
    return { portfolios, portfolio };
  }

  it('creates portfolios (trimmed name, EUR default) and renames them', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('create');
    const portfolios = service();
    const created = await portfolios.createPortfolio(userId, { name: '  Main  ' });
    expect(created).toMatchObject({ name: 'Main', baseCurrency: 'EUR' });
    const usd = await portfolios.createPortfolio(userId, { name: 'US', baseCurrency: 'USD' });
    expect(usd.baseCurrency).toBe('USD');
    const renamed = await portfolios.renamePortfolio(userId, created.id, 'Core');
    expect(renamed).toMatchObject({ id: created.id, name: 'Core' });
    expect((await portfolios.listPortfolios(userId)).map((p) => p.name)).toEqual(['Core', 'US']);

    const empty = await rejection(portfolios.createPortfolio(userId, { name: '   ' }));
    expect(empty.code).toBe('validation_failed');
    expect(empty.errors).toEqual([{ path: 'name', message: expect.any(String) }]);
    const currency = await rejection(
      portfolios.createPortfolio(userId, { name: 'x', baseCurrency: 'usd' }),
    );
    expect(currency.errors.map((e) => e.path)).toEqual(['baseCurrency']);
  });

  it('values AAPL bought in USD at the close and the ECB rate of the valuation day', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('value');
    const { portfolios, portfolio } = await aaplPortfolio(userId);

    const [holding, ...others] = await portfolios.listHoldings(userId, {
      portfolioId: portfolio.id,
    });
    expect(others).toEqual([]);
    expect(Holding.parse(holding)).toEqual(holding);
    // AAPL close 2024-03-01 (yahoo_daily_2000_2024-03/AAPL.csv): 179.660004 → 179.66;
    // ECB 2024-03-01: 1 EUR = 1.0813 USD (fx/eurofxref-hist.csv).
    // quantity 10 + 5 = 15; cost 10 × 150 + 1 + 5 × 170 = 2351; average 2351 / 15 = 156.7333…
    // marketValue 15 × 179.66 = 2694.9 USD; in EUR 2694.9 / 1.0813 = 2492.277813742717…
    // costBasisEur at each purchase day's rate (ECB 2024-01-02 1.0956, 2024-02-01 1.0814):
    //   1501 / 1.0956 + 850 / 1.0814 = 1370.0255567725 + 786.0181246532 = 2156.0436814258
    //   (at today's rate it would be 2174.23: the dollar's rise since is part of the P&L)
    // P&L 2492.2778137427 − 2156.0436814258 = 336.2341323169; money at 2 places at the API
    // cash 3000 − 2351 = 649 USD = 649 / 1.0813 = 600.203458799593… EUR
    // weight 2694.9 / (2694.9 + 649) = 0.805915248661… → 0.805915
    expect(holding).toMatchObject({
      portfolioId: portfolio.id,
      symbol: 'AAPL',
      name: 'AAPL',
      quantity: '15',
      averageCost: '156.7333333333',
      currency: 'USD',
      lastPrice: '179.66',
      marketValue: '2694.90',
      marketValueEur: '2492.28',
      costBasisEur: '2156.04',
      unrealizedPnlEur: '336.23',
      realizedPnlEur: '0.00',
      weight: '0.805915',
      valuedAt: '2024-03-01T22:00:00.000Z',
      priceAsOf: '2024-03-01T00:00:00.000Z',
      fxAsOf: '2024-03-01',
      stale: false,
    });
    expect(await portfolios.listCash(userId, { portfolioId: portfolio.id })).toEqual([
      expect.objectContaining({
        currency: 'USD',
        amount: '649.00',
        amountEur: '600.20',
        valuedAt: '2024-03-01T22:00:00.000Z',
        fxAsOf: '2024-03-01',
      }),
    ]);
    // the quote and the rate were cached in the database
    expect(await repos.marketData.latestQuote('AAPL')).toMatchObject({
      price: '179.66',
      currency: 'USD',
      asOf: '2024-03-01T00:00:00.000Z',
    });
    expect(await repos.marketData.latestFxRate('EUR', 'USD', '2024-03-01')).toMatchObject({
      date: '2024-03-01',
      rate: '1.0813',
    });

    // a week later: AAPL 2024-03-08 close 170.729996 → 170.73, ECB 1.0932
    // 15 × 170.73 = 2560.95 USD; / 1.0932 = 2342.618002195389… EUR; the EUR cost stays 2156.04
    time.set('2024-03-08T22:00:00Z');
    const result = await portfolios.revalue(userId, portfolio.id);
    expect(RevaluationResult.parse(result)).toEqual(result);
    expect(result.valuedAt).toBe('2024-03-08T22:00:00.000Z');
    expect(result.portfolios).toEqual([
      expect.objectContaining({ portfolioId: portfolio.id, complete: true, issues: [] }),
    ]);
    expect(result.holdings[0]).toMatchObject({
      lastPrice: '170.73',
      marketValueEur: '2342.62',
      costBasisEur: '2156.04',
    });
    // the reads return what the revaluation stored
    expect(await portfolios.listHoldings(userId)).toEqual(result.holdings);
  });

  it('keeps user B out of user A’s portfolio', async () => {
    time.set('2024-03-01T22:00:00Z');
    const alice = await newUser('alice');
    const bob = await newUser('bob');
    const { portfolios, portfolio } = await aaplPortfolio(alice);
    const before = await portfolios.listTransactions(alice, { portfolioId: portfolio.id });

    expect(await portfolios.listPortfolios(bob)).toEqual([]);
    expect(await portfolios.listHoldings(bob)).toEqual([]);
    expect(await portfolios.listCash(bob)).toEqual([]);
    expect((await portfolios.listTransactions(bob)).items).toEqual([]);
    const buy = {
      type: 'buy',
      symbol: 'AAPL',
      quantity: '1',
      price: '1',
      currency: 'USD',
      executedAt: '2024-02-01T00:00:00Z',
    } as const;
    const attempts = [
      () => portfolios.listHoldings(bob, { portfolioId: portfolio.id }),
      () => portfolios.listCash(bob, { portfolioId: portfolio.id }),
      () => portfolios.listTransactions(bob, { portfolioId: portfolio.id }),
      () => portfolios.renamePortfolio(bob, portfolio.id, 'mine now'),
      () => portfolios.recordTransaction(bob, portfolio.id, buy),
      () => portfolios.importBrokerCsv(bob, portfolio.id, readExport('ghostfolio/ok_sample.csv')),
      () => portfolios.revalue(bob, portfolio.id),
    ];
    for (const attempt of attempts) expect((await rejection(attempt())).code).toBe('not_found');

    expect((await portfolios.listPortfolios(alice))[0]?.name).toBe('Main');
    expect(await portfolios.listTransactions(alice, { portfolioId: portfolio.id })).toEqual(before);
    expect((await portfolios.listHoldings(alice))[0]?.quantity).toBe('15');
    // a malformed id is just as unknown
    expect((await rejection(portfolios.listHoldings(alice, { portfolioId: 'x' }))).code).toBe(
      'not_found',
    );
  });

  it('rejects a sell of more than is held, also back-dated, and stores nothing', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('oversell');
    const { portfolios, portfolio } = await aaplPortfolio(userId);
    const sell = (quantity: string, executedAt: string) =>
      portfolios.recordTransaction(userId, portfolio.id, {
        type: 'sell',
        symbol: 'AAPL',
        quantity,
        price: '180',
        currency: 'USD',
        executedAt,
      });

    const tooMany = await rejection(sell('16', '2024-02-15T15:00:00Z'));
    expect(tooMany.code).toBe('validation_failed');
    expect(tooMany.errors).toEqual([
      { path: 'quantity', message: expect.stringMatching(/sells 16 AAPL .*only 15/) },
    ]);
    // 12 were not held yet on 2024-01-10 (only 10 were)
    const early = await rejection(sell('12', '2024-01-10T15:00:00Z'));
    expect(early.errors[0]?.message).toMatch(/only 10/);

    const page = await portfolios.listTransactions(userId, { portfolioId: portfolio.id });
    expect(page.items.map((t) => t.type)).toEqual(['buy', 'buy', 'deposit']);
    expect((await portfolios.listHoldings(userId))[0]?.quantity).toBe('15');

    // selling what is held works and moves cash: 649 + 15 × 180 = 3349
    await sell('15', '2024-02-15T15:00:00Z');
    expect(await portfolios.listHoldings(userId)).toEqual([]);
    expect((await portfolios.listCash(userId))[0]?.amount).toBe('3349.00');
  });

  it('rejects input that is not a NewTransaction; a second currency is a second holding', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('input');
    const { portfolios, portfolio } = await aaplPortfolio(userId);
    const bad = await rejection(
      portfolios.recordTransaction(userId, portfolio.id, {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '-1',
        price: '1e3',
        currency: 'USD',
        executedAt: '2024-02-01',
      }),
    );
    expect(bad.errors.map((e) => e.path).sort()).toEqual(['executedAt', 'price', 'quantity']);
    const eur = await portfolios.recordTransaction(userId, portfolio.id, {
      type: 'buy',
      symbol: 'AAPL',
      quantity: '1',
      price: '160',
      currency: 'EUR',
      executedAt: '2024-02-20T10:00:00Z',
    });
    expect(eur).toMatchObject({ type: 'buy', currency: 'EUR' });
    const holdings = await portfolios.listHoldings(userId, { portfolioId: portfolio.id });
    expect(holdings.map((h) => [h.symbol, h.currency, h.quantity])).toEqual([
      ['AAPL', 'EUR', '1'],
      ['AAPL', 'USD', '15'],
    ]);
    expect((await portfolios.listTransactions(userId)).items).toHaveLength(4);
  });

  it('lists transactions newest first, by page, portfolio and inclusive date bounds', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('list');
    const { portfolios, portfolio } = await aaplPortfolio(userId);
    const other = await portfolios.createPortfolio(userId, { name: 'Other' });
    await portfolios.recordTransaction(userId, other.id, {
      type: 'deposit',
      amount: '10',
      currency: 'EUR',
      executedAt: '2024-02-01T20:00:00Z',
    });

    const first = await portfolios.listTransactions(userId, {
      portfolioId: portfolio.id,
      limit: 2,
    });
    expect(TransactionPage.parse(first)).toEqual(first);
    expect(first.items.map((t) => t.executedAt)).toEqual([
      '2024-02-01T15:00:00.000Z',
      '2024-01-02T15:00:00.000Z',
    ]);
    expect(first.nextCursor).not.toBeNull();
    const second = await portfolios.listTransactions(userId, {
      portfolioId: portfolio.id,
      limit: 2,
      cursor: first.nextCursor ?? '',
    });
    expect(second.items).toEqual([
      {
        id: expect.any(String),
        portfolioId: portfolio.id,
        type: 'deposit',
        amount: '3000',
        currency: 'USD',
        executedAt: '2024-01-02T09:00:00.000Z',
      },
    ]);
    expect(second.nextCursor).toBeNull();

    // a day `to` includes the whole day: both deposits/buys of 2024-02-01, in both portfolios
    const february = await portfolios.listTransactions(userId, {
      from: '2024-01-15',
      to: '2024-02-01',
    });
    expect(february.items.map((t) => [t.type, t.currency])).toEqual([
      ['deposit', 'EUR'],
      ['buy', 'USD'],
    ]);
    // a date-time `to` is inclusive too
    const upTo = await portfolios.listTransactions(userId, { to: '2024-01-02T15:00:00Z' });
    expect(upTo.items.map((t) => t.executedAt)).toEqual([
      '2024-01-02T15:00:00.000Z',
      '2024-01-02T09:00:00.000Z',
    ]);

    const cursor = await rejection(portfolios.listTransactions(userId, { cursor: 'nonsense' }));
    expect(cursor.errors.map((e) => e.path)).toEqual(['cursor']);
    const limit = await rejection(portfolios.listTransactions(userId, { limit: 101 }));
    expect(limit.errors.map((e) => e.path)).toEqual(['limit']);
    const reversed = await rejection(
      portfolios.listTransactions(userId, { from: '2024-02-02', to: '2024-02-01' }),
    );
    expect(reversed.errors.map((e) => e.path)).toEqual(['to']);
  });

  it('imports the Interactive Brokers trades export and values what it can', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('ibkr');
    const portfolios = service();
    const portfolio = await portfolios.createPortfolio(userId, { name: 'IBKR' });
    const result = await portfolios.importBrokerCsv(
      userId,
      portfolio.id,
      readExport('export-to-ghostfolio/ibkr-trades-export.csv'),
    );
    // 8 BUY rows; the three SELL rows without ISIN are CHF→USD conversions (lines 10–12), each a
    // withdrawal, a deposit and a commission: 8 + 3 × 3 = 17
    expect(result).toMatchObject({ format: 'ibkr-trades', imported: 17, skipped: [] });
    const listed = await portfolios.listTransactions(userId, {
      portfolioId: portfolio.id,
      limit: 100,
    });
    expect(listed.items).toHaveLength(17);
    for (const tx of listed.items) expect(Transaction.parse(tx)).toEqual(tx);

    const holdings = await portfolios.listHoldings(userId, { portfolioId: portfolio.id });
    // ISINs have no quote in the offline data: quantities and EUR cost stored, market values null.
    // CHF row: 7 × 282.7 + 5 commission = 1983.9 CHF bought 2023-05-22, ECB 1 EUR = 0.97 CHF
    //   → 1983.9 / 0.97 = 2045.2577319588 EUR
    expect(holdings).toEqual([
      expect.objectContaining({
        symbol: 'CH0111762537',
        currency: 'CHF',
        quantity: '7',
        costBasisEur: '2045.26',
        lastPrice: null,
        marketValueEur: null,
        weight: null,
        valuedAt: '2024-03-01T22:00:00.000Z',
      }),
      // USD: Σ TradeMoney 31576.55 + commissions 6.979 = 31583.529 for 323 units, each buy at
      //   its day's rate: 8910.1 / 1.0822 (05-22) + 11071.16 / 1.078 (06-09) + 98.819 / 1.0932
      //   (08-03) + 207.36 / 1.1114 (12-28) + 10051.17 / 1.0871 (2024-01-26) + 1244.92 / 1.0823
      //   (01-29) = 29176.49355843 EUR
      expect.objectContaining({
        symbol: 'US9220427424',
        quantity: '323',
        costBasisEur: '29176.49',
        marketValueEur: null,
      }),
    ]);
    for (const h of holdings) expect(Holding.parse(h)).toEqual(h);
    const cash = await portfolios.listCash(userId, { portfolioId: portfolio.id });
    expect(cash.map((c) => [c.currency, c.amount, c.amountEur])).toEqual([
      // CHF: −1983.9 − 28032 sold for USD − 5.33142 commissions = −30021.23142; / 0.9582
      // USD: −31583.529 + 8938.4 + 11085.787 + 11560.074 received = 0.732; / 1.0813
      ['CHF', '-30021.23', '-31330.86'],
      ['USD', '0.73', '0.68'],
    ]);
    for (const c of cash) expect(CashPosition.parse(c)).toEqual(c);
    const revaluation = await portfolios.revalue(userId, portfolio.id);
    expect(revaluation.portfolios[0]?.issues.map((i) => [i.code, i.symbol])).toEqual([
      ['missing_quote', 'CH0111762537'],
      ['missing_quote', 'US9220427424'],
    ]);
  });

  it('imports the Ghostfolio sample: amounts of fees and dividends survive the round trip', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('ghostfolio');
    const portfolios = service();
    const portfolio = await portfolios.createPortfolio(userId, { name: 'GF' });
    const result = await portfolios.importBrokerCsv(
      userId,
      portfolio.id,
      readExport('ghostfolio/ok_sample.csv'),
      { format: 'ghostfolio' },
    );
    expect(result).toMatchObject({ format: 'ghostfolio', imported: 4 });
    expect(result.skipped).toEqual([{ line: 6, message: expect.stringContaining('quantity 0') }]);
    const { items } = await portfolios.listTransactions(userId, { portfolioId: portfolio.id });
    expect(items.map((t) => [t.type, t.symbol, t.amount ?? t.quantity])).toEqual([
      ['buy', 'Penthouse Apartment', '1'],
      ['dividend', 'MSFT', '3.1'],
      ['buy', 'MSFT', '5'],
      ['fee', undefined, '49'],
    ]);
    // USD cash: −49 − (5 × 298.58 + 19) + 3.1 − 500000 = −501557.8
    expect((await portfolios.listCash(userId))[0]?.amount).toBe('-501557.80');
  });

  it('rejects the invalid Ghostfolio export with its line and stores nothing', async () => {
    const userId = await newUser('invalid');
    const portfolios = service();
    const portfolio = await portfolios.createPortfolio(userId, { name: 'Bad' });
    const error = await rejection(
      portfolios.importBrokerCsv(
        userId,
        portfolio.id,
        readExport('ghostfolio/not-ok_invalid-date-yy.csv'),
      ),
    );
    expect(error.code).toBe('validation_failed');
    // line 2: 16/09/21,MSFT,USD,298.580,5,buy,19.00 — two-digit year
    expect(error.errors).toEqual([
      { path: 'line 2', message: expect.stringContaining('16/09/21') },
    ]);
    expect((await portfolios.listTransactions(userId)).items).toEqual([]);
    expect(await portfolios.listHoldings(userId)).toEqual([]);
  });

  it('imports the Revolut export; with oversell=reject its MA sale fails at its line', async () => {
    const userId = await newUser('revolut');
    const portfolios = service();
    const portfolio = await portfolios.createPortfolio(userId, { name: 'Revolut' });
    const text = readExport('export-to-ghostfolio/revolut-invest-export.csv');
    const error = await rejection(
      portfolios.importBrokerCsv(userId, portfolio.id, text, { oversell: 'reject' }),
    );
    // line 5: 2023-07-14…,MA,SELL - MARKET,0.1998348,… with no MA bought before
    expect(error.errors).toEqual([
      {
        path: 'line 5',
        message: 'sells 0.1998348 MA (USD) on 2023-07-14 but 0 are held then',
      },
    ]);
    expect((await portfolios.listTransactions(userId)).items).toEqual([]);
    const result = await portfolios.importBrokerCsv(userId, portfolio.id, text);
    expect(result).toMatchObject({ imported: 10, alreadyPresent: 0, warnings: [{ line: 5 }] });
    const holdings = await portfolios.listHoldings(userId, { portfolioId: portfolio.id });
    expect(holdings.filter((h) => h.symbol === 'TSLA').map((h) => h.currency)).toEqual([
      'EUR',
      'USD',
    ]);
  });

  it('re-imports nothing, and a dry run writes nothing', async () => {
    const userId = await newUser('reimport');
    const portfolios = service();
    const portfolio = await portfolios.createPortfolio(userId, { name: 'Again' });
    const text = readExport('ghostfolio/ok_vti-buy-on-ibkr.csv');
    const preview = await portfolios.importBrokerCsv(userId, portfolio.id, text, { dryRun: true });
    expect(preview).toMatchObject({
      dryRun: true,
      imported: 1,
      importBatchId: null,
      holdings: [{ symbol: 'VTI', quantity: '17' }],
    });
    expect((await portfolios.listTransactions(userId)).items).toEqual([]);
    expect(await portfolios.listHoldings(userId)).toEqual([]);
    const first = await portfolios.importBrokerCsv(userId, portfolio.id, text);
    expect(first).toMatchObject({ imported: 1, alreadyPresent: 0 });
    const second = await portfolios.importBrokerCsv(userId, portfolio.id, text);
    expect(second).toMatchObject({ imported: 0, alreadyPresent: 1, importBatchId: null });
    const holdings = await portfolios.listHoldings(userId, { portfolioId: portfolio.id });
    expect(holdings.map((h) => [h.symbol, h.quantity])).toEqual([['VTI', '17']]);
  });

  it('stores quantities with null values when pricing fails, and uses a cached quote', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('pricing');
    const { portfolio } = await aaplPortfolio(userId); // caches AAPL 2024-03-01 in `quotes`
    const noQuotes = service({ quotes: null });
    time.set('2024-03-04T10:00:00Z');
    const cached = await noQuotes.revalue(userId, portfolio.id);
    // the cached close of 2024-03-01 (3 days old); ECB rate of 2024-03-04: 1.0846
    expect(cached.holdings[0]).toMatchObject({ lastPrice: '179.66', quantity: '15' });

    time.set('2024-03-20T10:00:00Z'); // the cached close is now 19 days old: not used
    const failing: QuoteProvider = {
      name: 'down',
      getQuote: () => Promise.reject(new MarketDataError('upstream_unavailable', 'down')),
    };
    const result = await service({ quotes: failing }).revalue(userId, portfolio.id);
    expect(result.holdings[0]).toMatchObject({
      quantity: '15',
      averageCost: '156.7333333333',
      lastPrice: null,
      marketValue: null,
      marketValueEur: null,
      unrealizedPnlEur: null,
      weight: null,
      valuedAt: '2024-03-20T10:00:00.000Z',
    });
    expect(result.holdings[0]?.costBasisEur).not.toBeNull();
    expect(result.portfolios[0]?.complete).toBe(false);
  });

  it('records splits and revalues every portfolio of the user at once', async () => {
    time.set('2024-03-01T22:00:00Z');
    const userId = await newUser('split');
    const { portfolios, portfolio } = await aaplPortfolio(userId);
    const split = await portfolios.recordTransaction(userId, portfolio.id, {
      type: 'split',
      symbol: 'AAPL',
      ratio: '2',
      currency: 'USD',
      executedAt: '2024-02-20T00:00:00Z',
    });
    expect(split).toMatchObject({ type: 'split', ratio: '2', symbol: 'AAPL' });
    expect(split).not.toHaveProperty('quantity');
    const second = await portfolios.createPortfolio(userId, { name: 'Empty' });
    const all = await portfolios.revalue(userId);
    expect(all.portfolios.map((p) => p.portfolioId)).toEqual([portfolio.id, second.id]);
    // 15 × 2 = 30 units at an unchanged cost of 2351; 30 × 179.66 / 1.0813 = 4984.555627485434…
    expect(all.holdings).toEqual([
      expect.objectContaining({
        quantity: '30',
        averageCost: '78.3666666667',
        marketValueEur: '4984.56',
      }),
    ]);
  });

  it("stores Trading 212's instruments under their tickers, with the ISIN and ticker the export gives", async () => {
    // trading212-export.csv: market buys of Cisco (US17275R1023, CSCO) and VICI Properties
    // (US9256521090, VICI) on 2023-12-18; the export names both ISIN and ticker (issue 38)
    const text = readExport('export-to-ghostfolio/trading212-export.csv');
    const portfolios = service();
    const userId = await newUser('t212');
    const portfolio = await portfolios.createPortfolio(userId, { name: 'T212' });
    const result = await portfolios.importBrokerCsv(userId, portfolio.id, text);
    const symbols = result.holdings.map((h) => h.symbol).sort();
    expect(symbols).toEqual(expect.arrayContaining(['ASTS', 'CSCO', 'UNP', 'VICI']));
    expect(symbols.some((s) => /^US[0-9A-Z]{10}$/.test(s))).toBe(false);
    expect(result.holdings.find((h) => h.symbol === 'CSCO')?.name).toBe('Cisco Systems');
    const holdings = await portfolios.listHoldings(userId, { portfolioId: portfolio.id });
    expect(holdings.find((h) => h.symbol === 'CSCO')?.instrument).toEqual({
      isin: 'US17275R1023',
      ticker: 'CSCO',
      currency: 'USD',
      name: 'Cisco Systems',
      kind: 'share',
      cik: '0000858877', // SEC's ticker list
      resolution: 'export',
    });
    for (const h of holdings) expect(Holding.strict().parse(h)).toEqual(h);
    const page = await portfolios.listTransactions(userId, {
      portfolioId: portfolio.id,
      limit: 100,
    });
    const dividend = page.items.find((t) => t.type === 'dividend' && t.symbol === 'UNP');
    expect(dividend?.instrument).toMatchObject({ isin: 'US9078181081', ticker: 'UNP' });
    // fingerprints are taken before the resolution: importing again stores nothing
    const again = await portfolios.importBrokerCsv(userId, portfolio.id, text);
    expect(again).toMatchObject({ imported: 0, alreadyPresent: result.imported });
  });

  it('resolves ISIN-only exports through the ISIN table, else leaves them unresolved saying why', async () => {
    // IBKR's trades export names instruments by ISIN only: CH0111762537 (CHF) and US9220427424
    const text = readExport('export-to-ghostfolio/ibkr-trades-export.csv');
    const isinSymbols = createIsinTable({ US9220427424: 'vea' });
    const resolving = createPortfolioService({
      db: database.db,
      quotes,
      fx,
      now: time.now,
      isinSymbols,
    });
    const userId = await newUser('isin-table');
    const portfolio = await resolving.createPortfolio(userId, { name: 'IBKR' });
    await resolving.importBrokerCsv(userId, portfolio.id, text);
    const holdings = await resolving.listHoldings(userId, { portfolioId: portfolio.id });
    expect(holdings.find((h) => h.symbol === 'VEA')?.instrument).toMatchObject({
      isin: 'US9220427424',
      ticker: 'VEA',
      resolution: 'file',
    });
    const unknown = holdings.find((h) => h.symbol === 'CH0111762537');
    expect(unknown?.quantity).toBe('7');
    expect(unknown?.instrument).toMatchObject({
      isin: 'CH0111762537',
      currency: 'CHF',
      resolution: 'unresolved',
      unresolvedReason: expect.stringContaining('CH0111762537'),
    });
  });

  it('keeps the realised P&L in EUR of a position sold to zero on the portfolio', async () => {
    const userId = await newUser('closed');
    const portfolios = service();
    const portfolio = await portfolios.createPortfolio(userId, { name: 'Closed' });
    const trade = { symbol: 'AAPL', currency: 'USD', quantity: '10' };
    await portfolios.recordTransaction(userId, portfolio.id, {
      type: 'deposit',
      amount: '2000',
      currency: 'USD',
      executedAt: '2024-01-02T09:00:00Z',
    });
    await portfolios.recordTransaction(userId, portfolio.id, {
      ...trade,
      type: 'buy',
      price: '150',
      executedAt: '2024-01-02T15:00:00Z',
    });
    await portfolios.recordTransaction(userId, portfolio.id, {
      ...trade,
      type: 'sell',
      price: '180',
      executedAt: '2024-02-01T15:00:00Z',
    });
    // The holding is gone; its realised P&L stays on the portfolio. EUR cost 1500 / 1.0956
    // (ECB 2024-01-02) = 1369.1128…; proceeds 1800 / 1.0814 (2024-02-01) = 1664.5090…;
    // realised 295.3962… → 295.40 (the currency effect included; in USD it is 300).
    expect(await portfolios.listHoldings(userId, { portfolioId: portfolio.id })).toEqual([]);
    const [listed] = await portfolios.listPortfolios(userId);
    expect(listed).toMatchObject({ id: portfolio.id, realizedPnlEur: '295.40' });
  });
});
