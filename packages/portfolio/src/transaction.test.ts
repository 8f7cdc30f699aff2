import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NewTransaction, Transaction } from './transaction.js';

const base = { currency: 'USD', executedAt: '2024-03-01T14:30:00Z' };

describe('NewTransaction', () => {
  it.each([
    ['buy', { type: 'buy', symbol: 'AAPL', quantity: '10', price: '150.25', fee: '1', ...base }],
    ['sell at price 0', { type: 'sell', symbol: 'AAPL', quantity: '0.5', price: '0', ...base }],
    ['dividend', { type: 'dividend', symbol: 'KO', amount: '0.44', ...base }],
    ['deposit', { type: 'deposit', amount: '1000', ...base }],
    ['fee with symbol', { type: 'fee', symbol: 'AAPL', amount: '2.5', ...base }],
    ['split', { type: 'split', symbol: 'TSLA', ratio: '3', ...base }],
    [
      'offset time',
      { type: 'deposit', amount: '1', currency: 'EUR', executedAt: '2024-03-01T14:30:00+01:00' },
    ],
  ])('accepts a %s', (_name, input) => {
    expect(NewTransaction.safeParse(input).success).toBe(true);
  });

  it.each([
    ['buy without symbol', { type: 'buy', quantity: '1', price: '1', ...base }, 'symbol'],
    [
      'buy with quantity 0',
      { type: 'buy', symbol: 'X', quantity: '0', price: '1', ...base },
      'quantity',
    ],
    [
      'buy with negative price',
      { type: 'buy', symbol: 'X', quantity: '1', price: '-1', ...base },
      'price',
    ],
    [
      'quantity that is not a number',
      { type: 'buy', symbol: 'X', quantity: 'str', price: '1', ...base },
      'quantity',
    ],
    [
      'fee that is not a number',
      { type: 'buy', symbol: 'X', quantity: '1', price: '1', fee: 'NaN', ...base },
      'fee',
    ],
    ['amount that is not a number', { type: 'deposit', amount: 'Infinity', ...base }, 'amount'],
    [
      'quantity as JSON number',
      { type: 'buy', symbol: 'X', quantity: 1, price: '1', ...base },
      'quantity',
    ],
    [
      'exponent notation',
      { type: 'buy', symbol: 'X', quantity: '1e2', price: '1', ...base },
      'quantity',
    ],
    ['dividend without symbol', { type: 'dividend', amount: '1', ...base }, 'symbol'],
    ['deposit without amount', { type: 'deposit', ...base }, 'amount'],
    ['withdrawal of 0', { type: 'withdrawal', amount: '0', ...base }, 'amount'],
    ['split without ratio', { type: 'split', symbol: 'X', ...base }, 'ratio'],
    [
      'lower-case currency',
      { type: 'deposit', amount: '1', currency: 'usd', executedAt: base.executedAt },
      'currency',
    ],
    [
      'date only',
      { type: 'deposit', amount: '1', currency: 'USD', executedAt: '2024-03-01' },
      'executedAt',
    ],
    ['unknown type', { type: 'interest', amount: '1', ...base }, 'type'],
    ['unknown key', { type: 'deposit', amount: '1', qty: '1', ...base }, ''],
  ])('rejects %s', (_name, input, path) => {
    const result = NewTransaction.safeParse(input);
    expect(result.success).toBe(false);
    if (path) expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('publishes named JSON schemas for OpenAPI, money as strings', () => {
    const doc = z.toJSONSchema(z.object({ t: Transaction, n: NewTransaction })) as {
      $defs: Record<string, { properties?: Record<string, { type?: string }> }>;
    };
    expect(Object.keys(doc.$defs)).toEqual(
      expect.arrayContaining(['Transaction', 'NewTransaction', 'TransactionType']),
    );
    expect(doc.$defs.Transaction?.properties?.quantity?.type).toBe('string');
  });
});
