import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../../src/index.js';
import { FIXTURES } from './fixtures.js';

// What the generic fixture test does not pin: how each of these layouts' particular columns are
// read (the currency of Nordnet's Summa, Rabobank's net dividends, ING's two files, Consorsbank's
// order statuses), and that what their sources do not document is refused rather than guessed.

const fixture = (id: string) => {
  const f = FIXTURES[id];
  if (!f) throw new Error(`no fixture ${id}`);
  return f.text;
};
const read = (text: string) => {
  const parsed = parseBrokerCsv(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed;
};

const FI_HEADER = fixture('nordnet-fi').split('\n')[0] ?? '';

describe('Nordnet Finland', () => {
  it("books Summa in the currency of the Valuutta after it, not the costs' Valuutta", () => {
    // a deposit into the USD account: the costs' currency (position 12) is empty
    const text = [
      FI_HEADER,
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tTALLETUS\t\t\t\t\t\t\t\t250\tUSD\t\t\t\t\t\t250\t\tTALLETUS\t\t\t111\t\t\t\t',
      '2\t2024-01-03\t2024-01-03\t2024-01-05\t123\tOSTO\tApple Inc\tUS0378331005\t1\t200\t0\t1\tUSD\t-201\tUSD\t201\tUSD\t0\tUSD\t1\t49\t\t\t\t222\t222\t1\tUSD\t\t',
    ].join('\n');
    const parsed = read(text);
    expect(parsed.format).toBe('nordnet-fi');
    expect(parsed.transactions).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '250', currency: 'USD' }),
      expect.objectContaining({
        type: 'buy',
        symbol: 'US0378331005',
        quantity: '1',
        price: '200',
        fee: '1',
        currency: 'USD',
      }),
    ]);
  });

  it('reads withholding tax as a fee beside the gross dividend', () => {
    const types = read(fixture('nordnet-fi')).transactions.map((t) =>
      t.type === 'fee' ? `fee ${t.amount} ${t.note ?? ''}` : t.type,
    );
    expect(types).toEqual([
      'deposit',
      'buy',
      'sell',
      'dividend',
      'fee 1.5 tax: ENNAKKOPIDÄTYS',
      'fee 2 LAINAKORKO',
      'withdrawal',
    ]);
  });

  it('reads the older layout (Instrumenttityyppi, Kokonaiskulut Valuutta) with its own entry', () => {
    const older = [
      'Id\tKirjauspäivä\tKauppapäivä\tMaksupäivä\tSalkku\tTapahtumatyyppi\tArvopaperi\tInstrumenttityyppi\tISIN\tMäärä\tKurssi\tKorko\tKokonaiskulut\tKokonaiskulut Valuutta\tSumma\tValuutta',
      '1\t2021-08-18\t2021-08-18\t2021-08-20\t123\tOSTO\tK\tAktier\tCA4969024047\t450\t7,3\t0\t29,6\tCAD\t-3 314,6\tCAD',
    ].join('\n');
    const parsed = read(older);
    expect(parsed.format).toBe('nordnet-fi-2021');
    expect(parsed.transactions).toEqual([
      expect.objectContaining({
        type: 'buy',
        quantity: '450',
        price: '7.3',
        fee: '29.6',
        currency: 'CAD',
      }),
    ]);
  });
});

describe('Rabobank', () => {
  it('reads units, price and costs of trades, and books the dividend net', () => {
    const parsed = read(fixture('rabobank'));
    expect(parsed.format).toBe('rabobank');
    const [deposit, buy, sell, dividend] = parsed.transactions;
    expect(deposit).toMatchObject({ type: 'deposit', amount: '1000', currency: 'EUR' });
    expect(buy).toMatchObject({ type: 'buy', quantity: '10', price: '50', fee: '1' });
    expect(sell).toMatchObject({ type: 'sell', quantity: '4', price: '60', fee: '1' });
    expect(dividend).toMatchObject({ type: 'dividend', symbol: 'NL0014065450', amount: '5.1' });
    expect(parsed.rows[1]).toMatchObject({ isin: 'NL0014065450' });
  });
});

describe('ING NL', () => {
  const [header = '', buy = ''] = fixture('ing-nl-portfolio').split('\n');

  it('refuses a type code its source does not document instead of guessing it', () => {
    const sale = buy.replace('\t10\tK\t', '\t-4\tV\t');
    const parsed = parseBrokerCsv([header, buy, sale].join('\n'));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors[0]?.message).toMatch(/action "V" has no meaning/);
  });

  it('skips, with a reason, a trade whose amount is not in euro', () => {
    const dollars = buy.replace('\t€\t501,00\t', '\t$\t501,00\t');
    const parsed = read([header, buy, dollars].join('\n'));
    expect(parsed.transactions).toHaveLength(1);
    expect(parsed.skipped).toEqual([{ line: 3, message: expect.stringContaining('not in euro') }]);
  });

  it('reads the dividend gross with its tax as a fee, and leaves trades out of the cash file', () => {
    const units = read(fixture('ing-nl-portfolio')).transactions;
    expect(units.filter((t) => t.type !== 'buy')).toEqual([
      expect.objectContaining({ type: 'dividend', amount: '10' }),
      expect.objectContaining({ type: 'fee', amount: '1.5', note: 'withholding tax' }),
    ]);
    const cash = read(fixture('ing-nl-cash'));
    expect(cash.format).toBe('ing-nl-cash');
    expect(cash.skipped).toHaveLength(1);
    expect(cash.skipped[0]?.line).toBe(3);
  });
});

describe('Consorsbank', () => {
  it('reads executed orders with two-digit years, and skips the others with a reason', () => {
    const parsed = read(fixture('consorsbank'));
    expect(parsed.format).toBe('consorsbank');
    expect(parsed.transactions.map((t) => [t.type, t.executedAt.slice(0, 10)])).toEqual([
      ['sell', '2024-03-05'],
      ['buy', '2024-03-01'],
      ['buy', '2024-01-15'],
    ]);
    expect(parsed.skipped).toEqual([{ line: 6, message: 'order not executed' }]);
  });
});
