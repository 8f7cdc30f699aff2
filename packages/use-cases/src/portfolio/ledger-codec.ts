import type { LedgerTransaction, NewTransaction, Transaction } from '@svc/portfolio';
import type {
  NewTransaction as StoredNewTransaction,
  Transaction as StoredTransaction,
} from '@svc/portfolio-store';
import { type Instrument, isValidIsin } from '@svc/schemas';

/**
 * Maps a validated domain transaction to the columns of `@svc/portfolio-store`, one field per
 * column: `quantity`, `price` and `fee` for a buy or sell, `amount` for a dividend, deposit,
 * withdrawal or fee, `ratio` for a split (columns of migration `0002-transaction-amount-ratio`).
 * Fields a type does not use are stored as null. `instrument`, when given, is the resolved
 * instrument of the transaction's symbol (migration 0019); an edit without it keeps the row's.
 */
export function encodeTransaction(
  tx: NewTransaction,
  instrument?: Instrument | null,
): StoredNewTransaction {
  const base = {
    type: tx.type,
    currency: tx.currency,
    executedAt: tx.executedAt,
    note: tx.note ?? null,
    symbol: tx.symbol ?? null,
    ...(instrument === undefined ? {} : { instrument }),
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
 * its column holds a value and absent (not null) otherwise; `instrument` (unless
 * `withInstrument` is false: the ledger replays do not read it) for every row with a symbol.
 */
export function decodeTransaction(row: StoredTransaction, withInstrument = true): Transaction {
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
  if (withInstrument && row.symbol !== null) {
    tx.instrument = row.instrument ?? pendingInstrument(row.symbol, row.currency, row.name);
  }
  return tx;
}

/** A stored row as `deriveHoldings` reads it (a `Transaction` without `portfolioId`). */
export function toLedgerTransaction(row: StoredTransaction): LedgerTransaction {
  const { portfolioId: _portfolioId, ...ledger } = decodeTransaction(row, false);
  return ledger;
}

/**
 * The instrument shown for a symbol stored before instruments (migration 0019) until the
 * start-up pass resolves it: unresolved, saying so.
 */
export function pendingInstrument(
  symbol: string,
  currency: string,
  name: string | null,
): Instrument {
  const isin = isValidIsin(symbol.toUpperCase()) ? symbol.toUpperCase() : undefined;
  return {
    ...(isin ? { isin } : {}),
    currency,
    ...(name ? { name: name.slice(0, 200) } : {}),
    kind: isin ? 'share' : 'other',
    resolution: 'unresolved',
    unresolvedReason: 'recorded before instruments were resolved; resolved at the next start',
  };
}
