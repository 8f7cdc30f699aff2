/**
 * Issue 38: a holding nobody publishes closes for and whose only trade is at a price of 0 (shares
 * received through a stock distribution, as Trading 212 exports them) made every figure of every
 * period `missing_price`. It is now valued at its last known transaction price, 0, carried
 * forward: it adds nothing to the value or the returns, and the answer names it. Hand-made ledger,
 * hand-made closes and rates, no database.
 */
import type { DailyCloses, FxProvider, PriceHistoryProvider } from '@svc/market-data';
import type { LedgerTransaction } from '@svc/portfolio';
import { describe, expect, it } from 'vitest';
import { PortfolioPerformance } from './performance-schemas.js';
import { createPerformanceFlow, type LedgerSource } from './performance-service.js';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Closes of AAPL on every calendar day of 2025: 100 on 1 January, +0.1 a day. */
const history: PriceHistoryProvider = {
  name: 'fixture',
  async getDailyCloses(symbol, { from, to }): Promise<DailyCloses | null> {
    if (symbol !== 'AAPL') return null;
    const dates: string[] = [];
    const values: number[] = [];
    const start = Date.parse('2025-01-01T00:00:00Z');
    for (let ms = start; ms <= Date.parse('2025-12-31T00:00:00Z'); ms += DAY_MS) {
      const d = day(ms);
      if (d < day(Date.parse(`${from}T00:00:00Z`) - 7 * DAY_MS) || d > to) continue;
      dates.push(d);
      values.push(100 + (ms - start) / DAY_MS / 10);
    }
    return { symbol, currency: 'USD', source: 'fixture', dates, values, estimatedDays: 0 };
  },
};
/** 1 EUR = 1.25 USD every day. */
const fx: FxProvider = {
  async getRate(base, quote, options) {
    return { base, quote, rate: 1.25, asOf: options?.asOf ?? '2025-12-31', source: 'fixture' };
  },
};

let n = 0;
const tx = (
  at: string,
  fields: Omit<LedgerTransaction, 'id' | 'executedAt' | 'currency'>,
): LedgerTransaction => ({
  id: `t${++n}`,
  executedAt: `${at}T15:00:00Z`,
  currency: 'USD',
  ...fields,
});

const ledger: LedgerTransaction[] = [
  tx('2025-02-03', { type: 'deposit', amount: '2000' }),
  tx('2025-02-03', { type: 'buy', symbol: 'AAPL', quantity: '10', price: '103.3' }),
  // Union Pacific arrives only through a stock distribution: shares at a price of 0
  tx('2025-03-03', {
    type: 'buy',
    symbol: 'UNP',
    quantity: '11.0563304',
    price: '0',
    note: 'stock distribution: shares received at zero cost',
  }),
];
const source = (txs: readonly LedgerTransaction[], version = '1'): LedgerSource => ({
  version,
  read: async () => txs,
});
const flow = () =>
  createPerformanceFlow({ history, fx, now: () => new Date('2025-12-31T18:00:00Z') });

describe('performance with a holding received at zero cost and never priced', () => {
  it('answers every period, UNP valued at 0 and named in the note', async () => {
    const performance = flow();
    for (const period of ['1M', '3M', 'YTD', '1Y', 'inception'] as const) {
      const result = PortfolioPerformance.parse(
        await performance.portfolio('p1', source(ledger), { period }),
      );
      expect(result.returns.twr, period).toMatchObject({ status: 'ok' });
      expect(result.returns.mwr, period).toMatchObject({ status: 'ok' });
      expect(result.valuedAtTradePrices).toEqual(['UNP']);
      expect(result.note).toContain('UNP');
      expect(result.note).toContain('valued at 0');
      // the portfolio is AAPL and its cash: UNP adds nothing (10 × 133.2 USD + 967 USD) / 1.25
      expect(result.endValueEur).toBe(((10 * (100 + 364 / 10) + 2000 - 1033) / 1.25).toFixed(2));
      // UNP's carried price is said to be stale, like any trade price carried forward
      expect(result.stalePrices).toEqual(
        expect.arrayContaining([expect.objectContaining({ kind: 'price', symbol: 'UNP' })]),
      );
    }
  });

  it('gives the same returns as the portfolio without the distribution', async () => {
    const without = ledger.filter((t) => t.symbol !== 'UNP');
    const a = await flow().portfolio('p1', source(ledger), { period: 'inception' });
    const b = await flow().portfolio('p2', source(without), { period: 'inception' });
    expect(a.returns.twr).toEqual(b.returns.twr);
    expect(a.returns.mwr).toEqual(b.returns.mwr);
    expect(a.endValueEur).toBe(b.endValueEur);
    expect(b).not.toHaveProperty('note');
    expect(b).not.toHaveProperty('valuedAtTradePrices');
  });

  it("answers the holding's own figures: nothing invested, so no return, and says why", async () => {
    const result = await flow().holding('p1', 'UNP', source(ledger), { period: 'YTD' });
    expect(result.endValueEur).toBe('0.00');
    expect(result.returns.twr).toMatchObject({ status: 'unavailable', code: 'no_capital' });
    expect(result.note).toContain('UNP');
    // another holding's answer does not carry UNP's note
    const aapl = await flow().holding('p1', 'AAPL', source(ledger), { period: 'YTD' });
    expect(aapl).not.toHaveProperty('note');
    expect(aapl.returns.twr).toMatchObject({ status: 'ok' });
  });

  it('values a later sale at a price above 0 at that price, not at 0', async () => {
    const sold = [
      ...ledger,
      tx('2025-06-02', { type: 'sell', symbol: 'UNP', quantity: '1', price: '230' }),
    ];
    const result = await flow().holding('p1', 'UNP', source(sold), {
      period: 'custom',
      from: '2025-06-03',
      to: '2025-12-31',
    });
    // 10.0563304 units at the sale's price, carried forward
    expect(result.endValueEur).toBe(((10.0563304 * 230) / 1.25).toFixed(2));
    expect(result.note).not.toContain('valued at 0');
    expect(result.note).toContain('own buys and sells');
  });
});
