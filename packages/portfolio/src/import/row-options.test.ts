import { describe, expect, it } from 'vitest';
import type { ColumnMapping } from './mapping.js';
import { lines, readersOf, vocabularyMapping } from './vocabulary.test-support.js';

// The row options of the definition vocabulary (row-options.ts), each on hand-made rows.

const { parse, read } = readersOf(
  vocabularyMapping({
    columns: { fee: 'Charge' },
    dateOrder: 'dmy',
    actions: { buy: 'buy', sell: 'sell', dividend: 'dividend', fee: 'fee' },
  }),
);

const HEADER = 'Date,Kind,Code,Units,Price,Charge,Ccy,Source,Remark';

describe('a fee of its own on rows that are no trade (`ownFee`)', () => {
  const FILE = lines(
    HEADER,
    '01-02-2024,dividend,KO,10,0.5,0.25,USD,,',
    '02-02-2024,dividend,KO,0,0.5,0.25,USD,,',
    '03-02-2024,fee,KO,0,0,3,USD,,',
    '04-02-2024,buy,KO,0,60,1.5,USD,,',
    '05-02-2024,buy,KO,0,60,0,USD,,',
    '06-02-2024,buy,KO,2,60,1.5,USD,,',
    '07-02-2024,fee,KO,0,0,0,USD,,',
  );

  it('books a dividend row’s fee apart, a fee row’s fee cell, a trade of quantity 0 as its fee', () => {
    const { rows, skipped } = read(FILE, { ownFee: true });
    expect(rows.map((r) => [r.line, r.transaction])).toEqual([
      [2, expect.objectContaining({ type: 'dividend', symbol: 'KO', amount: '5' })],
      [2, expect.objectContaining({ type: 'fee', symbol: 'KO', amount: '0.25' })],
      [3, expect.objectContaining({ type: 'fee', symbol: 'KO', amount: '0.25' })],
      [4, expect.objectContaining({ type: 'fee', symbol: 'KO', amount: '3' })],
      [5, expect.objectContaining({ type: 'fee', symbol: 'KO', amount: '1.5' })],
      [7, expect.objectContaining({ type: 'buy', quantity: '2', price: '60', fee: '1.5' })],
    ]);
    expect(skipped.map((s) => s.line)).toEqual([6, 8]);
  });

  it('without it, a dividend keeps no fee and a trade of quantity 0 fails the file', () => {
    const result = parse(FILE, {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.line)).toEqual([5, 6]);
    const dividends = read(lines(HEADER, '01-02-2024,dividend,KO,10,0.5,0.25,USD,,'), {});
    expect(dividends.rows.map((r) => r.transaction.type)).toEqual(['dividend']);
  });

  it('fails the file on a fee cell that is no number', () => {
    const result = parse(lines(HEADER, '01-02-2024,dividend,KO,10,0.5,abc,USD,,'), {
      ownFee: true,
    });
    expect(result.ok).toBe(false);
  });
});

describe('rows that name no listed instrument (`unlisted`)', () => {
  const FILE = lines(
    HEADER,
    '01-02-2024,fee,Account fee,0,0,49,USD,MANUAL,',
    '02-02-2024,fee,Custody,0,0,2,USD,manual,yearly',
    '03-02-2024,buy,Flat,1,1000,0,USD,MANUAL,',
    '04-02-2024,buy,KO,1,60,0,USD,YAHOO,',
  );
  const mapping: Partial<ColumnMapping> = {
    ownFee: true,
    unlisted: { column: 'Source', pattern: '^manual$' },
    notes: [{ pattern: '^(fee|buy)$', filled: 'Remark', note: '{Remark}' }],
  };

  it('ties their fees to no instrument, the symbol leading the note; gives no ticker', () => {
    const { rows } = read(FILE, mapping);
    expect(rows.map((r) => r.transaction)).toEqual([
      {
        type: 'fee',
        amount: '49',
        currency: 'USD',
        executedAt: expect.any(String),
        note: 'Account fee',
      },
      {
        type: 'fee',
        amount: '2',
        currency: 'USD',
        executedAt: expect.any(String),
        note: 'Custody: yearly',
      },
      expect.objectContaining({ type: 'buy', symbol: 'Flat', quantity: '1' }),
      expect.objectContaining({ type: 'buy', symbol: 'KO' }),
    ]);
    expect(rows.map((r) => r.ticker)).toEqual([undefined, undefined, undefined, 'KO']);
  });

  it('without it, a fee row names its symbol', () => {
    const { rows } = read(FILE, { ...mapping, unlisted: undefined });
    expect(rows[0]?.transaction).toMatchObject({ symbol: 'Account fee' });
  });
});

describe('notes only where a cell is filled (`notes[].filled`)', () => {
  it('uses the rule when the cell is filled, else the kind’s own note', () => {
    const { rows } = read(
      lines(HEADER, '01-02-2024,buy,KO,1,60,0,USD,,first', '02-02-2024,buy,KO,1,60,0,USD,,'),
      { notes: [{ pattern: '^buy$', filled: 'Remark', note: 'remark: {Remark}' }] },
    );
    expect(rows.map((r) => r.transaction.note)).toEqual(['remark: first', undefined]);
  });
});

describe('quantities written without a sign (`quantitySign`)', () => {
  const FILE = lines(HEADER, '01-02-2024,buy,KO,-1,60,0,USD,,');

  it('refuses a negative quantity on a buy or sell row when `positive`', () => {
    const result = parse(FILE, { quantitySign: 'positive' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.line)).toEqual([2]);
  });

  it('reads the size by default', () => {
    expect(read(FILE, {}).rows[0]?.transaction).toMatchObject({ type: 'buy', quantity: '1' });
  });
});

describe('dates also written year first (`yearFirst`)', () => {
  const FILE = lines(HEADER, '2024-02-01,buy,KO,1,60,0,USD,,', '03.02.2024,buy,KO,1,60,0,USD,,');

  it('reads a year-first date beside the order of the mapping', () => {
    const { rows } = read(FILE, { yearFirst: true });
    expect(rows.map((r) => r.transaction.executedAt)).toEqual([
      '2024-02-01T00:00:00.000Z',
      '2024-02-03T00:00:00.000Z',
    ]);
  });

  it('refuses it without', () => {
    expect(parse(FILE, {}).ok).toBe(false);
  });
});
