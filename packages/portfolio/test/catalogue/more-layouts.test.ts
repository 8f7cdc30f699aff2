import { describe, expect, it } from 'vitest';
import { recogniseAll } from '../../src/import/definitions/catalogue/index.js';
import { parseBrokerCsv } from '../../src/index.js';
import { MORE_FIXTURES } from './more-fixtures.js';

const text = (id: string) => MORE_FIXTURES[id]?.text ?? '';

describe('other layouts of catalogued brokers (catalogue/more-layouts)', () => {
  it('leaves the newer DEGIRO transactions layout (AutoFX Fee, Total EUR) to no entry', () => {
    const header =
      'Date,Time,Product,ISIN,Reference exchange,Venue,Quantity,Price,,Local value,,Value EUR,Exchange rate,AutoFX Fee,Transaction and/or third party fees EUR,Total EUR,Order ID,';
    const row =
      '05-02-2024,15:31,APPLE INC.,US0378331005,NDQ,XNAS,2,100.0000,USD,-200.00,USD,-182.00,1.0990,-0.46,-0.50,-182.96,o-3,';
    expect(recogniseAll(`${header}\n${row}`)).toEqual([]);
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
});
