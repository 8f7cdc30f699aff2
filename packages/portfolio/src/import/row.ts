import type { NewTransaction } from '../transaction.js';

/** One data row of a CSV file, read by header name. */
export interface CsvRow {
  /** 1-based line in the file where the row starts. */
  readonly line: number;
  /** Trimmed value of the first column with this header name (case-insensitive); '' if absent. */
  get(column: string): string;
  /** Whether the file has a column with this header name (case-insensitive). */
  has(column: string): boolean;
}

/**
 * What a format makes of one row: transactions to import, a row deliberately skipped (with the
 * reason shown to the user), or an error that makes the whole file fail.
 */
export type RowOutcome =
  | { readonly kind: 'transactions'; readonly transactions: NewTransaction[] }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string };

/** A supported broker export layout. */
export interface BrokerFormatSpec {
  readonly id: string;
  /** Human name shown in messages. */
  readonly label: string;
  readonly delimiter: ',' | ';';
  /** Whether a header row (lower-cased, trimmed names) is this format's. */
  matches(header: readonly string[]): boolean;
  mapRow(row: CsvRow): RowOutcome;
}

/** Shorthand constructors of {@link RowOutcome}. */
export const outcome = {
  ok: (...transactions: NewTransaction[]): RowOutcome => ({ kind: 'transactions', transactions }),
  skip: (reason: string): RowOutcome => ({ kind: 'skip', reason }),
  error: (message: string): RowOutcome => ({ kind: 'error', message }),
};

/** Whether `header` contains every one of `required` (lower-case names). */
export function hasColumns(header: readonly string[], required: readonly string[]): boolean {
  return required.every((name) => header.includes(name));
}
