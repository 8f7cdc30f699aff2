import { z } from 'zod';
import type { NewTransaction } from '../transaction.js';
import { readCell } from './generic/cells.js';
import { type CsvRow, type LineOutcome, outcome, type RowOutcome } from './row.js';
import { dividedBy, sign } from './values.js';

// Vocabulary of column mappings (issue 40, "formats as data") for rows that depend on their
// place or on another row: rows whose values the broker wrote some cells to the right, and two
// rows of one corporate action joined by a key. Spread into `ColumnMapping` (mapping.ts), run by
// the engine (`mappedFormat`, mapped-row.ts) over the whole table before rows are read.

const CellCondition = z.object({
  column: z
    .string()
    .min(1)
    .max(200)
    .describe('Header name as in the file (case-insensitive) or `#n` (0-based position)'),
  pattern: z.string().min(1).max(200).describe('Regular expression (case-insensitive)'),
});

const ShiftedRows = z.object({
  when: z
    .array(CellCondition)
    .min(1)
    .max(5)
    .describe('Cells of the row as written, every one of which must match'),
  at: z
    .number()
    .int()
    .min(0)
    .max(200)
    .describe('0-based position of the first column whose value is written further right'),
  by: z.number().int().min(1).max(5).describe('How many cells to the right'),
  keep: z
    .object({
      position: z
        .number()
        .int()
        .min(0)
        .max(200)
        .describe('0-based position, as written, of an inserted cell that holds a value'),
      column: z.string().min(1).max(200).describe('Header name of the column it belongs in'),
    })
    .optional()
    .describe("An inserted cell's value moved to its own column (the row's id)"),
});

const PairedRows = z.object({
  first: z
    .string()
    .min(1)
    .max(200)
    .describe('Regular expression (case-insensitive) of the action of the row before the event'),
  second: z
    .string()
    .min(1)
    .max(200)
    .describe('Regular expression (case-insensitive) of the action of the row after it'),
  key: z
    .string()
    .min(1)
    .max(200)
    .describe('Header name (as in the file, case-insensitive) of the cell both rows share'),
  kind: z
    .literal('split')
    .describe(
      '`split`: the quantities are the whole position before and after; a split of ratio after ÷ before',
    ),
  note: z
    .string()
    .max(200)
    .optional()
    .describe('Note of the transaction: `{before}` and `{after}` (the quantities) replaced'),
});

/** The options of a column mapping this module reads (see each one's description). */
export const TABLE_OPTIONS = {
  shiftedRows: z
    .array(ShiftedRows)
    .max(5)
    .optional()
    .describe(
      "Rows the broker wrote with cells inserted (an empty cell and the row's id before the values): when every `when` cell matches, the `by` cells from position `at` are taken out (a `keep` cell's value put in its own column) so that each value is read under its own header",
    ),
  pairedRows: z
    .array(PairedRows)
    .max(5)
    .optional()
    .describe(
      "Two rows of one corporate action joined by a key: the row whose action matches `first` is skipped and remembered by its `key` cell; the later row whose action matches `second` with the same key gives one transaction (`split`: ratio = its quantity ÷ the first row's, read as `shares` for its date, instrument and currency); a second row without its first is an error",
    ),
} as const;

type ShiftedRule = z.infer<typeof ShiftedRows>;
type PairedRule = z.infer<typeof PairedRows>;

/** What the table passes need of the engine. */
export interface TableReader {
  /** The cell a column reference names (a header name, `#n`). */
  readonly cell: (row: CsvRow, column: string) => string;
  /** Whether a cell matches a pattern (case-insensitive; `false` when it does not compile). */
  readonly matches: (pattern: string, cell: string) => boolean;
  /** The row's action and quantity as the mapping reads them. */
  readonly action: (row: CsvRow) => string;
  readonly quantity: (row: CsvRow) => string;
  readonly decimal: '.' | ',';
  /** A row read by the engine, as its action's kind or as `shares`. */
  readonly read: (row: CsvRow, as?: 'shares') => RowOutcome;
}

/**
 * The row with the cells of the first of `rules` it meets taken out (see {@link TABLE_OPTIONS}
 * `shiftedRows`), re-read under the header (`row.header`); a row no rule applies to is returned
 * as it is.
 */
export function realign(
  row: CsvRow,
  rules: readonly ShiftedRule[],
  reader: Pick<TableReader, 'cell' | 'matches'>,
): CsvRow {
  const rule = rules.find((r) =>
    r.when.every((c) => reader.matches(c.pattern, reader.cell(row, c.column))),
  );
  if (rule === undefined) return row;
  const header = row.header ?? [];
  const cells = [...row.cells.slice(0, rule.at), ...row.cells.slice(rule.at + rule.by)];
  while (cells.length < header.length) cells.push('');
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!index.has(name.toLowerCase())) index.set(name.toLowerCase(), i);
  });
  if (rule.keep) {
    const at = index.get(rule.keep.column.trim().toLowerCase());
    if (at !== undefined) cells[at] = row.cells[rule.keep.position] ?? '';
  }
  const at = (column: string) => index.get(column.trim().toLowerCase());
  return {
    line: row.line,
    cells,
    header,
    cell: (i) => (cells[i] ?? '').trim(),
    has: (column) => at(column) !== undefined,
    get: (column) => {
      const i = at(column);
      return i === undefined ? '' : (cells[i] ?? '').trim();
    },
  };
}

/**
 * Reads the rows of a table with `pairedRows` (see {@link TABLE_OPTIONS}): a row that is the
 * first of a pair is skipped and remembered, the second gives the pair's transaction, any other
 * row is read by the engine.
 */
export function readPaired(
  rows: readonly CsvRow[],
  rules: readonly PairedRule[],
  reader: TableReader,
): LineOutcome[] {
  const before = new Map<string, string>();
  return rows.map((row) => {
    const action = reader.action(row);
    const first = rules.find((r) => reader.matches(r.first, action));
    if (first) {
      before.set(`${rules.indexOf(first)}|${reader.cell(row, first.key)}`, reader.quantity(row));
      return {
        line: row.line,
        outcome: outcome.skip(`${action}: the position before (paired with a later row)`),
      };
    }
    const second = rules.find((r) => reader.matches(r.second, action));
    if (second === undefined) return { line: row.line, outcome: reader.read(row) };
    const earlier = before.get(`${rules.indexOf(second)}|${reader.cell(row, second.key)}`);
    if (earlier === undefined) {
      return { line: row.line, outcome: outcome.error(`${action} without its earlier row`) };
    }
    return { line: row.line, outcome: splitOf(row, second, earlier, reader) };
  });
}

function splitOf(row: CsvRow, rule: PairedRule, earlier: string, reader: TableReader): RowOutcome {
  const old = readCell(earlier, reader.decimal);
  const now = readCell(reader.quantity(row), reader.decimal);
  if (old === undefined) return outcome.error(`quantity before "${earlier}" is not a number`);
  if (now === undefined) {
    return outcome.error(`quantity after "${reader.quantity(row)}" is not a number`);
  }
  if (sign(old) === 0) return outcome.error('split of a position of 0');
  const read = reader.read(row, 'shares');
  if (read.kind !== 'transactions') return read;
  const [shares] = read.transactions;
  if (shares === undefined || shares.type !== 'buy') return read;
  const note = rule.note?.replace('{before}', old).replace('{after}', now);
  const split: NewTransaction = {
    type: 'split',
    symbol: shares.symbol,
    ratio: dividedBy(now, old),
    currency: shares.currency,
    executedAt: shares.executedAt,
    ...(note ? { note } : {}),
  };
  return { ...read, transactions: [split] };
}
