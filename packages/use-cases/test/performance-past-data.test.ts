/**
 * Issue 38: on the offline default the ECB file ends in April 2026 and the price files run to
 * August; a newcomer's hand-made AAPL + JNJ portfolio asked for its performance today (November)
 * was refused ("no EUR rate of USD … on the day after the file's end"). Rates and closes now carry
 * forward after their last publication (stale), and a period that ends after the price data is
 * answered up to its last day, with a note. Holdings carry the dates of their price and rate.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCsvQuoteProvider, createEcbFileFxProvider } from '@svc/market-data';
import { createTestBackends } from '@svc/portfolio-store/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { PortfolioPerformance } from '../src/portfolio/performance-schemas.js';
import { BROKER_EXPORTS_DIR, ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';
import { portfolioFixture } from './support/portfolio-fixture.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const prices = createCsvQuoteProvider({ dir: PRICES_DIR });
const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
// the day of the report: after the ECB file's last day and the price files' last close
const now = () => new Date('2026-11-28T12:00:00Z');
const deps = { quotes: prices, fx, history: prices, now };
const POOL = { pool: { connectionTimeoutMillis: 5_000 } };

describe.each(engines)('performance past the data on $name', (engine) => {
  const f = portfolioFixture(engine, deps, POOL);
  let userId: string;
  let portfolioId: string;

  beforeAll(async () => {
    const made = await f.newPortfolio('AAPL + JNJ', 'past');
    userId = made.userId;
    portfolioId = made.portfolio.id;
    for (const [symbol, price] of [
      ['AAPL', '200'],
      ['JNJ', '150'],
    ] as const) {
      await f.service.recordTransaction(userId, portfolioId, {
        type: 'buy',
        symbol,
        quantity: '10',
        price,
        currency: 'USD',
        executedAt: '2025-06-02T15:00:00Z',
      });
    }
  });

  it('answers any period up to the last close, with the rate carried forward, stale', async () => {
    const portfolios = f.service;
    const ecbEnd = (await fx.getRate('EUR', 'USD', { asOf: '2026-11-28' }))?.asOf as string;
    const lastClose = (await prices.getQuote('AAPL', { asOf: '2026-11-28' }))?.asOf as string;
    expect(ecbEnd < lastClose).toBe(true);
    for (const query of [
      {},
      { period: '1M' },
      { period: 'YTD' },
      { period: '1Y' },
      { to: '2026-11-27' },
    ]) {
      const result = PortfolioPerformance.parse(
        await portfolios.getPerformance(userId, portfolioId, query),
      );
      expect(result.to).toBe(lastClose);
      expect(result.dataThrough).toBe(lastClose);
      expect(result.note).toContain(lastClose);
      expect(result.returns.twr).toMatchObject({ status: 'ok' });
      expect(result.returns.mwr).toMatchObject({ status: 'ok' });
      // the USD rate after the ECB file's last day is its last rate, said to be stale
      expect(result.stalePrices).toEqual(
        expect.arrayContaining([expect.objectContaining({ kind: 'fx_rate', currency: 'USD' })]),
      );
    }
    // a period inside the data is answered as asked, without a note
    const inside = await portfolios.getPerformance(userId, portfolioId, { to: '2026-03-31' });
    expect(inside.to).toBe('2026-03-31');
    expect(inside).not.toHaveProperty('note');
  });

  it('holdings carry the last close and rate forward with the dates they are from, stale', async () => {
    const holdings = await f.service.listHoldings(userId, { portfolioId });
    const ecbEnd = (await fx.getRate('EUR', 'USD', { asOf: '2026-11-28' }))?.asOf as string;
    for (const h of holdings) {
      expect(h.marketValueEur).not.toBeNull();
      expect(h.priceAsOf?.slice(0, 10)).toBe('2026-08-03');
      expect(h.fxAsOf).toBe(ecbEnd);
      expect(h.stale).toBe(true);
    }
  });
});

describe.each(engines)('performance of holdings nobody publishes closes for on $name', (engine) => {
  const f = portfolioFixture(engine, deps, POOL);

  it('values them at their own trade prices, carried forward, and says so', async () => {
    const portfolios = f.service;
    const { userId, portfolio } = await f.newPortfolio('Unpriced', 'trades');
    const p = portfolio.id;
    // CSCO is outside the offline price files; AAPL is in them
    for (const [symbol, price, day] of [
      ['CSCO', '50', '2025-06-02'],
      ['CSCO', '55', '2025-09-01'],
      ['AAPL', '200', '2025-06-02'],
    ] as const) {
      await portfolios.recordTransaction(userId, p, {
        type: 'buy',
        symbol,
        quantity: '10',
        price,
        currency: 'USD',
        executedAt: `${day}T15:00:00Z`,
      });
    }
    for (const query of [
      {},
      { period: '1M' },
      { period: '1Y' },
      { from: '2025-07-01', period: 'custom' },
    ]) {
      const result = PortfolioPerformance.parse(await portfolios.getPerformance(userId, p, query));
      expect(result.returns.twr, JSON.stringify(query)).toMatchObject({ status: 'ok' });
      expect(result.valuedAtTradePrices).toEqual(['CSCO']);
      // the price files still set the end: AAPL's last close, not CSCO's last trade
      expect(result.dataThrough).toBe('2026-08-03');
    }
    const holding = await portfolios.getHoldingPerformance(userId, p, 'CSCO', {
      from: '2025-06-03',
      to: '2025-09-02',
      period: 'custom',
    });
    // 10 @ 50, then 10 more @ 55 on 1 September: that day's factor, the flow counted at the start
    // of the day (the timeline's convention), is (20 × 55) / (10 × 50 + 10 × 55) = 1100 / 1050
    expect(holding.returns.twrLocal).toMatchObject({ status: 'ok' });
    expect((holding.returns.twrLocal as { value: number }).value).toBeCloseTo(1100 / 1050 - 1, 6);
  });
});

describe.each(engines)('performance of the Trading 212 sample on $name', (engine) => {
  const f = portfolioFixture(engine, deps, POOL);

  // an import and six periods on a busy machine: a bound on hangs, not a timing
  it('answers every period; UNP, received only through a stock distribution at 0, is valued at 0 and named', {
    timeout: 120_000,
  }, async () => {
    const portfolios = f.service;
    const { userId, portfolio } = await f.newPortfolio('T212', 't212perf');
    const p = portfolio.id;
    const text = readFileSync(
      join(BROKER_EXPORTS_DIR, 'export-to-ghostfolio', 'trading212-export.csv'),
      'utf8',
    );
    await portfolios.importBrokerCsv(userId, p, text);
    const { items } = await portfolios.listTransactions(userId, { portfolioId: p, limit: 100 });
    // the export's only Union Pacific shares: 11.0563304 received at a price of 0
    expect(items.filter((t) => t.symbol === 'UNP' && t.type === 'buy')).toEqual([
      expect.objectContaining({ quantity: '11.0563304', price: '0' }),
    ]);
    for (const period of ['1M', '3M', 'YTD', '1Y', '3Y', 'inception'] as const) {
      const result = PortfolioPerformance.parse(
        await portfolios.getPerformance(userId, p, { period }),
      );
      expect(result.returns.twr, period).toMatchObject({ status: 'ok' });
      expect(result.returns.mwr, period).toMatchObject({ status: 'ok' });
      expect(result.endValueEur, period).not.toBeNull();
      // no share of the sample is in the offline price files: each is valued at its own trades
      expect(result.valuedAtTradePrices).toEqual(['ASTS', 'CSCO', 'UNP', 'VICI']);
      expect(result.note).toMatch(/no closes and no trade price above 0 for UNP .*valued at 0/);
    }
  });
});
