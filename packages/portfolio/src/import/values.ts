import { Dec, parseDecimal } from '../decimal.js';

/** A parsed cell or the reason it could not be parsed. */
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

/** Separator conventions of a number cell. */
export interface NumberStyle {
  /**
   * The locale's decimal mark, used only to settle the one ambiguous shape: a single separator
   * followed by exactly three digits after a non-zero group (`1,234`, `1.234`). Default `'.'`.
   */
  readonly decimal?: '.' | ',';
}

/**
 * Reads a broker's number cell into a decimal string. Drops currency signs ($ € £) and spaces,
 * keeps the sign, and reads separators as a person would: with both `.` and `,` present the last
 * one is the decimal mark (`1,234.56`, `1.234,56`); a separator that occurs more than once is a
 * thousands separator (`1,234,567`); a single separator is the decimal mark (`0,7667`, `12.5`)
 * except in the ambiguous `1,234` / `1.234` shape, settled by `style.decimal`.
 */
export function readNumber(raw: string, column: string, style: NumberStyle = {}): Parsed<string> {
  let compact = raw.replace(/[\s\u00a0$€£]/g, '');
  if (compact === '') return fail(`${column} is empty`);
  // accounting negatives: (0,10) → -0,10; a sign after a currency sign: $-5 / -$5 both work
  const parenthesised = /^\((.*)\)$/.exec(compact);
  if (parenthesised) compact = `-${parenthesised[1]}`;
  if (/^-?\d*[.,]$/.test(compact)) compact = `${compact}0`;
  const mark = decimalMarkOf(compact, style.decimal ?? '.');
  const thousands = mark === '.' ? ',' : '.';
  const normalized = compact.split(thousands).join('').replace(mark, '.');
  const value = parseDecimal(normalized);
  if (value === undefined) return fail(`${column} "${raw}" is not a number`);
  return ok(value.toFixed());
}

function decimalMarkOf(cell: string, preferred: '.' | ','): '.' | ',' {
  const dots = cell.split('.').length - 1;
  const commas = cell.split(',').length - 1;
  if (dots > 0 && commas > 0) return cell.lastIndexOf('.') > cell.lastIndexOf(',') ? '.' : ',';
  if (dots + commas === 0) return preferred;
  const sep = dots > 0 ? '.' : ',';
  const other = sep === '.' ? ',' : '.';
  if (dots + commas > 1) return other;
  const ambiguous = /^-?[1-9]\d{0,2}[.,]\d{3}$/.test(cell);
  return ambiguous && preferred !== sep ? other : sep;
}

/** Absolute value of a decimal string. */
export function abs(value: string): string {
  return new Dec(value).abs().toFixed();
}

/** Sign of a decimal string: -1, 0 or 1. */
export function sign(value: string): number {
  return new Dec(value).comparedTo(0);
}

/** Product of two decimal strings, exact. */
export function times(a: string, b: string): string {
  return new Dec(a).times(b).toFixed();
}

/** Sum of decimal strings, exact. */
export function plus(...values: string[]): string {
  return values.reduce((sum, v) => sum.plus(v), new Dec(0)).toFixed();
}

/** Difference of two decimal strings, exact. */
export function minus(a: string, b: string): string {
  return new Dec(a).minus(b).toFixed();
}

/**
 * Quotient of two decimal strings, rounded half-even to 20 decimal places: a unit price worked out
 * from a total and a quantity, precise enough that quantity × price gives back the total at every
 * scale the API shows (amounts at 2 places, costs at 10), yet short enough for a decimal string.
 */
export function dividedBy(a: string, b: string): string {
  return new Dec(a).div(b).toDecimalPlaces(20, Dec.ROUND_HALF_EVEN).toFixed();
}

/** Negation of a decimal string. */
export function negate(value: string): string {
  return new Dec(value).neg().toFixed();
}
