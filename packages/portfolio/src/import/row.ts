import type { NewTransaction } from '../transaction.js';

/** One data row of a CSV file, read by header name or by position. */
export interface CsvRow {
  /** 1-based line in the file where the row starts. */
  readonly line: number;
  /** The cells as read, untrimmed. */
  readonly cells: readonly string[];
  /** The file's header names (trimmed, lower-cased), when the row was read under a header. */
  readonly header?: readonly string[];
  /** Trimmed value of the first column with this header name (case-insensitive); '' if absent. */
  get(column: string): string;
  /** Whether the file has a column with this header name (case-insensitive). */
  has(column: string): boolean;
  /** Trimmed value of the cell at 0-based `index`; '' if absent. */
  cell(index: number): string;
}

/**
 * What the file says about the transactions of one row, beyond the transaction itself:
 * `externalId` is the broker's own stable id of the row (the import fingerprint uses it when
 * present), `name` the instrument's display name the export gives, `isin` and `ticker` the
 * instrument's identifiers when the export gives them (Trading 212 gives both; the transaction's
 * `symbol` stays what the fingerprint was always made of, and the service resolves the
 * instrument from these).
 */
export interface RowMeta {
  readonly externalId?: string;
  readonly name?: string;
  /** The instrument's ISIN, when the file gives one (kept beside the symbol recorded). */
  readonly isin?: string;
  /** The instrument's ticker, when the file gives one (kept beside the symbol recorded). */
  readonly ticker?: string;
}

/**
 * What a format makes of one row: transactions to import, a row deliberately skipped (with the
 * reason shown to the user), or an error that makes the whole file fail.
 */
export type RowOutcome =
  | {
      readonly kind: 'transactions';
      readonly transactions: NewTransaction[];
      readonly meta?: RowMeta;
    }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string };

/** A row's outcome with the line it belongs to (see {@link BrokerFormatSpec.mapTable}). */
export interface LineOutcome {
  readonly line: number;
  readonly outcome: RowOutcome;
}

/**
 * A supported broker export layout: one module per broker under `formats/`, registered in
 * `formats/index.ts`. A format reads one row at a time (`mapRow`), or the whole table when rows
 * depend on each other (`mapTable`, e.g. Trading 212's paired split rows).
 */
export interface BrokerFormatSpec {
  readonly id: string;
  /** Human name shown in messages. */
  readonly label: string;
  readonly delimiter: ',' | ';' | '\t' | '|';
  /** Whether a header row (lower-cased, trimmed names) is this format's. */
  matches(header: readonly string[]): boolean;
  mapRow(row: CsvRow, context?: RowContext): RowOutcome;
  /** Optional whole-table mapping; when absent every row goes through `mapRow`. */
  mapTable?(rows: readonly CsvRow[], context?: RowContext): LineOutcome[];
}

/** What the importer knows beyond the file: the account currency for files that omit it. */
export interface RowContext {
  readonly accountCurrency?: string;
}

/** Shorthand constructors of {@link RowOutcome}. */
export const outcome = {
  ok: (...transactions: NewTransaction[]): RowOutcome => ({ kind: 'transactions', transactions }),
  with: (meta: RowMeta, ...transactions: NewTransaction[]): RowOutcome => ({
    kind: 'transactions',
    transactions,
    meta: cleanMeta(meta),
  }),
  skip: (reason: string): RowOutcome => ({ kind: 'skip', reason }),
  error: (message: string): RowOutcome => ({ kind: 'error', message }),
};

function cleanMeta(meta: RowMeta): RowMeta {
  return {
    ...(meta.externalId ? { externalId: meta.externalId } : {}),
    ...(meta.name ? { name: meta.name } : {}),
    ...(meta.isin ? { isin: meta.isin.toUpperCase() } : {}),
    ...(meta.ticker ? { ticker: meta.ticker.toUpperCase() } : {}),
  };
}

/** A cash movement by sign: > 0 a deposit, < 0 a withdrawal, 0 nothing (`undefined`). */
export function cashBySign(
  amount: string,
  base: { currency: string; executedAt: string; note?: string; symbol?: string },
): NewTransaction | undefined {
  const negative = amount.startsWith('-');
  const size = negative ? amount.slice(1) : amount;
  if (/^0*(\.0*)?$/.test(size)) return undefined;
  return { type: negative ? 'withdrawal' : 'deposit', amount: size, ...base };
}
