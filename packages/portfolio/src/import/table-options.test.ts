import { describe, expect, it } from 'vitest';
import type { ColumnMapping } from './mapping.js';
import { lines, readersOf, vocabularyMapping } from './vocabulary.test-support.js';

// The table options of the definition vocabulary (table-options.ts) and the price currency
// (row-options.ts), each on hand-made rows.

const { parse, read } = readersOf(
  vocabularyMapping({
    columns: { amount: 'Amount', id: 'Ref' },
    actions: { buy: 'buy', sell: 'sell', bonus: 'shares', deposit: 'cash' },
    idTemplate: '{id}',
    impliedFee: false,
  }),
);

const HEADER = 'Date,Kind,Code,Units,Price,Amount,Ccy,Ref';

describe('rows written some cells to the right (`shiftedRows`)', () => {
  // the bonus row: an empty cell and its reference where Units belongs, its values after them
  const FILE = lines(
    HEADER,
    '2024-03-01,buy,KO,2,60,120,USD,R1',
    '2024-03-02,bonus,KO,,R2,3,0,,USD',
  );
  const shiftedRows: ColumnMapping['shiftedRows'] = [
    {
      when: [
        { column: '#3', pattern: '^$' },
        { column: '#4', pattern: '^R\\d+$' },
      ],
      at: 3,
      by: 2,
      keep: { position: 4, column: 'Ref' },
    },
  ];

  it('reads each value of a shifted row under its own header, the kept cell in its column', () => {
    const { rows } = read(FILE, { shiftedRows });
    expect(rows.map((r) => [r.line, r.externalId, r.transaction])).toEqual([
      [2, 'R1', expect.objectContaining({ type: 'buy', quantity: '2', price: '60' })],
      [
        3,
        'R2',
        expect.objectContaining({ type: 'buy', quantity: '3', price: '0', currency: 'USD' }),
      ],
    ]);
  });

  it('without the rule, the shifted row is read off its columns and fails the file', () => {
    const result = parse(FILE, {});
    // its currency cell holds the price, 0: no currency
    expect(result.ok === false && result.errors.map((e) => e.line)).toEqual([3]);
  });
});

describe('two rows of one corporate action joined by a key (`pairedRows`)', () => {
  const pairedRows: ColumnMapping['pairedRows'] = [
    {
      first: '^split before$',
      second: '^split after$',
      key: 'Code',
      kind: 'split',
      note: 'split {before} → {after}',
    },
  ];

  it('gives one split of ratio after ÷ before, the first row skipped', () => {
    const { rows, skipped } = read(
      lines(
        HEADER,
        '2024-03-01,split before,NVDA,10,900,,USD,S1',
        '2024-03-01,split before,KO,4,60,,USD,S2',
        '2024-03-02,split after,NVDA,100,90,,USD,S3',
      ),
      { pairedRows },
    );
    expect(skipped.map((s) => s.line)).toEqual([2, 3]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      line: 4,
      externalId: 'S3',
      transaction: {
        type: 'split',
        symbol: 'NVDA',
        ratio: '10',
        currency: 'USD',
        executedAt: '2024-03-02T00:00:00.000Z',
        note: 'split 10 → 100',
      },
    });
  });

  it('fails the file on a second row without its first, or a first of 0', () => {
    const alone = parse(lines(HEADER, '2024-03-02,split after,NVDA,100,90,,USD,S3'), {
      pairedRows,
    });
    expect(alone.ok).toBe(false);
    const zero = parse(
      lines(
        HEADER,
        '2024-03-01,split before,NVDA,0,900,,USD,S1',
        '2024-03-02,split after,NVDA,100,90,,USD,S3',
      ),
      { pairedRows },
    );
    expect(zero.ok === false && zero.errors.map((e) => e.line)).toEqual([3]);
  });
});

describe('a price in another currency than the cash side (`priceCurrency`)', () => {
  const FILE = lines(
    'Date,Kind,Code,Units,Price,PriceCcy,Amount,Ccy,Ref',
    '2024-03-01,buy,KO,2,60,USD,110.5,EUR,R1',
    '2024-03-02,sell,KO,1,61,USD,56.2,EUR,R2',
    '2024-03-03,buy,VOD,100,70,GBX,81.9,EUR,R3',
    '2024-03-04,buy,SAP,1,180,EUR,180,EUR,R4',
    '2024-03-05,deposit,,,,,100,EUR,R5',
  );

  it('books the trade in the price currency and the conversion as two legs', () => {
    const { rows } = read(FILE, { priceCurrency: 'PriceCcy' });
    const at = (line: number) => rows.filter((r) => r.line === line).map((r) => r.transaction);
    const note = (cash: string, trade: string) =>
      `currency conversion ${cash}/${trade} for this trade`;
    expect(at(2)).toEqual([
      expect.objectContaining({ type: 'buy', quantity: '2', price: '60', currency: 'USD' }),
      expect.objectContaining({
        type: 'deposit',
        amount: '120',
        currency: 'USD',
        note: note('EUR', 'USD'),
      }),
      expect.objectContaining({ type: 'withdrawal', amount: '110.5', currency: 'EUR' }),
    ]);
    expect(at(3)).toEqual([
      expect.objectContaining({ type: 'sell', currency: 'USD' }),
      expect.objectContaining({ type: 'withdrawal', amount: '61', currency: 'USD' }),
      expect.objectContaining({ type: 'deposit', amount: '56.2', currency: 'EUR' }),
    ]);
    // pence: the price read as pounds
    expect(at(4)).toEqual([
      expect.objectContaining({ type: 'buy', price: '0.7', currency: 'GBP' }),
      expect.objectContaining({ type: 'deposit', amount: '70', currency: 'GBP' }),
      expect.objectContaining({ type: 'withdrawal', amount: '81.9', currency: 'EUR' }),
    ]);
    // the same currency: no conversion; a cash row in the cash currency
    expect(at(5)).toEqual([expect.objectContaining({ type: 'buy', currency: 'EUR' })]);
    expect(at(6)).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '100', currency: 'EUR' }),
    ]);
  });

  it('without it, the trade is booked in the cash currency', () => {
    const { rows } = read(FILE, {});
    expect(rows.find((r) => r.line === 2)?.transaction).toMatchObject({ currency: 'EUR' });
    expect(rows.filter((r) => r.line === 2)).toHaveLength(1);
  });
});
