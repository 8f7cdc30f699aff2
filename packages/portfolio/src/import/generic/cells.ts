import { Dec, formatDecimal } from '../../decimal.js';
import { type DateOrder, readDateTime, readIsoInstant } from '../dates.js';
import { readNumber } from '../values.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Whether `code` is an ISO 4217 currency code (the runtime's list, upper case only). */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/**
 * Whether `text` is an ISIN: two letters, nine letters or digits, and a check digit that the
 * Luhn sum over the letters expanded to numbers (A = 10 … Z = 35) confirms (ISO 6166).
 */
export function isIsin(text: string): boolean {
  if (!/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(text)) return false;
  const digits = [...text].map((c) => Number.parseInt(c, 36)).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The first valid ISIN written anywhere in `text` ("Apple Inc. (US0378331005)"). */
export function isinIn(text: string): string | undefined {
  for (const match of text
    .toUpperCase()
    .matchAll(/(?<![A-Z0-9])[A-Z]{2}[A-Z0-9]{9}\d(?![A-Z0-9])/g)) {
    if (isIsin(match[0])) return match[0];
  }
  return undefined;
}

const SYMBOLS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', zł: 'PLN', '¥': 'JPY' };

/** The currency a number cell names ("1.234,56 EUR", "€12", "-$5"), if any. */
export function currencyInCell(cell: string): string | undefined {
  const code = /(?:^|[\s\d(-])([A-Z]{3})(?=$|[\s\d)])/.exec(cell.trim())?.[1];
  if (code !== undefined && isCurrencyCode(code)) return code;
  for (const [symbol, iso] of Object.entries(SYMBOLS)) if (cell.includes(symbol)) return iso;
  return undefined;
}

/**
 * A number cell without what surrounds the number: currency codes and symbols ("EUR", "kr",
 * "zł", "€"), a percent sign, a leading `+`, spaces and apostrophes used as thousands separators.
 */
export function bareNumber(cell: string): string {
  return cell
    .replace(/[A-Z]{3}/g, '')
    .replace(/\b(?:kr|zł|zl|Fr|sFr)\.?/gi, '')
    .replace(/[€$£¥%'’\s\u00a0\u202f]/g, '')
    .replace(/^\+/, '');
}

/** Reads a number cell as the generic mapper does: {@link bareNumber}, then `readNumber`. */
export function readCell(cell: string, decimal: '.' | ','): string | undefined {
  const bare = bareNumber(cell);
  // exponent notation, as some exports write tiny quantities ("1.0e-08")
  const exponent = /^(-?\d+(?:[.,]\d+)?)[eE]([-+]?\d{1,3})$/.exec(bare);
  if (exponent?.[1] && exponent[2]) {
    const mantissa = exponent[1].replace(',', '.');
    return formatDecimal(new Dec(mantissa).times(new Dec(10).pow(Number(exponent[2]))));
  }
  if (!/^[-(]?\d/.test(bare) && !/^-?[.,]\d/.test(bare)) return undefined;
  const read = readNumber(bare, 'value', { decimal });
  return read.ok ? read.value : undefined;
}

/**
 * The decimal mark a column's cells show: a cell with both marks ends with the decimal one; a
 * single mark followed by other than three digits is the decimal mark; a mark that repeats is a
 * thousands separator. `undefined` when no cell tells (every one is `1,234`-shaped or whole).
 */
export function decimalOf(cells: readonly string[]): '.' | ',' | undefined {
  let dot = 0;
  let comma = 0;
  for (const raw of cells) {
    const cell = bareNumber(raw);
    const last = Math.max(cell.lastIndexOf('.'), cell.lastIndexOf(','));
    if (last < 0) continue;
    const both = cell.includes('.') && cell.includes(',');
    const mark = cell[last] as '.' | ',';
    const repeats = cell.split(mark).length > 2;
    const decided = both
      ? mark
      : repeats
        ? mark === '.'
          ? ','
          : '.'
        : /^-?[1-9]\d{0,2}[.,]\d{3}$/.test(cell)
          ? undefined
          : mark;
    if (decided === '.') dot++;
    if (decided === ',') comma++;
  }
  if (dot === 0 && comma === 0) return undefined;
  return comma > dot ? ',' : '.';
}

/**
 * The date orders that read every date-like cell (a total row's label is not one), most specific
 * first (`ymd`, `dmy`, `mdy`).
 */
export function dateOrdersOf(cells: readonly string[]): DateOrder[] {
  const orders: DateOrder[] = ['ymd', 'dmy', 'mdy'];
  const dates = cells.filter((c) => orders.some((o) => readDate(c, o) !== undefined));
  return orders.filter((o) => dates.length > 0 && dates.every((c) => readDate(c, o) !== undefined));
}

/** Reads a date cell in `order`, also the compact `yyyyMMdd` form and ISO instants. */
export function readDate(cell: string, order: DateOrder): string | undefined {
  const value = cell.trim().replace(/\s+as of .*$/i, '');
  // an ISO 8601 instant with its zone, read as JavaScript reads it (a fraction beyond
  // milliseconds cut, not rounded: the instant the first import modules recorded)
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const iso = readIsoInstant(value);
    if (iso.ok) return iso.value;
  }
  // `yyyyMMdd`, with a time after it (`20240105;101500`, `20240105,101500`, `20240105101500`:
  // Interactive Brokers' DateTime in its settings' notations)
  const compact = /^(\d{4})(\d{2})(\d{2})(?=$|[;T ])/.exec(
    value.replace(/^(\d{8}),?(\d{6})$/, '$1;$2'),
  );
  const text = compact
    ? `${compact[1]}-${compact[2]}-${compact[3]}${compact.input.slice(8)}`
    : value;
  const read = readDateTime(text, compact ? 'ymd' : order);
  return read.ok ? read.value : undefined;
}
