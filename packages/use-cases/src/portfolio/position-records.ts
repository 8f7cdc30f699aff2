import type { CashPosition, Holding, ValuedPortfolio } from '@svc/portfolio';
import type {
  NewCashPosition,
  NewHolding,
  CashPosition as StoredCash,
  Holding as StoredHolding,
} from '@svc/portfolio-store';

/** The store's rows for the valued positions of one portfolio (`replaceForPortfolio` input). */
export function toStoredPositions(valued: ValuedPortfolio): {
  holdings: NewHolding[];
  cash: NewCashPosition[];
} {
  return {
    holdings: valued.holdings.map((h) => ({
      symbol: h.symbol,
      name: h.name,
      quantity: h.quantity,
      averageCost: h.averageCost,
      currency: h.currency,
      lastPrice: h.lastPrice,
      marketValue: h.marketValue,
      marketValueEur: h.marketValueEur,
      costBasisEur: h.costBasisEur,
      unrealizedPnlEur: h.unrealizedPnlEur,
      weight: h.weight,
      valuedAt: h.valuedAt,
    })),
    cash: valued.cash.map((c) => ({
      currency: c.currency,
      amount: c.amount,
      amountEur: c.amountEur,
      valuedAt: c.valuedAt,
    })),
  };
}

/**
 * A stored holding as the contract publishes it. Rows are only written by the revaluation, which
 * always sets `averageCost` and `valuedAt`; `name` falls back to the symbol.
 *
 * @throws Error when a row lacks `averageCost` or `valuedAt` (written by something else).
 */
export function toHolding(row: StoredHolding): Holding {
  return {
    ...row,
    name: row.name ?? row.symbol,
    averageCost: required(row.averageCost, 'averageCost', row.id),
    valuedAt: required(row.valuedAt, 'valuedAt', row.id),
  };
}

/** A stored cash position as the contract publishes it; see {@link toHolding}. */
export function toCashPosition(row: StoredCash): CashPosition {
  return { ...row, valuedAt: required(row.valuedAt, 'valuedAt', row.id) };
}

function required(value: string | null, field: string, id: string): string {
  if (value === null) throw new Error(`stored position ${id} has no ${field}`);
  return value;
}
