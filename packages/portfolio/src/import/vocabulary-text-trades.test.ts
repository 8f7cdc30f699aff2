import { describe, expect, it } from 'vitest';
import { readTradePattern } from './generic/trade-pattern.js';
import type { ColumnMapping } from './mapping.js';
import { lines, readersOf } from './vocabulary.test-support.js';

// The parts of the definition vocabulary added to express DEGIRO's account statement as data
// (issue 40): a trade read from a text cell by a pattern with named groups, row kinds that depend
// on the amount's sign, the row kind's tag in the broker id, a trade without an instrument
// refused, continuation lines. Each on a few hand-made rows.

const TRADE = String.raw`^(?<side>kopen|verkopen)\s+(?<quantity>[\d.,]+)[^@]*@\s*(?<price>[\d.,]+)\s+(?<currency>[A-Z]{3})`;

const BASE: ColumnMapping = {
  delimiter: ';',
  columns: {
    date: 'Date',
    isin: 'Isin',
    action: 'Text',
    details: 'Text',
    amount: 'Amount',
    currency: 'Ccy',
    id: 'Ref',
  },
  dateOrder: 'ymd',
  decimal: ',',
  instrument: 'isin',
  actions: {},
  detailsPattern: TRADE,
  sides: { kopen: 'buy', verkopen: 'sell' },
  impliedFee: false,
  actionPatterns: [
    { pattern: '^(kopen|verkopen) ', kind: 'trade', tag: 'trade' },
    { pattern: 'costs', when: 'negative', kind: 'fee', tag: 'fee' },
    { pattern: 'exchange', when: 'positive', kind: 'cash', tag: 'fx-in' },
    { pattern: 'exchange', kind: 'cash', tag: 'fx-out' },
    { pattern: 'deposit', kind: 'cash' },
    { pattern: '^', kind: 'skip' },
  ],
  idTemplate: '{id}:{tag}',
};

const { parse, read } = readersOf(BASE);

const HEADER = 'Date;Isin;Text;Amount;Ccy;Ref';

describe('readTradePattern', () => {
  const sides = new Map<string, 'buy' | 'sell'>([
    ['kopen', 'buy'],
    ['verkopen', 'sell'],
  ]);

  it('reads quantity, price, currency and side from the named groups', () => {
    expect(readTradePattern('Kopen 1.000,5 ACME NV@ 12,25 EUR', TRADE, ',', sides)).toEqual({
      side: 'buy',
      quantity: '1000.5',
      price: '12.25',
      currency: 'EUR',
    });
  });

  it('reads a price in pence (GBX) as pounds', () => {
    expect(readTradePattern('verkopen 4 AVIVA@496 GBX', TRADE, ',', sides)).toEqual({
      side: 'sell',
      quantity: '4',
      price: '4.96',
      currency: 'GBP',
    });
  });

  it('gives no side for a word the sides do not list, no currency for a code that is none', () => {
    const pattern = String.raw`(?<side>\w+) (?<quantity>\d+) @ (?<price>\d+) (?<currency>\w{3})`;
    expect(readTradePattern('swap 3 @ 7 XYZ', pattern, '.', sides)).toEqual({
      quantity: '3',
      price: '7',
    });
  });

  it('holds no trade when the pattern does not match, lacks a group or does not compile', () => {
    expect(readTradePattern('Dividend', TRADE, ',', sides)).toBeUndefined();
    expect(readTradePattern('kopen 3 @ 7 EUR', String.raw`(?<quantity>\d+)`, ',')).toBeUndefined();
    expect(readTradePattern('kopen 3 @ 7 EUR', '(?<quantity>', ',')).toBeUndefined();
  });
});

describe('the definition vocabulary of text trades, signs and tags', () => {
  const FILE = lines(
    HEADER,
    '2024-01-02;NL0000009165;Kopen 3 HEINEKEN@ 80,5 EUR;-241,50;EUR;r-1',
    '2024-01-02;NL0000009165;Transaction costs;-2,00;EUR;r-1',
    '2024-01-03;NL0000009165;Transaction costs;1,00;EUR;r-2',
    '2024-01-04;;Exchange;10,00;USD;r-3',
    '2024-01-04;;Exchange;-9,20;EUR;r-3',
    '2024-01-05;;Deposit;100;EUR;r-4',
  );

  it('reads a trade from the text cell by the pattern: the text price, not amount ÷ quantity', () => {
    const { rows } = read(FILE);
    expect(rows[0]?.transaction).toEqual({
      type: 'buy',
      symbol: 'NL0000009165',
      quantity: '3',
      price: '80.5',
      currency: 'EUR',
      executedAt: '2024-01-02T00:00:00.000Z',
    });
  });

  it('gives a row the kind of the first pattern whose sign condition its amount meets', () => {
    const result = read(FILE);
    // line 3: negative costs → fee; line 4: positive costs → none of the costs patterns → skip
    expect(result.rows.find((r) => r.line === 3)?.transaction).toMatchObject({
      type: 'fee',
      amount: '2',
    });
    expect(result.skipped.map((s) => s.line)).toEqual([4]);
    expect(
      result.rows.filter((r) => r.line === 5 || r.line === 6).map((r) => r.transaction),
    ).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '10', currency: 'USD' }),
      expect.objectContaining({ type: 'withdrawal', amount: '9.2', currency: 'EUR' }),
    ]);
  });

  it("writes the pattern's tag into the broker id; a row of an untagged pattern has none", () => {
    expect(read(FILE).rows.map((r) => [r.line, r.externalId])).toEqual([
      [2, 'r-1:trade'],
      [3, 'r-1:fee'],
      [5, 'r-3:fx-in'],
      [6, 'r-3:fx-out'],
      [7, undefined],
    ]);
  });

  it('refuses a trade without an instrument when told to, skips it by default', () => {
    const text = lines(HEADER, '2024-01-02;;Kopen 3 X@ 8 EUR;-24;EUR;r-9');
    const refused = parse(text, { noInstrument: 'error' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.errors.map((e) => e.line)).toEqual([2]);
    expect(read(text).skipped.map((s) => s.line)).toEqual([2]);
  });

  it("joins a continuation line to the previous row's last cell", () => {
    const text = lines(
      HEADER,
      '2024-01-02;NL0000009165;Kopen 1 HEINEKEN@ 80 EUR;-80;EUR;5925d76b-',
      ';;;;;b017',
      '2024-01-02;NL0000009165;Transaction costs;-1;EUR;5925d76b-b017',
    );
    const joined = read(text, { continuation: true });
    expect(joined.rows.map((r) => [r.line, r.externalId])).toEqual([
      [2, '5925d76b-b017:trade'],
      [4, '5925d76b-b017:fee'],
    ]);
    // without it the wrapped line is a row of its own (skipped) and the trade keeps a cut id
    const apart = read(text);
    expect(apart.rows[0]?.externalId).toBe('5925d76b-:trade');
    expect(apart.skipped.map((s) => s.line)).toEqual([3]);
  });
});
