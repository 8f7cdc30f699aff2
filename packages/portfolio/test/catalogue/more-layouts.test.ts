import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../../src/index.js';
import { MORE_FIXTURES } from './more-fixtures.js';

const text = (id: string) => MORE_FIXTURES[id]?.text ?? '';

describe('other layouts of catalogued brokers (catalogue/more-layouts, degiro, trading212)', () => {
  it('reads the newer DEGIRO layout: EUR fees from the total, AutoFX trades converted', () => {
    const parsed = parseBrokerCsv(text('degiro-transactions-2024'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.format).toBe('degiro-transactions-2024');
    const sale = parsed.transactions.find((t) => t.type === 'sell');
    expect(sale).toMatchObject({ quantity: '4', price: '60', fee: '1', currency: 'EUR' });
    const apple = parsed.transactions.find((t) => t.type === 'buy' && t.currency === 'USD');
    expect(apple).toMatchObject({ quantity: '2', price: '100' });
    expect(apple && 'fee' in apple ? apple.fee : undefined).toBeUndefined();
    const legs = parsed.transactions
      .filter((t) => t.note === 'currency conversion EUR/USD for this trade')
      .map((t) => `${t.type} ${'amount' in t ? t.amount : ''} ${t.currency}`);
    expect(legs.sort()).toEqual(['deposit 200 USD', 'withdrawal 182.96 EUR']);
  });

  it('books a DEGIRO trade’s costs in their own currency, apart from a USD trade', () => {
    const parsed = parseBrokerCsv(text('degiro-transactions'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const apple = parsed.transactions.filter((t) => t.symbol === 'US0378331005');
    expect(apple.map((t) => `${t.type} ${t.currency}`).sort()).toEqual(['buy USD', 'fee EUR']);
    const sale = parsed.transactions.find((t) => t.type === 'sell');
    expect(sale).toMatchObject({ quantity: '4', price: '60', fee: '1', currency: 'EUR' });
  });

  it('converts a Trading 212 trade in another currency than the account’s named in the header', () => {
    const parsed = parseBrokerCsv(text('trading212-eur'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const legs = parsed.transactions
      .filter((t) => t.note === 'currency conversion EUR/USD for this trade')
      .map((t) => `${t.type} ${'amount' in t ? t.amount : ''} ${t.currency}`);
    expect(legs.sort()).toEqual(['deposit 200 USD', 'withdrawal 182 EUR']);
  });

  it('reads GBX prices of a GBP account as pence', () => {
    const parsed = parseBrokerCsv(text('trading212-gbp'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const buy = parsed.transactions.find((t) => t.type === 'buy');
    expect(buy).toMatchObject({ price: '25', currency: 'GBP', quantity: '10' });
  });
  it('reads Baader Bank turnover rows by their field codes, and fails on a kind it does not know', () => {
    const parsed = parseBrokerCsv(text('scalable-capital-baader'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.format).toBe('scalable-capital-baader');
    const sale = parsed.transactions.find((t) => t.type === 'sell');
    expect(sale).toMatchObject({ quantity: '4', price: '60', currency: 'EUR' });
    expect(sale?.executedAt.slice(0, 10)).toBe('2024-02-03');
    const unknown = `${text('scalable-capital-baader')}\n20240304;10000000;1,00;EUR;5;IE00B4L5Y983;Einbuchung;r-4;`;
    expect(parseBrokerCsv(unknown).ok).toBe(false);
  });
  it('reads the 2021 Trading 212 header (Result and Charge amount, no withholding tax columns)', () => {
    const file = [
      'Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result (EUR),Total (EUR),Charge amount (EUR),Notes,ID',
      'Deposit,2021-03-01 09:00:00,,,,,,,,,500.00,,,d-1',
      'Market buy,2021-03-02 10:00:00,IE00B4L5Y983,EUNL,iShares Core MSCI World,5,60.00,EUR,1.00,,300.00,,,EOF1',
      'Dividend (Ordinary),2021-06-02 10:00:00,IE00B4L5Y983,EUNL,iShares Core MSCI World,5,0.20,EUR,1.00,,1.00,,,',
    ].join('\n');
    const parsed = parseBrokerCsv(file);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.format).toBe('trading212-eur');
    expect(parsed.transactions.map((t) => `${t.type} ${t.currency}`)).toEqual([
      'deposit EUR',
      'buy EUR',
      'dividend EUR',
    ]);
  });
});
