import type { LedgerTransaction, NewTransaction, Transaction } from '@svc/portfolio';
import type {
  NewTransaction as StoredNewTransaction,
  Transaction as StoredTransaction,
} from '@svc/portfolio-store';

/**
 * Maps a validated domain transaction to the columns of `@svc/portfolio-store`.
 *
 * The store's `transactions` table has `quantity`, `price` and `fee` columns but none for the
 * `amount` of a dividend/deposit/withdrawal/fee or the `ratio` of a split, so this adapter
 * stores them in the unused numeric columns:
 * - `dividend`, `deposit`, `withdrawal`, `fee`: `amount` → `price` (`quantity` stays null);
 * - `split`: `ratio` → `quantity` (`price` stays null).
 * {@link decodeTransaction} reverses it; nothing else reads these rows.
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
      return { ...base, price: tx.amount };
    case 'split':
      return { ...base, quantity: tx.ratio };
  }
}

/**
 * Maps a stored row back to the contract's `Transaction` (CONTRACT §4): absent, not null, for
 * fields the type does not use; `amount` / `ratio` decoded as described on
 * {@link encodeTransaction}.
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
  if (row.note !== null) tx.note = row.note;
  switch (row.type) {
    case 'buy':
    case 'sell':
      if (row.quantity !== null) tx.quantity = row.quantity;
      if (row.price !== null) tx.price = row.price;
      if (row.fee !== null) tx.fee = row.fee;
      break;
    case 'dividend':
    case 'deposit':
    case 'withdrawal':
    case 'fee':
      if (row.price !== null) tx.amount = row.price;
      break;
    case 'split':
      if (row.quantity !== null) tx.ratio = row.quantity;
      break;
  }
  return tx;
}

/** A stored row as `deriveHoldings` reads it (a `Transaction` without `portfolioId`). */
export function toLedgerTransaction(row: StoredTransaction): LedgerTransaction {
  const { portfolioId: _portfolioId, ...ledger } = decodeTransaction(row);
  return ledger;
}
