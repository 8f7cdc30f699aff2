import { describe, expect, it } from 'vitest';
import { lines, readersOf, vocabularyMapping } from './vocabulary.test-support.js';

// Interest rows keep their sign: received interest is cash in, interest paid (a negative amount,
// e.g. Nordnet's DEBITRENTE or a margin loan's interest) is a cost. Before, both were read as a
// deposit of the amount's size.

describe('interest by the sign of its amount', () => {
  const { read } = readersOf(
    vocabularyMapping({
      columns: { amount: 'Amount' },
      actions: { deposit: 'deposit' },
      actionPatterns: [{ pattern: 'rente', kind: 'interest' }],
    }),
  );
  const text = lines(
    'Date,Kind,Amount,Ccy',
    '2024-01-02,deposit,1000,DKK',
    '2024-01-31,INDLÅNSRENTE,4.20,DKK',
    '2024-02-29,DEBITRENTE,-12.75,DKK',
  );

  it('reads interest received as cash in and interest paid as a fee', () => {
    expect(read(text).transactions.slice(1)).toEqual([
      expect.objectContaining({
        type: 'deposit',
        amount: '4.2',
        currency: 'DKK',
        note: 'interest',
      }),
      expect.objectContaining({
        type: 'fee',
        amount: '12.75',
        currency: 'DKK',
        note: 'interest paid: DEBITRENTE',
      }),
    ]);
  });
});
