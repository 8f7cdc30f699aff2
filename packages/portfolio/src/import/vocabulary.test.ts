import { describe, expect, it } from 'vitest';
import type { FormatDefinition } from './definitions/definition.js';
import type { ColumnMapping } from './mapping.js';
import { parseBrokerCsv } from './parse-broker-csv.js';
import { lines, readersOf } from './vocabulary.test-support.js';

// The parts of the definition vocabulary added to express the first modules' row kinds as data
// (issue 40), each on a few hand-made rows.

const BASE: ColumnMapping = {
  delimiter: ',',
  columns: { date: 'Date', action: 'Type', symbol: 'Symbol', amount: 'Amount', id: 'Id' },
  dateOrder: 'ymd',
  decimal: '.',
  currency: 'USD',
  actions: { dividend: 'dividend', deposit: 'cash', charge: 'charge', fee: 'fee' },
};

const { read } = readersOf(BASE);

describe('the definition vocabulary of the first modules', () => {
  const FILE = lines(
    'Date,Type,Symbol,Amount,Id,Comment',
    '2024-01-02,charge,AAPL,-1.5,7,custody',
    '2024-01-03,charge,,2,-,refund',
    '2024-01-04,dividend,AAPL,-0.4,8,reversal',
    '2024-01-05,deposit,,100,,',
  );

  it('charges by sign: a fee without the instrument, a refund as a deposit', () => {
    const { rows } = read(FILE, {});
    expect(rows.slice(0, 2).map((r) => r.transaction)).toEqual([
      {
        type: 'fee',
        amount: '1.5',
        currency: 'USD',
        executedAt: expect.any(String),
        note: 'charge',
      },
      {
        type: 'deposit',
        amount: '2',
        currency: 'USD',
        executedAt: expect.any(String),
        note: 'charge',
      },
    ]);
  });

  it('writes the broker id from a template; `-` is no id', () => {
    const { rows } = read(FILE, { idTemplate: '{id}:{actionLower}:{executedAt}' });
    expect(rows.map((r) => r.externalId)).toEqual([
      '7:charge:2024-01-02T00:00:00.000Z',
      undefined,
      '8:dividend:2024-01-04T00:00:00.000Z',
      undefined,
    ]);
    // the default stays `{id}|{action}`
    expect(read(FILE, {}).rows[0]?.externalId).toBe('7|charge');
  });

  it('skips or withdraws a negative dividend, as the definition says', () => {
    expect(read(FILE, { negativeDividend: 'skip' }).skipped.map((s) => s.line)).toEqual([4]);
    const withdrawn = read(FILE, { negativeDividend: 'withdrawal' }).rows[2]?.transaction;
    expect(withdrawn).toMatchObject({ type: 'withdrawal', amount: '0.4', note: 'dividend' });
    // without a rule, as before: a dividend of the amount without its sign
    expect(read(FILE, {}).rows[2]?.transaction).toMatchObject({ type: 'dividend', amount: '0.4' });
  });

  it('notes by action and sign, with column placeholders and first-filled alternatives', () => {
    const notes: ColumnMapping['notes'] = [
      { pattern: '^charge$', when: 'negative', note: 'paid: {Comment}' },
      { pattern: '^charge$', note: 'back: {Comment}' },
      { pattern: '^deposit$', note: '{Comment|action}' },
      { pattern: '^dividend$', note: '' },
    ];
    const { rows } = read(FILE, { notes, negativeDividend: 'withdrawal' });
    expect(rows.map((r) => r.transaction.note)).toEqual([
      'paid: custody',
      'back: refund',
      undefined,
      'deposit',
    ]);
  });

  it('takes the part of a cell a pattern names, and the side from it', () => {
    const text = lines(
      'Date,Type,Symbol,Amount,Comment',
      '2024-01-02,trade,AAA,-100.5,OPEN BUY 10/12 @ 10.00',
      '2024-01-03,trade,AAA,60,CLOSE BUY 4 @ 15.00',
    );
    const { rows } = read(text, {
      columns: { ...BASE.columns, side: 'Comment', quantity: 'Comment' },
      extract: {
        side: '^(OPEN|CLOSE)\\s',
        quantity: '^(?:OPEN|CLOSE)\\s+(?:BUY|SELL)\\s+([\\d.]+)',
      },
      sides: { open: 'buy', close: 'sell' },
      actions: { trade: 'trade' },
    });
    expect(rows.map((r) => r.transaction)).toEqual([
      expect.objectContaining({ type: 'buy', quantity: '10', price: '10.05' }),
      expect.objectContaining({ type: 'sell', quantity: '4', price: '15' }),
    ]);
  });

  it("books in the definition's or the account's currency when told to", () => {
    const text = lines('Date,Type,Symbol,Amount,Currency', '2024-01-02,deposit,,5,GBP');
    const columns = { ...BASE.columns, currency: 'Currency' };
    expect(read(text, { columns }).rows[0]?.transaction.currency).toBe('GBP');
    const fixed = read(text, { columns, currencySource: 'mapping' });
    expect(fixed.rows[0]?.transaction.currency).toBe('USD');
    const account = read(text, { columns, currencySource: 'account' }, { accountCurrency: 'PLN' });
    expect(account.rows[0]?.transaction.currency).toBe('PLN');
  });

  it('takes the whole excess as the fee at conversion rate 1 only', () => {
    const text = lines(
      'Date,Type,Symbol,Quantity,Price,Amount,Rate',
      '2024-01-02,buy,AAA,2,10,-20.004,1',
      '2024-01-02,buy,AAA,2,10,-25,0.9',
    );
    const columns = { ...BASE.columns, quantity: 'Quantity', price: 'Price', fxRate: 'Rate' };
    const actions = { buy: 'buy' } as const;
    const whole = read(text, { columns, actions, impliedFee: 'at-rate-1' }).rows;
    expect(whole.map((r) => ('fee' in r.transaction ? r.transaction.fee : undefined))).toEqual([
      '0.004',
      undefined,
    ]);
    // bounded by default: 0.004 is rounding, 5 on 20 is more than 3%
    const bounded = read(text, { columns, actions }).rows;
    expect(bounded.map((r) => ('fee' in r.transaction ? r.transaction.fee : undefined))).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('skips a row only when every cell of a two-cell rule matches', () => {
    const text = lines(
      'Date,Type,Symbol,Amount',
      '2024-01-02,transfer x,AAA,0',
      '2024-01-02,transfer x,,5',
    );
    const { rows, skipped } = read(text, {
      actions: {},
      actionPatterns: [{ pattern: '^transfer', kind: 'cash' }],
      skipRows: [
        {
          column: 'Type',
          pattern: '^transfer',
          and: [{ column: 'Symbol', pattern: '.' }],
          reason: 'position transfer',
        },
      ],
    });
    expect(skipped).toEqual([{ line: 2, message: 'position transfer' }]);
    expect(rows.map((r) => r.line)).toEqual([3]);
  });

  it("reads a definition's column alternatives first-filled, and names on instrument rows only", () => {
    const definition: FormatDefinition = {
      id: 'user-vocabulary',
      label: 'vocabulary',
      version: 1,
      source: { kind: 'user', reference: 'hand-made' },
      recognise: { headers: ['datetime', 'settledate', 'kind', 'what'] },
      read: {
        delimiter: ',',
        columns: {
          date: 'DateTime|SettleDate',
          action: 'Kind',
          amount: 'Amount',
          symbol: 'Symbol',
          name: 'What',
        },
        dateOrder: 'ymd',
        decimal: '.',
        currency: 'USD',
        actions: { dividend: 'dividend', deposit: 'cash' },
        names: 'instrument-rows',
      },
    };
    const text = lines(
      'DateTime,SettleDate,Kind,Amount,Symbol,What',
      '20240105;101500,20240108,dividend,1,AAA,AAA Inc',
      '20240106101500,,dividend,1,AAA,AAA Inc',
      ',20240109,deposit,5,,Jane Doe',
    );
    const result = parseBrokerCsv(text, { definitions: [definition] });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.rows.map((r) => [r.transaction.executedAt, r.name])).toEqual([
      ['2024-01-05T10:15:00.000Z', 'AAA Inc'],
      ['2024-01-06T10:15:00.000Z', 'AAA Inc'],
      ['2024-01-09T00:00:00.000Z', undefined],
    ]);
  });
});

describe('currency conversions and fees in another currency', () => {
  const mapping: Partial<ColumnMapping> = {
    columns: {
      date: 'Date',
      action: 'Class',
      side: 'Side',
      symbol: 'Symbol',
      quantity: 'Quantity',
      price: 'Price',
      amount: 'Money',
      currency: 'Currency',
      fee: 'Commission',
      feeCurrency: 'CommissionCurrency',
    },
    actions: { cash: 'conversion' },
    actionPatterns: [{ pattern: '^', kind: 'trade' }],
    sides: { buy: 'buy', sell: 'sell' },
    noInstrument: 'conversion',
    feeNote: 'commission',
    impliedFee: false,
  };
  const text = lines(
    'Date,Class,Side,Symbol,Quantity,Price,Money,Currency,Commission,CommissionCurrency',
    '2024-01-02,CASH,BUY,CHF.USD,1000,1.17,1170,USD,-2,USD',
    '2024-01-03,,SELL,,-500,1.09,-545,USD,-1.5,EUR',
    '2024-01-04,STK,BUY,SAP,2,180,360,EUR,-1.25,USD',
  );

  it('books a conversion as two legs and its fee; a fee in another currency apart', () => {
    const result = read(text, mapping);
    const byLine = (line: number) =>
      result.rows
        .filter((r) => r.line === line)
        .map((r) => {
          const tx = r.transaction as Record<string, unknown>;
          return `${tx.type} ${tx.amount ?? tx.quantity} ${tx.currency}`;
        });
    expect(byLine(2)).toEqual(['deposit 1000 CHF', 'withdrawal 1170 USD', 'fee 2 USD']);
    // no symbol pair: the base currency is the commission's
    expect(byLine(3)).toEqual(['withdrawal 500 EUR', 'deposit 545 USD', 'fee 1.5 EUR']);
    expect(byLine(4)).toEqual(['buy 2 EUR', 'fee 1.25 USD']);
    expect(
      result.rows.find((r) => r.line === 4 && r.transaction.type === 'fee')?.transaction,
    ).toMatchObject({ symbol: 'SAP', note: 'commission' });
    expect(result.rows[0]?.transaction.note).toBe('currency conversion CHF/USD at 1.17');
    // neither a symbol pair nor a commission currency of its own: the sold currency is unknown
    const unknown = parseBrokerCsv(`${text}\n2024-01-05,,SELL,,-5,1,-5,USD,0,USD`, {
      mapping: { ...BASE, ...mapping },
    });
    expect(unknown).toMatchObject({ ok: false, errors: [{ line: 5 }] });
  });
});
