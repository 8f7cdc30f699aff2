import type { Instrument } from '@svc/schemas';
import type { Insertable, Selectable } from 'kysely';
import type { TransactionsTable, TransactionType } from '../db-types.js';
import { StoreError } from '../errors.js';
import { iso, isUuid } from './shared.js';

/** A ledger entry (CONTRACT §4). Quantities and amounts are decimal strings. */
export interface Transaction {
  id: string;
  portfolioId: string;
  type: TransactionType;
  symbol: string | null;
  /** Units (shares); decimal string. */
  quantity: string | null;
  /** Price per unit in `currency`; decimal string. */
  price: string | null;
  /** ISO 4217 code. */
  currency: string;
  /** Fee in `currency`; decimal string. */
  fee: string | null;
  /** Cash amount of a dividend, deposit, withdrawal or fee, in `currency`; decimal string. */
  amount: string | null;
  /** New units per old unit of a split (`2` for 2-for-1); decimal string. */
  ratio: string | null;
  /** ISO-8601. */
  executedAt: string;
  note: string | null;
  /** Set on rows that came from one import. */
  importBatchId: string | null;
  /** Import fingerprint (unique per portfolio), for rows that came from a broker file. */
  fingerprint: string | null;
  /** Instrument name the import gave. */
  name: string | null;
  /** The instrument resolved when the row was written; null on rows older than migration 0019. */
  instrument: Instrument | null;
}

/** Fields of a new ledger entry; decimals as strings (`"12.5"`), never floats. */
export interface NewTransaction {
  type: TransactionType;
  symbol?: string | null;
  quantity?: string | null;
  price?: string | null;
  fee?: string | null;
  /** Cash amount (dividend, deposit, withdrawal, fee); decimal string. */
  amount?: string | null;
  /** Split ratio, new units per old unit; decimal string. */
  ratio?: string | null;
  currency: string;
  executedAt: Date | string;
  note?: string | null;
  /** Import fingerprint; a second row with the same one in the portfolio is refused (`conflict`). */
  fingerprint?: string | null;
  /** Instrument name the import gave. */
  name?: string | null;
  /** The resolved instrument (migration 0019); an update without it keeps the row's. */
  instrument?: Instrument | null;
}

/** Filters and page of {@link TransactionsRepository.list}. */
export interface TransactionQuery {
  /** Only this portfolio (default: all of the user's portfolios). */
  portfolioId?: string;
  /** Executed at or after this instant. */
  from?: Date;
  /** Executed strictly before this instant. */
  to?: Date;
  symbol?: string;
  type?: TransactionType;
  /** Page size, 1 to 100; default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** One page of transactions, newest first; `nextCursor` is null on the last page. */
export interface TransactionPage {
  items: Transaction[];
  nextCursor: string | null;
}

const MAX_PAGE = 100;

/** Rows written or looked up per statement (bounded parameters per statement). */
export const IMPORT_CHUNK = 1_000;

/** A stored row as a {@link Transaction}. */
export function toTransaction(row: Selectable<TransactionsTable>): Transaction {
  return transactionOf(row, iso(row.executed_at));
}

/** The columns of a listed transaction: `executed_at` as ISO text (`isoText`), no owner nor creation time. */
export const LISTED_COLUMNS = [
  'id',
  'portfolio_id',
  'type',
  'symbol',
  'quantity',
  'price',
  'currency',
  'fee',
  'amount',
  'ratio',
  'note',
  'import_batch_id',
  'fingerprint',
  'name',
  'instrument',
] as const;

export type ListedRow = Pick<Selectable<TransactionsTable>, (typeof LISTED_COLUMNS)[number]> & {
  executed_iso: string | null;
};

/** {@link toTransaction} of a row read with {@link LISTED_COLUMNS}. */
export function toListedTransaction(row: ListedRow): Transaction {
  return transactionOf(row, row.executed_iso ?? '');
}

/** A transaction from its listed columns and its execution instant as ISO text. */
function transactionOf(
  row: Pick<Selectable<TransactionsTable>, (typeof LISTED_COLUMNS)[number]>,
  executedAt: string,
): Transaction {
  return {
    id: row.id,
    portfolioId: row.portfolio_id,
    type: row.type,
    symbol: row.symbol,
    quantity: row.quantity,
    price: row.price,
    currency: row.currency,
    fee: row.fee,
    amount: row.amount,
    ratio: row.ratio,
    executedAt,
    note: row.note,
    importBatchId: row.import_batch_id,
    fingerprint: row.fingerprint,
    name: row.name,
    instrument: row.instrument ?? null,
  };
}

export function encodeCursor(executedAt: string, id: string): string {
  return Buffer.from(JSON.stringify([executedAt, id])).toString('base64url');
}

export function decodeCursor(cursor: string): { executedAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const executedAt = new Date(String(at));
    if (typeof id === 'string' && isUuid(id) && !Number.isNaN(executedAt.getTime())) {
      return { executedAt, id };
    }
  } catch {
    // fall through to the error below
  }
  throw new StoreError('invalid_input', 'malformed transactions cursor');
}

export function pageSize(limit: number | undefined): number {
  const size = limit ?? 50;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) {
    throw new StoreError('invalid_input', `limit must be an integer from 1 to ${MAX_PAGE}`);
  }
  return size;
}

export function toRow(
  userId: string,
  portfolioId: string,
  tx: NewTransaction,
  importBatchId: string | null,
): Insertable<TransactionsTable> {
  return {
    user_id: userId,
    portfolio_id: portfolioId,
    type: tx.type,
    symbol: tx.symbol ?? null,
    quantity: tx.quantity ?? null,
    price: tx.price ?? null,
    fee: tx.fee ?? null,
    amount: tx.amount ?? null,
    ratio: tx.ratio ?? null,
    currency: tx.currency.toUpperCase(),
    executed_at: utcInstant(tx.executedAt),
    note: tx.note ?? null,
    import_batch_id: importBatchId,
    fingerprint: tx.fingerprint ?? null,
    name: tx.name ?? null,
    instrument: tx.instrument ? JSON.stringify(tx.instrument) : null,
  };
}

/**
 * The UTC instant of an execution time as ISO 8601 text (`2024-03-01T10:00:00+23:59` →
 * `2024-02-29T10:01:00.000Z`): PostgreSQL's own parser takes offsets only up to ±15:59, while
 * RFC 3339 (and so the API's document) allows up to ±23:59; the instant is what is stored anyway.
 */
function utcInstant(executedAt: Date | string): string {
  return (executedAt instanceof Date ? executedAt : new Date(executedAt)).toISOString();
}
