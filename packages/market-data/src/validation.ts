import { QuoteSymbol } from '@svc/schemas';
import { MarketDataError } from './errors.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `true` for a `YYYY-MM-DD` string naming a real calendar day. */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Throws `invalid_argument` unless `value` is `undefined` or a `YYYY-MM-DD` day. */
export function assertOptionalIsoDate(value: string | undefined, name: string): void {
  if (value !== undefined && !isIsoDate(value)) {
    throw new MarketDataError('invalid_argument', `${name} must be YYYY-MM-DD, got ${value}`);
  }
}

/**
 * The key a quote provider prices `symbol` by: `QuoteSymbol` of `@svc/schemas` (trimmed,
 * upper-cased; letters, digits, `.` and `-`, at most 15 characters). Not the ticker rule
 * (`normaliseTicker`): a quote symbol keeps its `.` (`NOVN.SW`) and may be longer. Throws
 * `invalid_symbol` otherwise.
 */
export function quoteSymbolOf(symbol: string): string {
  const parsed = QuoteSymbol.safeParse(symbol);
  if (!parsed.success) {
    throw new MarketDataError('invalid_symbol', `not a valid symbol: ${JSON.stringify(symbol)}`);
  }
  return parsed.data;
}

/** Upper-cases an ISO 4217 code; throws `invalid_argument` unless it is three letters. */
export function normaliseCurrency(currency: string): string {
  const upper = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper)) {
    throw new MarketDataError('invalid_argument', `not an ISO 4217 currency: ${currency}`);
  }
  return upper;
}
