import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { FundamentalsError } from '../errors.js';
import {
  ANNUAL_PERIODS,
  KEY_COLUMNS,
  type SimfinRow,
  type SimfinStatement,
  VALUE_COLUMNS,
} from './columns.js';
import { symbolOrNull } from './symbol-or-null.js';

/** The annual rows of one statement file, grouped by normalised ticker. */
export interface SimfinStatementRows<S extends SimfinStatement> {
  readonly byTicker: Map<string, SimfinRow<S>[]>;
  /** Raw tickers that are not valid symbols (SimFin's `AGN_old`, `ACET_delis`), skipped. */
  readonly skippedTickers: ReadonlySet<string>;
  /** The newest Publish or Restated Date of the kept rows (≈ when SimFin built the file), or null. */
  readonly newestDate: string | null;
}

interface ColumnIndex {
  readonly keys: Readonly<Record<keyof typeof KEY_COLUMNS, number>>;
  readonly values: readonly (readonly [string, number])[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads one SimFin bulk statement (`;`-separated, one header row) from a file, streaming with
 * csv-parse so that the event loop keeps running while ~20,000 rows are read. Keeps the annual
 * rows (`FY`; `Q4` for the balance sheet) and the columns listed in `VALUE_COLUMNS`; a value
 * column the file lacks reads blank (`null`), never 0.
 *
 * @throws {FundamentalsError} `upstream_unavailable` when the file cannot be read; `parse_failed`
 *   when it is not CSV or lacks a key column (`Ticker`, `Fiscal Period`, `Report Date`, …).
 */
export async function readSimfinStatementFile<S extends SimfinStatement>(
  path: string,
  statement: S,
): Promise<SimfinStatementRows<S>> {
  return readSimfinStatement(createReadStream(path, { highWaterMark: 1 << 20 }), statement, path);
}

/**
 * {@link readSimfinStatementFile} over any byte or text stream; `label` names the source in
 * errors.
 */
export async function readSimfinStatement<S extends SimfinStatement>(
  input: Readable,
  statement: S,
  label: string,
): Promise<SimfinStatementRows<S>> {
  const parser = parse({ delimiter: ';', bom: true, skip_empty_lines: true, relax_quotes: true });
  const byTicker = new Map<string, SimfinRow<S>[]>();
  const skippedTickers = new Set<string>();
  let index: ColumnIndex | undefined;
  let newestDate: string | null = null;
  // `pipe` does not forward the source's errors (ENOENT, EACCES): hand them to the parser.
  input.once('error', (error) => parser.destroy(error));
  try {
    for await (const record of input.pipe(parser) as AsyncIterable<string[]>) {
      if (!index) {
        index = indexColumns(record, statement, label);
        continue;
      }
      const row = addRecord(record, index, statement, byTicker, skippedTickers);
      for (const date of [row?.publishDate, row?.restatedDate]) {
        if (date && (newestDate === null || date > newestDate)) newestDate = date;
      }
    }
  } catch (error) {
    throw toFundamentalsError(error, label);
  } finally {
    input.destroy();
  }
  if (!index) throw new FundamentalsError('parse_failed', `${label} is empty: no header row`);
  return { byTicker, skippedTickers, newestDate };
}

function indexColumns(header: readonly string[], statement: SimfinStatement, label: string) {
  const position = new Map(header.map((name, i) => [name.trim(), i]));
  const keys = {} as Record<keyof typeof KEY_COLUMNS, number>;
  for (const [key, name] of Object.entries(KEY_COLUMNS) as [keyof typeof KEY_COLUMNS, string][]) {
    const i = position.get(name);
    if (i === undefined) {
      throw new FundamentalsError(
        'parse_failed',
        `${label} is not a SimFin ${statement} file: no "${name}" column`,
      );
    }
    keys[key] = i;
  }
  const values: (readonly [string, number])[] = [];
  for (const name of VALUE_COLUMNS[statement]) {
    const i = position.get(name);
    if (i !== undefined) values.push([name, i]);
  }
  return { keys, values };
}

function addRecord<S extends SimfinStatement>(
  record: readonly string[],
  index: ColumnIndex,
  statement: S,
  byTicker: Map<string, SimfinRow<S>[]>,
  skipped: Set<string>,
): SimfinRow<S> | undefined {
  const cell = (i: number) => record[i]?.trim() ?? '';
  if (!ANNUAL_PERIODS[statement].includes(cell(index.keys.fiscalPeriod))) return undefined;
  const reportDate = cell(index.keys.reportDate);
  if (!DATE.test(reportDate)) return undefined;
  const raw = cell(index.keys.ticker);
  const ticker = symbolOrNull(raw);
  if (ticker === null) {
    if (raw) skipped.add(raw);
    return undefined;
  }
  const values: Partial<Record<string, number | null>> = {};
  let malformedCells = 0;
  for (const [name, i] of index.values) {
    const text = cell(i);
    const n = text === '' ? null : Number(text);
    if (n !== null && !Number.isFinite(n)) malformedCells += 1;
    values[name] = n !== null && Number.isFinite(n) ? n : null;
  }
  const row: SimfinRow<S> = {
    reportDate,
    publishDate: dateOrNull(cell(index.keys.publishDate)),
    restatedDate: dateOrNull(cell(index.keys.restatedDate)),
    currency: cell(index.keys.currency).toUpperCase() || 'USD',
    values: values as SimfinRow<S>['values'],
    malformedCells,
  };
  const rows = byTicker.get(ticker);
  if (rows) rows.push(row);
  else byTicker.set(ticker, [row]);
  return row;
}

function dateOrNull(text: string): string | null {
  return DATE.test(text) ? text : null;
}

function toFundamentalsError(error: unknown, label: string): FundamentalsError {
  if (error instanceof FundamentalsError) return error;
  if (error instanceof CsvError) {
    return new FundamentalsError('parse_failed', `${label} is not valid CSV: ${error.message}`, {
      cause: error,
    });
  }
  return new FundamentalsError('upstream_unavailable', `Cannot read ${label}`, { cause: error });
}
