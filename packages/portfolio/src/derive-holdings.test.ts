import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveHoldings, type LedgerTransaction } from './derive-holdings.js';
import { PortfolioError } from './errors.js';

let seq = 0;
const at = (day: number) => `2024-01-${String(day).padStart(2, '0')}T10:00:00Z`;
const tx = (
  fields: Partial<LedgerTransaction> & Pick<LedgerTransaction, 'type'>,
): LedgerTransaction => ({
  id: `t${String(++seq).padStart(4, '0')}`,
  currency: 'USD',
  executedAt: at(1),
  ...fields,
});
const buy = (symbol: string, quantity: string, price: string, day: number, fee?: string) =>
  tx({ type: 'buy', symbol, quantity, price, executedAt: at(day), ...(fee ? { fee } : {}) });
const sell = (symbol: string, quantity: string, price: string, day: number, fee?: string) =>
  tx({ type: 'sell', symbol, quantity, price, executedAt: at(day), ...(fee ? { fee } : {}) });
const cash = (type: 'deposit' | 'withdrawal' | 'fee', amount: string, currency = 'USD', day = 1) =>
  tx({ type, amount, currency, executedAt: at(day) });

// Every expected figure below is computed by hand in the comment next to it.
const cases: {
  name: string;
  transactions: LedgerTransaction[];
  holdings: {
    symbol: string;
    currency: string;
    quantity: string;
    averageCost: string;
    costBasis: string;
  }[];
  cash: { currency: string; amount: string }[];
}[] = [
  {
    name: 'buy capitalises the fee into cost',
    // cost = 2 × 150 + 1 = 301; average = 301 / 2 = 150.5; cash = 1000 − 301 = 699
    transactions: [cash('deposit', '1000'), buy('AAPL', '2', '150', 2, '1')],
    holdings: [
      { symbol: 'AAPL', currency: 'USD', quantity: '2', averageCost: '150.5', costBasis: '301' },
    ],
    cash: [{ currency: 'USD', amount: '699' }],
  },
  {
    name: 'sell leaves at average cost; the sell fee only moves cash',
    // buys: 10 × 10 = 100, 5 × 13 + 1 = 66 → 15 units, cost 166, avg 11.0666…
    // sell 6: cost −= 166 × 6 / 15 = 66.4 → 99.6 for 9 units (avg 11.0666…67 at 10 places)
    // cash = −100 − 66 + 6 × 12 − 2 = −96
    transactions: [
      buy('X', '10', '10', 1),
      buy('X', '5', '13', 2, '1'),
      sell('X', '6', '12', 3, '2'),
    ],
    holdings: [
      {
        symbol: 'X',
        currency: 'USD',
        quantity: '9',
        averageCost: '11.0666666667',
        costBasis: '99.6',
      },
    ],
    cash: [{ currency: 'USD', amount: '-96' }],
  },
  {
    name: 'selling everything removes the holding',
    // cash = −3 × 20 + 3 × 25 = 15
    transactions: [buy('X', '3', '20', 1), sell('X', '3', '25', 2)],
    holdings: [],
    cash: [{ currency: 'USD', amount: '15' }],
  },
  {
    name: 'split multiplies quantity and divides average cost',
    // 3 × 100 = 300; ×2 → 6 units at 50; then 1-for-4 reverse (0.25) → 1.5 units at 200
    transactions: [
      buy('X', '3', '100', 1),
      tx({ type: 'split', symbol: 'X', ratio: '2', executedAt: at(2) }),
      tx({ type: 'split', symbol: 'X', ratio: '0.25', executedAt: at(3) }),
    ],
    holdings: [
      { symbol: 'X', currency: 'USD', quantity: '1.5', averageCost: '200', costBasis: '300' },
    ],
    cash: [{ currency: 'USD', amount: '-300' }],
  },
  {
    name: 'cash-only transactions move cash per currency',
    // EUR: 100 − 30 − 2.5 = 67.5; USD: dividend 0.35
    transactions: [
      cash('deposit', '100', 'EUR'),
      cash('withdrawal', '30', 'EUR'),
      cash('fee', '2.5', 'EUR'),
      tx({ type: 'dividend', symbol: 'KO', amount: '0.35' }),
    ],
    holdings: [],
    cash: [
      { currency: 'EUR', amount: '67.5' },
      { currency: 'USD', amount: '0.35' },
    ],
  },
  {
    name: 'decimal arithmetic is exact where binary floating point is not',
    // 0.1 + 0.1 + 0.1 = 0.3 units; cost 3 × 0.1 × 0.2 = 0.06; float would give 0.30000000000000004
    transactions: [buy('X', '0.1', '0.2', 1), buy('X', '0.1', '0.2', 2), buy('X', '0.1', '0.2', 3)],
    holdings: [
      { symbol: 'X', currency: 'USD', quantity: '0.3', averageCost: '0.2', costBasis: '0.06' },
    ],
    cash: [{ currency: 'USD', amount: '-0.06' }],
  },
  {
    name: 'the same symbol in two currencies gives two holdings; zero cash disappears',
    // EUR: deposit 50, buy 1 × 50 → cash 0 (dropped)
    transactions: [
      cash('deposit', '50', 'EUR'),
      buy('X', '2', '10', 2),
      { ...buy('X', '1', '50', 3), currency: 'EUR' },
    ],
    holdings: [
      { symbol: 'X', currency: 'EUR', quantity: '1', averageCost: '50', costBasis: '50' },
      { symbol: 'X', currency: 'USD', quantity: '2', averageCost: '10', costBasis: '20' },
    ],
    cash: [{ currency: 'USD', amount: '-20' }],
  },
];

describe('deriveHoldings', () => {
  it.each(cases)('$name', ({ transactions, holdings, cash: expectedCash }) => {
    expect(deriveHoldings(transactions)).toEqual({ holdings, cash: expectedCash });
  });

  it('replays by executedAt, not by array order', () => {
    const result = deriveHoldings([sell('X', '1', '12', 5), buy('X', '2', '10', 1)]);
    expect(result.holdings).toEqual([
      { symbol: 'X', currency: 'USD', quantity: '1', averageCost: '10', costBasis: '10' },
    ]);
  });

  it('breaks executedAt ties by type (buys before sells), then by id', () => {
    const first = { ...buy('X', '1', '10', 1), id: 'b' };
    const second = { ...sell('X', '1', '10', 1), id: 'a' };
    // the sell's id sorts first, yet the buy at the same instant applies before it
    expect(deriveHoldings([second, first]).holdings).toEqual([]);
    const early = { ...sell('X', '2', '10', 1), id: 'a' };
    const late = { ...buy('X', '1', '10', 1), id: 'b' };
    expect(() => deriveHoldings([late, early])).toThrow(PortfolioError);
  });

  it('compares executedAt as instants across offsets', () => {
    // 10:00+02:00 is 08:00Z, before the 09:00Z sell
    const b = { ...buy('X', '1', '10', 1), executedAt: '2024-01-01T10:00:00+02:00', id: 'z' };
    const s = { ...sell('X', '1', '10', 1), executedAt: '2024-01-01T09:00:00Z', id: 'a' };
    expect(deriveHoldings([s, b]).holdings).toEqual([]);
  });

  it('rejects selling more than held with the transaction id', () => {
    const over = sell('X', '2.5', '10', 2);
    try {
      deriveHoldings([buy('X', '2', '10', 1), over]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PortfolioError);
      expect((error as PortfolioError).code).toBe('insufficient_quantity');
      expect((error as PortfolioError).transactionId).toBe(over.id);
      expect((error as PortfolioError).message).toContain(over.id);
    }
  });

  it.each([
    ['buy without quantity', tx({ type: 'buy', symbol: 'X', price: '1' })],
    ['buy with exponent notation', tx({ type: 'buy', symbol: 'X', quantity: '1e3', price: '1' })],
    ['buy with quantity 0', tx({ type: 'buy', symbol: 'X', quantity: '0', price: '1' })],
    ['buy with negative price', tx({ type: 'buy', symbol: 'X', quantity: '1', price: '-1' })],
    ['sell without symbol', tx({ type: 'sell', quantity: '1', price: '1' })],
    ['deposit without amount', tx({ type: 'deposit' })],
    ['split without ratio', tx({ type: 'split', symbol: 'X' })],
    ['unparsable date', tx({ type: 'deposit', amount: '1', executedAt: 'yesterday' })],
  ])('rejects %s as invalid_transaction', (_name, bad) => {
    expect(() => deriveHoldings([bad])).toThrow(
      expect.objectContaining({ code: 'invalid_transaction', transactionId: bad.id }),
    );
  });
});

const decimal = fc
  .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 4 }))
  .map(([units, scale]) => (units / 10 ** scale).toFixed(scale));
const currency = fc.constantFrom('EUR', 'USD', 'CHF');
const symbol = fc.constantFrom('A', 'B', 'C');
const arbTx = fc.record({
  type: fc.constantFrom('buy', 'sell', 'deposit', 'withdrawal', 'fee', 'dividend', 'split'),
  symbol,
  quantity: decimal,
  price: decimal,
  amount: decimal,
  ratio: fc.constantFrom('2', '3', '0.5'),
  currency,
  day: fc.integer({ min: 1, max: 28 }),
});
const ledger = fc
  .array(arbTx, { maxLength: 30 })
  .map((rows) =>
    rows.map((r, i): LedgerTransaction => ({ ...r, id: `p${i}`, executedAt: at(r.day) })),
  );

function derived(transactions: LedgerTransaction[]) {
  try {
    return deriveHoldings(transactions);
  } catch (error) {
    if (error instanceof PortfolioError && error.code === 'insufficient_quantity') return undefined;
    throw error;
  }
}

describe('deriveHoldings properties', () => {
  it('quantities are always > 0, or the only failure is insufficient_quantity', () => {
    fc.assert(
      fc.property(ledger, (transactions) => {
        const result = derived(transactions);
        if (result === undefined) return;
        for (const h of result.holdings) expect(Number(h.quantity)).toBeGreaterThan(0);
      }),
    );
  });

  it('a deposit then a withdrawal of the same amount leaves cash unchanged', () => {
    fc.assert(
      fc.property(ledger, decimal, currency, (transactions, amount, ccy) => {
        const before = derived(transactions);
        if (before === undefined) return;
        const after = deriveHoldings([
          ...transactions,
          { id: 'zz1', type: 'deposit', amount, currency: ccy, executedAt: at(29) },
          { id: 'zz2', type: 'withdrawal', amount, currency: ccy, executedAt: at(30) },
        ]);
        expect(after).toEqual(before);
      }),
    );
  });

  it('the result does not depend on the order of the input array', () => {
    fc.assert(
      fc.property(ledger, fc.func(fc.integer()), (transactions, rank) => {
        const shuffled = [...transactions].sort((a, b) => rank(a.id) - rank(b.id));
        expect(derived(shuffled)).toEqual(derived(transactions));
      }),
    );
  });

  it('without splits, held quantity is buys minus sells per symbol', () => {
    const trades = ledger.map((txs) => txs.filter((t) => t.type === 'buy' || t.type === 'sell'));
    fc.assert(
      fc.property(trades, (transactions) => {
        const result = derived(transactions);
        if (result === undefined) return;
        const expected = new Map<string, number>();
        for (const t of transactions) {
          const key = `${t.symbol}/${t.currency}`;
          const units = Math.round(Number(t.quantity) * 10_000) * (t.type === 'buy' ? 1 : -1);
          expected.set(key, (expected.get(key) ?? 0) + units);
        }
        const held = Object.fromEntries(
          result.holdings.map((h) => [
            `${h.symbol}/${h.currency}`,
            Math.round(Number(h.quantity) * 10_000),
          ]),
        );
        const nonZero = Object.fromEntries([...expected].filter(([, units]) => units !== 0));
        expect(held).toEqual(nonZero);
      }),
    );
  });
});

describe('deriveHoldings in EUR at each transaction day', () => {
  it('keeps the EUR cost of the purchases and realises P&L in EUR on a sale', () => {
    // day 1: 1 EUR = 1.25 USD; day 2: 1.00; day 3: 1.60
    const rates: Record<string, string> = { '01': '1.25', '02': '1', '03': '1.6' };
    const eurRateOn = (_currency: string, day: string) => rates[day.slice(8, 10)];
    const { holdings } = deriveHoldings(
      [buy('X', '10', '100', 1), buy('X', '10', '100', 2, '5'), sell('X', '5', '160', 3, '8')],
      { eurRateOn },
    );
    // cost EUR: 1000 / 1.25 + 1005 / 1 = 1805 for 20 units; sell 5 → 5/20 leaves at 451.25
    // → 1353.75 left; proceeds (800 − 8) / 1.6 = 495 EUR; realised 495 − 451.25 = 43.75
    expect(holdings).toEqual([
      expect.objectContaining({
        quantity: '15',
        costBasis: '1503.75',
        costBasisEur: '1353.75',
        realizedPnlEur: '43.75',
      }),
    ]);
    // a day without a rate makes the EUR figures unknown, never wrong
    const missing = deriveHoldings([buy('X', '1', '100', 4)], { eurRateOn });
    expect(missing.holdings[0]).toMatchObject({ costBasisEur: null, realizedPnlEur: '0' });
  });
});
