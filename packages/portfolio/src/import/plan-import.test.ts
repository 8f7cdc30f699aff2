import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec } from '../decimal.js';
import type { NewTransaction } from '../transaction.js';
import type { ImportedRow } from './parse-broker-csv.js';
import { fingerprintRows, planImport } from './plan-import.js';

const SYMBOLS = ['AAA', 'BBB'] as const;
const CURRENCIES = ['EUR', 'USD'] as const;
/** Three instants only, so that many transactions share a timestamp. */
const TIMES = ['2024-01-01T10:00:00.000Z', '2024-01-02T10:00:00.000Z', '2024-01-03T10:00:00.000Z'];

const amount = fc.integer({ min: 1, max: 100_000 }).map((n) => new Dec(n).div(100).toFixed());
const quantity = fc.integer({ min: 1, max: 500 }).map((n) => new Dec(n).div(10).toFixed());

const transaction: fc.Arbitrary<NewTransaction> = fc.oneof(
  fc.record({
    type: fc.constantFrom('buy' as const, 'sell' as const),
    symbol: fc.constantFrom(...SYMBOLS),
    quantity,
    price: amount,
    currency: fc.constantFrom(...CURRENCIES),
    executedAt: fc.constantFrom(...TIMES),
  }),
  fc.record({
    type: fc.constantFrom('deposit' as const, 'withdrawal' as const, 'fee' as const),
    amount,
    currency: fc.constantFrom(...CURRENCIES),
    executedAt: fc.constantFrom(...TIMES),
  }),
  fc.record({
    type: fc.constant('dividend' as const),
    symbol: fc.constantFrom(...SYMBOLS),
    amount,
    currency: fc.constantFrom(...CURRENCIES),
    executedAt: fc.constantFrom(...TIMES),
  }),
);

/** A file: transactions on lines 2, 3, … */
const toRows = (txs: readonly NewTransaction[]): ImportedRow[] =>
  txs.map((transaction, i) => ({ line: i + 2, index: 0, transaction }));

/** Units bought minus units sold per symbol and currency, as the sequence says. */
function expectedQuantities(txs: readonly NewTransaction[]): Map<string, Dec> {
  const units = new Map<string, Dec>();
  for (const tx of txs) {
    if (tx.type !== 'buy' && tx.type !== 'sell') continue;
    const key = `${tx.symbol} ${tx.currency}`;
    const delta = new Dec(tx.quantity).times(tx.type === 'buy' ? 1 : -1);
    units.set(key, (units.get(key) ?? new Dec(0)).plus(delta));
  }
  return units;
}

/** Σ cash effects per currency of what was planned. */
function expectedCash(txs: readonly NewTransaction[]): Map<string, Dec> {
  const cash = new Map<string, Dec>();
  for (const tx of txs) {
    let delta: Dec;
    if (tx.type === 'buy' || tx.type === 'sell') {
      const gross = new Dec(tx.quantity).times(tx.price);
      const fee = new Dec(tx.fee ?? 0);
      delta = tx.type === 'buy' ? gross.plus(fee).neg() : gross.minus(fee);
    } else if ('amount' in tx) {
      const sign = tx.type === 'deposit' || tx.type === 'dividend' ? 1 : -1;
      delta = new Dec(tx.amount).times(sign);
    } else {
      continue;
    }
    cash.set(tx.currency, (cash.get(tx.currency) ?? new Dec(0)).plus(delta));
  }
  return cash;
}

describe('planImport (property)', () => {
  it('quantities are buys − sells and cash reconciles per currency, in any order of equal timestamps', () => {
    fc.assert(
      fc.property(
        fc.array(transaction, { minLength: 1, maxLength: 40 }),
        fc.infiniteStream(fc.nat()),
        (txs, randoms) => {
          // only sales covered by purchases at or before their instant: no cash-only adjustment
          const valid = txs.filter((tx, i) => {
            if (tx.type !== 'sell') return true;
            const held = expectedQuantities(
              txs.filter(
                (o, j) =>
                  j !== i &&
                  (o.type === 'buy' || o.type === 'sell') &&
                  o.symbol === tx.symbol &&
                  o.currency === tx.currency &&
                  (o.executedAt < tx.executedAt ||
                    (o.executedAt === tx.executedAt && o.type === 'buy')),
              ),
            ).get(`${tx.symbol} ${tx.currency}`);
            return (held?.gte(tx.quantity) ?? false) && txs.indexOf(tx) === i;
          });
          // a second file: the same transactions, shuffled (ties at one instant in any order)
          const keys = valid.map(() => randoms.next().value as number);
          const shuffled = valid
            .map((tx, i) => ({ tx, key: keys[i] ?? 0 }))
            .sort((a, b) => a.key - b.key)
            .map((x) => x.tx);
          const plans = [valid, shuffled].map((file) =>
            planImport({
              existing: [],
              existingFingerprints: new Set(),
              rows: fingerprintRows('test', toRows(file)),
              oversell: 'reject',
            }),
          );
          for (const plan of plans) {
            if (!plan.ok) {
              // sales at one instant may together exceed what the earlier instants bought
              expect(plan.errors[0]?.message).toMatch(/are held then/);
              continue;
            }
            const quantities = expectedQuantities(valid);
            for (const h of plan.after.holdings) {
              expect(h.quantity).toBe(quantities.get(`${h.symbol} ${h.currency}`)?.toFixed());
            }
            const held = [...quantities].filter(([, q]) => !q.isZero()).length;
            expect(plan.after.holdings).toHaveLength(held);
            const cash = expectedCash(plan.transactions.map((p) => p.transaction));
            for (const c of plan.after.cash) expect(c.amount).toBe(cash.get(c.currency)?.toFixed());
            expect(plan.after.cash).toHaveLength(
              [...cash.values()].filter((v) => !v.isZero()).length,
            );
          }
          // the order of the file does not change the outcome
          expect(plans[1]).toEqual(
            plans[0]?.ok && plans[1]?.ok
              ? { ...plans[0], transactions: expect.any(Array) }
              : expect.objectContaining({ ok: plans[0]?.ok }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a re-import finds every row present; identical rows in one file stay distinct', () => {
    const buy: NewTransaction = {
      type: 'buy',
      symbol: 'AAA',
      quantity: '1',
      price: '10',
      currency: 'EUR',
      executedAt: TIMES[0] ?? '',
    };
    const rows = fingerprintRows('test', toRows([buy, buy]));
    expect(new Set(rows.map((r) => r.fingerprint)).size).toBe(2);
    const again = planImport({
      existing: [],
      existingFingerprints: new Set(rows.map((r) => r.fingerprint)),
      rows,
    });
    expect(again).toMatchObject({ ok: true, transactions: [], alreadyPresent: 2 });
  });
});
