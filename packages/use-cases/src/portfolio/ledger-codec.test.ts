import { type NewTransaction, Transaction } from '@svc/portfolio';
import type { Transaction as StoredTransaction } from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { decodeTransaction, encodeTransaction, toLedgerTransaction } from './ledger-codec.js';

const at = '2024-03-01T15:00:00.000Z';

/** A stored row as the repository would return it for the encoded input. */
function stored(tx: NewTransaction, instrument?: Instrument): StoredTransaction {
  const row = encodeTransaction(tx, instrument);
  return {
    id: '00000000-0000-4000-8000-000000000001',
    portfolioId: '00000000-0000-4000-8000-000000000002',
    type: row.type,
    symbol: row.symbol ?? null,
    quantity: row.quantity ?? null,
    price: row.price ?? null,
    fee: row.fee ?? null,
    amount: row.amount ?? null,
    ratio: row.ratio ?? null,
    currency: row.currency,
    executedAt: String(row.executedAt),
    note: row.note ?? null,
    importBatchId: null,
    fingerprint: null,
    name: null,
    instrument: row.instrument ?? null,
  };
}

describe('ledger codec', () => {
  it.each<[string, NewTransaction, Record<string, string | null>]>([
    [
      'buy',
      {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '10',
        price: '150',
        fee: '1',
        currency: 'USD',
        executedAt: at,
      },
      { quantity: '10', price: '150', fee: '1', amount: null, ratio: null },
    ],
    [
      'dividend',
      { type: 'dividend', symbol: 'AAPL', amount: '2.4', currency: 'USD', executedAt: at },
      { quantity: null, price: null, fee: null, amount: '2.4', ratio: null },
    ],
    [
      'deposit',
      { type: 'deposit', amount: '1000', currency: 'EUR', executedAt: at, note: 'salary' },
      { quantity: null, price: null, amount: '1000', ratio: null, note: 'salary' },
    ],
    [
      'split',
      { type: 'split', symbol: 'AAPL', ratio: '4', currency: 'USD', executedAt: at },
      { quantity: null, price: null, amount: null, ratio: '4' },
    ],
  ])('stores a %s field by field in its own column', (_type, tx, columns) => {
    const row = stored(tx);
    expect(row).toMatchObject(columns);
    // REST writes the decoded row without a zod pass (mapperAnswers): exactly a Transaction
    const decoded = decodeTransaction(row);
    expect(Transaction.strict().parse(decoded)).toEqual(decoded);
  });

  it('decodes to the input, fields absent (not null) when unused', () => {
    const split: NewTransaction = {
      type: 'split',
      symbol: 'AAPL',
      ratio: '4',
      currency: 'USD',
      executedAt: at,
    };
    const decoded = decodeTransaction(stored(split));
    expect(decoded).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      portfolioId: '00000000-0000-4000-8000-000000000002',
      ...split,
      // a row stored before instruments: shown unresolved, saying why
      instrument: {
        currency: 'USD',
        kind: 'other',
        resolution: 'unresolved',
        unresolvedReason: expect.stringContaining('before instruments'),
      },
    });
    expect('quantity' in decoded).toBe(false);
    expect(toLedgerTransaction(stored(split))).not.toHaveProperty('portfolioId');
    expect(toLedgerTransaction(stored(split))).not.toHaveProperty('instrument');
  });

  it('stores the resolved instrument and answers it with the transaction', () => {
    const apple: Instrument = {
      isin: 'US0378331005',
      ticker: 'AAPL',
      currency: 'USD',
      kind: 'share',
      cik: '0000320193',
      resolution: 'export',
    };
    const tx: NewTransaction = {
      type: 'dividend',
      symbol: 'AAPL',
      amount: '1',
      currency: 'USD',
      executedAt: at,
    };
    expect(encodeTransaction(tx, apple).instrument).toEqual(apple);
    expect(encodeTransaction(tx)).not.toHaveProperty('instrument');
    expect(decodeTransaction(stored(tx, apple)).instrument).toEqual(apple);
    expect(
      decodeTransaction(stored({ type: 'deposit', amount: '1', currency: 'EUR', executedAt: at })),
    ).not.toHaveProperty('instrument');
  });
});
