import type { LedgerTransaction, NewTransaction, Transaction } from '@svc/portfolio';
import type {
  NewTransaction as StoredNewTransaction,
  Transaction as StoredTransaction,
} from '@svc/portfolio-store';

/**
 * Maps a validated domain transaction to the columns of `@svc/portfolio-store`, one field per
 * column: `quantity`, `price` and `fee` for a buy or sell, `amount` for a dividend, deposit,
 * withdrawal or fee, `ratio` for a split (columns of migration `0002-transaction-amount-ratio`).
 * Fields a type does not use are stored as null.
 */
export function encodeTransaction(tx: NewTransaction): StoredNewTransaction {
  const base = {
    type: tx.type,
    currency: tx.currency,
    executedAt: tx.executedAt,
    note: tx.note ?? null,
    symbol: tx.symbol ?? null,
  };
  switch (tx.type) {
    case 'buy':
    case 'sell':
      return { ...base, quantity: tx.quantity, price: tx.price, fee: tx.fee ?? null };
    case 'dividend':
    case 'deposit':
    case 'withdrawal':
    case 'fee':
      return { ...base, amount: tx.amount };
    case 'split':
      return { ...base, ratio: tx.ratio };
  }
}

/**
 * Maps a stored row back to the contract's `Transaction` (CONTRACT §4): a field is present when
 * its column holds a value and absent (not null) otherwise.
 */
export function decodeTransaction(row: StoredTransaction): Transaction {
  const tx: Transaction = {
    id: row.id,
    portfolioId: row.portfolioId,
    type: row.type,
    currency: row.currency,
    executedAt: row.executedAt,
  };
  if (row.symbol !== null) tx.symbol = row.symbol;
  if (row.quantity !== null) tx.quantity = row.quantity;
  if (row.price !== null) tx.price = row.price;
  if (row.fee !== null) tx.fee = row.fee;
  if (row.amount !== null) tx.amount = row.amount;
  if (row.ratio !== null) tx.ratio = row.ratio;
  if (row.note !== null) tx.note = row.note;
  return tx;
}

/** A stored row as `deriveHoldings` reads it (a `Transaction` without `portfolioId`). */
export function toLedgerTransaction(row: StoredTransaction): LedgerTransaction {
  const { portfolioId: _portfolioId, ...ledger } = decodeTransaction(row);
  return ledger;
}
