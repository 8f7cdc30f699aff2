import { MarketDataError } from '../errors.js';
import { assertOptionalIsoDate } from '../validation.js';
import { lastIndexOnOrBefore, type PriceRow } from './price-files.js';

/** Checks `from`/`to` of a history request: both days, `from` not after `to`. */
export function assertRange(from: string, to: string): void {
  assertOptionalIsoDate(from, 'from');
  assertOptionalIsoDate(to, 'to');
  if (from > to) throw new MarketDataError('invalid_argument', `from ${from} lies after to ${to}`);
}

/** The rows from the last one before `from` (or on it) through `to`; rows sorted by date. */
export function sliceRange(rows: readonly PriceRow[], from: string, to: string): PriceRow[] {
  const start = Math.max(0, lastIndexOnOrBefore(rows, from));
  const end = lastIndexOnOrBefore(rows, to);
  return end < start ? [] : rows.slice(start, end + 1);
}
