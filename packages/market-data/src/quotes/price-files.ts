import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { MarketDataError } from '../errors.js';

/** One row of a price series: a trading day and a close (split-adjusted to the file's basis). */
export interface PriceRow {
  readonly date: string;
  readonly close: number;
}

/**
 * How a folder's files are to be read.
 * - `unadjusted`: Yahoo classic `Date,Open,High,Low,Close,Adj Close,Volume`; `Close` is split-
 *   adjusted as of the file's last day but not dividend-adjusted.
 * - `total-return`: `Date,Close` where `Close` is split- and dividend-adjusted as of the last day.
 */
export type SeriesKind = 'unadjusted' | 'total-return';

/** A folder of per-symbol CSV files (`<SYMBOL>.csv`) under the provider's `dir`. */
export interface PriceSeriesSource {
  readonly folder: string;
  readonly kind: SeriesKind;
}

/** A parsed file: rows oldest first; `basis` is the last day (the split basis of every row). */
export interface PriceSeries {
  readonly source: PriceSeriesSource;
  readonly rows: readonly PriceRow[];
  readonly basis: string;
}

/**
 * Reads `<dir>/<folder>/<symbol>.csv`; `null` when the file does not exist.
 *
 * @throws {MarketDataError} `upstream_unavailable` when the file cannot be read, `parse_failed`
 *   when it is not a price CSV.
 */
export async function readPriceSeries(
  dir: string,
  source: PriceSeriesSource,
  symbol: string,
  signal?: AbortSignal,
): Promise<PriceSeries | null> {
  const path = join(dir, source.folder, `${symbol}.csv`);
  let text: string;
  try {
    text = await readFile(path, { encoding: 'utf8', signal });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MarketDataError('upstream_unavailable', `cannot read ${path}`, { cause: error });
  }
  const rows = parsePriceCsv(text, path);
  const last = rows.at(-1);
  return last ? { source, rows, basis: last.date } : null;
}

/**
 * Parses a Yahoo-style price CSV (`Date` and `Close` columns; other columns ignored) into rows
 * sorted by date. Rows whose close is not a positive number (Yahoo's `null` rows) are skipped.
 *
 * @throws {MarketDataError} `parse_failed` when the CSV is malformed or has no `Date`/`Close`.
 */
export function parsePriceCsv(text: string, name: string): PriceRow[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new MarketDataError('parse_failed', `malformed CSV ${name}`, { cause: error });
  }
  const first = records[0];
  if (first && (!('Date' in first) || !('Close' in first))) {
    throw new MarketDataError('parse_failed', `${name} has no Date and Close columns`);
  }
  const rows: PriceRow[] = [];
  for (const record of records) {
    const close = Number(record.Close);
    if (record.Date && /^\d{4}-\d{2}-\d{2}$/.test(record.Date) && close > 0) {
      rows.push({ date: record.Date, close });
    }
  }
  return rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Index of the last row with `date ≤ asOf`, or -1 (binary search; rows sorted by date). */
export function lastIndexOnOrBefore(rows: readonly { date: string }[], asOf: string): number {
  let lo = 0;
  let hi = rows.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((rows[mid] as { date: string }).date <= asOf) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
