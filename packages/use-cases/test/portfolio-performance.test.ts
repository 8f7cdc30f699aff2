import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCsvQuoteProvider, createEcbFileFxProvider } from '@svc/market-data';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HoldingPerformance, PortfolioPerformance } from '../src/portfolio/performance-schemas.js';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';
import { ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';
import { rejection } from './support/rejection.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

// real offline providers on the shared data: the CSV files serve both quotes and daily history
const prices = createCsvQuoteProvider({ dir: PRICES_DIR });
const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
const now = () => new Date('2024-01-05T22:00:00Z');

const close = async (day: string) =>
  (await prices.getQuote('AAPL', { asOf: day }))?.price as number;
const usdPerEur = async (day: string) =>
  (await fx.getRate('EUR', 'USD', { asOf: day }))?.rate as number;

describe.each(engines)('performance flow on $name', (engine) => {
  let database: TestDatabase;
  let userId: string;
  let portfolioId: string;
  const service = (history: typeof prices | null = prices, withFx = true) =>
    createPortfolioService({
      db: database.db,
      quotes: prices,
      fx: withFx ? fx : null,
      history,
      now,
    });

  beforeAll(async () => {
    database = await engine.open({ pool: { connectionTimeoutMillis: 5_000 } });
    const repos = createRepositories(database.db);
    userId = (await repos.users.create({ email: uniqueEmail('perf') })).id;
    const portfolios = service();
    portfolioId = (await portfolios.createPortfolio(userId, { name: 'Perf' })).id;
    const record = (tx: Parameters<typeof portfolios.recordTransaction>[2]) =>
      portfolios.recordTransaction(userId, portfolioId, tx);
    await record({
      type: 'deposit',
      amount: '5000',
      currency: 'EUR',
      executedAt: '2023-01-02T09:00:00Z',
    });
    await record({
      type: 'buy',
      symbol: 'AAPL',
      quantity: '10',
      price: String(await close('2023-01-03')),
      currency: 'USD',
      executedAt: '2023-01-03T20:00:00Z',
    });
  });
  afterAll(() => database.cleanup());

  it('a USD holding: local return from the closes, EUR return and currency effect from the ECB rates', async () => {
    const query = { from: '2023-01-04', to: '2023-12-29' };
    const result = await service().getHoldingPerformance(userId, portfolioId, 'aapl', query);
    expect(HoldingPerformance.parse(result)).toEqual(result);
    const [p0, p1, r0, r1] = await Promise.all([
      close('2023-01-03'),
      close('2023-12-29'),
      usdPerEur('2023-01-03'),
      usdPerEur('2023-12-29'),
    ]);
    expect(result).toMatchObject({
      symbol: 'AAPL',
      holdingCurrency: 'USD',
      period: 'custom',
      from: '2023-01-04',
    });
    const { twr, twrLocal, currencyEffect, mwr } = result.returns;
    expect(twrLocal.status === 'ok' && twrLocal.value).toBeCloseTo(p1 / p0 - 1, 9);
    expect(twr.status === 'ok' && twr.value).toBeCloseTo(p1 / r1 / (p0 / r0) - 1, 9);
    expect(currencyEffect.status === 'ok' && currencyEffect.value).toBeCloseTo(r0 / r1 - 1, 9);
    expect(mwr).toMatchObject({ status: 'ok', basis: 'cumulative' });
    expect(result.endValueEur).toBe(((10 * p1) / r1).toFixed(2));
  });

  it('the portfolio: figures per holding, a monthly series, the same answer from the cache', async () => {
    const portfolios = service();
    const query = { period: '1Y', to: '2023-12-31', series: 'monthly' };
    const result = await portfolios.getPerformance(userId, portfolioId, query);
    expect(PortfolioPerformance.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      cashFlowBasis: 'recorded',
      // 1Y back from 2023-12-31 begins before the first deposit (2023-01-02): shortened
      clampedToInception: true,
      from: '2023-01-02',
      to: '2023-12-31',
      days: 364,
    });
    expect(result.returns.twr.status).toBe('ok');
    expect(result.returns.twrAnnualised).toBeNull();
    expect(result.holdings.map((h) => h.symbol)).toEqual(['AAPL']);
    expect(result.series?.map((p) => p.date).slice(0, 2)).toEqual(['2023-01-02', '2023-01-31']);
    expect(result.series?.at(-1)).toMatchObject({ date: '2023-12-31', netInvestedEur: '5000.00' });
    expect(await portfolios.getPerformance(userId, portfolioId, query)).toEqual(result);
  });

  it('a new transaction is in the next answer (the cache follows the ledger)', async () => {
    const portfolios = service();
    const before = await portfolios.getHoldingPerformance(userId, portfolioId, 'AAPL', {});
    expect(before.income.dividendsEur).toBe('0.00');
    await portfolios.recordTransaction(userId, portfolioId, {
      type: 'dividend',
      symbol: 'AAPL',
      amount: '2.40',
      currency: 'USD',
      executedAt: '2023-05-18T12:00:00Z',
    });
    const after = await portfolios.getHoldingPerformance(userId, portfolioId, 'AAPL', {});
    expect(after.income.dividendsEur).toBe((2.4 / (await usdPerEur('2023-05-18'))).toFixed(2));
    expect(after.costs.withholdingTaxEur).toBe('0.00');
    // tax withheld on it, as the broker imports record it: a fee noted withholding tax
    await portfolios.recordTransaction(userId, portfolioId, {
      type: 'fee',
      symbol: 'AAPL',
      amount: '0.36',
      currency: 'USD',
      note: 'withholding tax',
      executedAt: '2023-05-18T12:00:00Z',
    });
    const taxed = await portfolios.getHoldingPerformance(userId, portfolioId, 'AAPL', {});
    const tax = (0.36 / (await usdPerEur('2023-05-18'))).toFixed(2);
    expect(taxed.costs).toEqual({ feesEur: after.costs.feesEur, withholdingTaxEur: tax });
  });

  it('a write through another service instance (another pool: another process) is in the next answer', async () => {
    const other = await database.connectAgain();
    try {
      const here = service();
      const there = createPortfolioService({
        db: other.db,
        quotes: prices,
        fx,
        history: prices,
        now,
      });
      const before = await here.getPerformance(userId, portfolioId, {});
      expect(await here.getPerformance(userId, portfolioId, {})).toEqual(before);
      await there.recordTransaction(userId, portfolioId, {
        type: 'withdrawal',
        amount: '100',
        currency: 'EUR',
        executedAt: '2023-11-02T12:00:00Z',
      });
      const after = await here.getPerformance(userId, portfolioId, {});
      expect(Number(after.netFlowsEur)).toBeCloseTo(Number(before.netFlowsEur) - 100, 2);
      expect(await there.getPerformance(userId, portfolioId, {})).toEqual(after);
      // a write outside the service (a statement on the table) is seen as well
      await database.db
        .deleteFrom('transactions')
        .where('portfolio_id', '=', portfolioId)
        .where('type', '=', 'withdrawal')
        .execute();
      expect((await here.getPerformance(userId, portfolioId, {})).netFlowsEur).toBe(
        before.netFlowsEur,
      );
    } finally {
      await other.close();
    }
  });

  it('the next day extends the cached timeline: the same answer as a fresh instance computes', async () => {
    let today = new Date('2023-12-20T22:00:00Z');
    const clock = () => today;
    const make = () =>
      createPortfolioService({ db: database.db, quotes: prices, fx, history: prices, now: clock });
    const cached = make();
    const query = { period: 'inception', series: 'weekly' } as const;
    await cached.getPerformance(userId, portfolioId, query);
    for (const day of ['2023-12-21', '2023-12-22', '2023-12-27', '2024-01-04']) {
      today = new Date(`${day}T22:00:00Z`);
      const extended = await cached.getPerformance(userId, portfolioId, query);
      expect(extended.to).toBe(day);
      expect(extended).toEqual(await make().getPerformance(userId, portfolioId, query));
    }
  });

  it('without EUR rates the returns are unavailable from the first day a USD rate was needed', async () => {
    const result = await service(prices, false).getPerformance(userId, portfolioId, {
      period: 'inception',
    });
    expect(result.returns.twr).toMatchObject({
      status: 'unavailable',
      code: 'missing_fx_rate',
      currency: 'USD',
      firstMissingDate: '2023-01-03',
    });
    expect(result.endValueEur).toBeNull();
  });

  it('a missing rate says where the rate data is: the currency, the day asked, the first and last day of the file', async () => {
    // the ECB history from 2023-03-01 only: the USD buy of 2023-01-03 has no rate (a file that
    // ends early is carried on, stale: issue 38), and the message names the file's span
    const dir = mkdtempSync(join(tmpdir(), 'ecb-'));
    const file = join(dir, 'eurofxref-from-2023-03.csv');
    const [head, ...rows] = readFileSync(ECB_HISTORY_CSV, 'utf8').trim().split('\n');
    writeFileSync(file, [head, ...rows.filter((r) => r.slice(0, 10) >= '2023-03-01')].join('\n'));
    const last = (rows[0] as string).slice(0, 10);
    const cut = createPortfolioService({
      db: database.db,
      quotes: prices,
      fx: createEcbFileFxProvider({ file }),
      history: prices,
      now,
    });
    const result = await cut.getHoldingPerformance(userId, portfolioId, 'AAPL', {
      period: 'inception',
    });
    expect(result.returns.twr).toEqual({
      status: 'unavailable',
      code: 'missing_fx_rate',
      currency: 'USD',
      firstMissingDate: '2023-01-03',
      reason: `no EUR rate of USD within the tolerance on 2023-01-03; the USD rates of the ECB file eurofxref-from-2023-03.csv run from 2023-03-01 to ${last}`,
    });
    const none = await service(prices, false).getPerformance(userId, portfolioId, {});
    expect(none.returns.twr).toMatchObject({
      reason:
        'no EUR rate of USD within the tolerance on 2023-01-03; no FX provider is configured (FX_PROVIDER=none)',
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it('without price history the returns are unavailable: missing_price, never 0', async () => {
    const result = await service(null).getHoldingPerformance(userId, portfolioId, 'AAPL', {});
    expect(result.returns.twr).toMatchObject({
      status: 'unavailable',
      code: 'missing_price',
      symbol: 'AAPL',
    });
  });

  it('answers not_found for another user’s portfolio and a symbol never held, validation_failed for bad periods', async () => {
    const stranger = (
      await createRepositories(database.db).users.create({ email: uniqueEmail('x') })
    ).id;
    expect((await rejection(service().getPerformance(stranger, portfolioId))).code).toBe(
      'not_found',
    );
    expect(
      (await rejection(service().getHoldingPerformance(userId, portfolioId, 'MSFT'))).code,
    ).toBe('not_found');
    for (const [query, path] of [
      [{ period: '2W' }, 'period'],
      [{ from: '2023-06-01', to: '2023-05-01' }, 'from'],
      [{ to: '2030-01-01' }, 'to'],
      [{ from: '2023-02-30' }, 'from'],
      [{ period: 'custom' }, 'from'],
    ] as const) {
      const error = await rejection(service().getPerformance(userId, portfolioId, query));
      expect(error.code).toBe('validation_failed');
      expect(error.errors[0]?.path).toBe(path);
    }
  });
});
