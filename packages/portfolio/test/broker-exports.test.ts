import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveHoldings, parseBrokerCsv } from '../src/index.js';

// Real broker export fixtures (see shared/data/broker-exports/SOURCES.md); never copied here.
const dataDir =
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data');
const read = (path: string) => readFileSync(join(dataDir, 'broker-exports', path), 'utf8');

describe('Ghostfolio CSV fixtures', () => {
  it('imports ok_sample.csv: 4 transactions, the empty buy skipped', () => {
    const result = parseBrokerCsv(read('ghostfolio/ok_sample.csv'));
    expect(result).toMatchObject({ ok: true, format: 'ghostfolio' });
    if (!result.ok) return;
    expect(result.transactions).toHaveLength(4);
    // line 2: 01-09-2021,Account Opening Fee,MANUAL,USD,0,0,fee,49
    expect(result.transactions[0]).toEqual({
      type: 'fee',
      amount: '49',
      currency: 'USD',
      executedAt: '2021-09-01T00:00:00.000Z',
      note: 'Account Opening Fee',
    });
    // line 3: 16-09-2021,MSFT,YAHOO,USD,298.580,5,buy,19.00,My first order 🤓
    expect(result.transactions[1]).toEqual({
      type: 'buy',
      symbol: 'MSFT',
      quantity: '5',
      price: '298.58',
      fee: '19',
      currency: 'USD',
      executedAt: '2021-09-16T00:00:00.000Z',
      note: 'My first order 🤓',
    });
    // line 4: 17/11/2021,MSFT,...,0.62,5,dividend → 5 × 0.62 = 3.10
    expect(result.transactions[2]).toMatchObject({
      type: 'dividend',
      symbol: 'MSFT',
      amount: '3.1',
    });
    // line 5: 01.01.2022 (dotted day-first date)
    expect(result.transactions[3]).toMatchObject({
      executedAt: '2022-01-01T00:00:00.000Z',
      price: '500000',
    });
    // line 6: 20500606,US5949181045,YAHOO,USD,0.00,0,buy,0.00 — quantity 0, no fee
    expect(result.skipped).toEqual([{ line: 6, message: expect.stringContaining('quantity 0') }]);
  });

  it('rejects not-ok_invalid-date-yy.csv at line 2 and returns nothing importable', () => {
    const result = parseBrokerCsv(read('ghostfolio/not-ok_invalid-date-yy.csv'));
    expect(result).toEqual({
      ok: false,
      format: 'ghostfolio',
      errors: [{ line: 2, message: expect.stringContaining('16/09/21') }],
    });
  });
});

describe('Interactive Brokers Flex Query trades', () => {
  it('imports the full ~80-column row of ok_vti-buy-on-ibkr.csv', () => {
    const result = parseBrokerCsv(read('ghostfolio/ok_vti-buy-on-ibkr.csv'));
    // "USD","VTI","20230403;095853",…,"17","204.3473","BUY",…,"IBCommission" -1 USD
    expect(result).toEqual({
      ok: true,
      format: 'ibkr-trades',
      skipped: [],
      transactions: [
        {
          type: 'buy',
          symbol: 'VTI',
          quantity: '17',
          price: '204.3473',
          fee: '1',
          currency: 'USD',
          executedAt: '2023-04-03T09:58:53.000Z',
        },
      ],
    });
  });

  it('imports ibkr-trades-export.csv; holdings match the TradeMoney column', () => {
    const result = parseBrokerCsv(read('export-to-ghostfolio/ibkr-trades-export.csv'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.transactions).toHaveLength(8);
    expect(result.skipped.map((s) => s.line)).toEqual([10, 11, 12]); // the three FX rows
    const ledger = result.transactions.map((tx, i) => ({ ...tx, id: String(i) }));
    const { holdings, cash } = deriveHoldings(ledger);
    // USD: Σ TradeMoney = 8909.1 + 10019.1 + 1050.06 + 97.84 + 206.36 + 10050.17 + 1243.92
    //      = 31576.55, plus commissions 1+1+1+0.979+1+1+1 = 6.979 → 31583.529 for 323 units
    expect(holdings).toContainEqual(
      expect.objectContaining({ symbol: 'US9220427424', quantity: '323', costBasis: '31583.529' }),
    );
    // CHF: 1978.9 + 5 = 1983.9 for 7 units
    expect(holdings).toContainEqual(
      expect.objectContaining({
        symbol: 'CH0111762537',
        currency: 'CHF',
        quantity: '7',
        costBasis: '1983.9',
      }),
    );
    expect(cash).toEqual([
      { currency: 'CHF', amount: '-1983.9' },
      { currency: 'USD', amount: '-31583.529' },
    ]);
  });
});

describe('Revolut stocks statement', () => {
  it('imports revolut-invest-export.csv: 10 transactions, 2 entity transfers skipped', () => {
    const result = parseBrokerCsv(read('export-to-ghostfolio/revolut-invest-export.csv'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.format).toBe('revolut');
    expect(result.transactions).toHaveLength(10);
    expect(result.skipped.map((s) => s.line)).toEqual([8, 11]);
    const [withdrawal, topUp, buyO] = result.transactions;
    // line 2: …,CASH WITHDRAWAL,,,-$30.93,USD
    expect(withdrawal).toEqual({
      type: 'withdrawal',
      amount: '30.93',
      currency: 'USD',
      executedAt: '2019-12-02T08:23:08.459Z',
    });
    expect(topUp).toMatchObject({ type: 'deposit', amount: '5.22' });
    // line 4: 2023-09-22T13:30:10.514Z,O,BUY - MARKET,1.63453043,$52.07,$85.11,USD
    expect(buyO).toMatchObject({
      type: 'buy',
      symbol: 'O',
      quantity: '1.63453043',
      price: '52.07',
    });
    // line 9: TSLA STOCK SPLIT 0.16431924 → additional shares at zero cost
    expect(result.transactions).toContainEqual(
      expect.objectContaining({ type: 'buy', symbol: 'TSLA', quantity: '0.16431924', price: '0' }),
    );
    // line 13: quantity "0,76672417" written with a decimal comma, price €26.09
    expect(result.transactions.at(-1)).toMatchObject({
      symbol: 'MSFT',
      quantity: '0.76672417',
      price: '26.09',
      currency: 'EUR',
    });
  });
});

describe('unsupported real exports', () => {
  it.each(['degiro-export.csv', 'trading212-export.csv', 'schwab-export.csv'])(
    'refuses %s at the header line',
    (file) => {
      const result = parseBrokerCsv(read(`export-to-ghostfolio/${file}`));
      expect(result).toEqual({
        ok: false,
        errors: [{ line: 1, message: expect.stringContaining('no supported format') }],
      });
    },
  );
});
