import { CsvError, parse } from 'csv-parse/sync';
import type { CsvRow } from './row.js';

/** A parsed CSV file: lower-cased header names and the data rows with their start lines. */
export interface CsvTable {
  readonly header: string[];
  /** The header cells as written (trimmed, case kept). */
  readonly rawHeader: string[];
  readonly rows: CsvRow[];
}

interface InfoRecord {
  readonly record: string[];
  readonly raw: string;
  readonly info: { readonly lines: number };
}

/** A CSV syntax error at a 1-based line. */
export interface CsvSyntaxError {
  readonly line: number;
  readonly message: string;
}

/** Reads only the header record of `text` with `delimiter`; `undefined` when unreadable. */
export function readHeader(text: string, delimiter: string): string[] | undefined {
  try {
    const [first] = parse(text, { delimiter, to_line: 1, relax_column_count: true, bom: true });
    return first?.map(normalizeName);
  } catch {
    return undefined;
  }
}

/**
 * Parses `text` (LF line ends: see `normalizeNewlines`) with csv-parse. Rows of any width are
 * accepted (missing cells read as ''); blank lines are skipped. Each row records the line where it
 * starts, computed from csv-parse's `info.lines` (the line where it ends) and its raw text.
 */
export function readTable(text: string, delimiter: string): CsvTable | CsvSyntaxError {
  let records: InfoRecord[];
  try {
    // csv-parse's typings do not model `info`/`raw` output: each record is then { record, raw, info }.
    records = parse(text, {
      delimiter,
      bom: true,
      info: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as InfoRecord[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines ?? 0;
      return { line, message: `CSV syntax error: ${error.message}` };
    }
    throw error;
  }
  const [head, ...body] = records;
  const header = (head?.record ?? []).map(normalizeName);
  const columns = columnIndex(header);
  return {
    header,
    rawHeader: (head?.record ?? []).map((h) => h.trim()),
    rows: body.map((r) => toRow(columns, r.record, startLine(r.raw, r.info.lines), header)),
  };
}

/** Converts CRLF and lone CR line ends to LF so that csv-parse counts lines as editors do. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function startLine(raw: string, endLine: number): number {
  const body = raw.replace(/\n$/, '').replace(/^\n+/, '');
  const innerNewlines = body.split('\n').length - 1;
  return endLine - innerNewlines;
}

/** First position of each header name (a later duplicate, such as DEGIRO's blank names, loses). */
function columnIndex(header: readonly string[]): ReadonlyMap<string, number> {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  return index;
}

function toRow(
  columns: ReadonlyMap<string, number>,
  cells: readonly string[],
  line: number,
  header: readonly string[],
): CsvRow {
  const position = (column: string) => columns.get(column.toLowerCase());
  return {
    line,
    cells,
    header,
    cell: (index) => (cells[index] ?? '').trim(),
    has: (column) => position(column) !== undefined,
    get: (column) => {
      const i = position(column);
      return i === undefined ? '' : (cells[i] ?? '').trim();
    },
  };
}

function normalizeName(name: string): string {
  return name.trim().toLowerCase();
}
