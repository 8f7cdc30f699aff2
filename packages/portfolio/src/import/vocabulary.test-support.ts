import type { ColumnMapping } from './mapping.js';
import { type ParseBrokerCsvOptions, parseBrokerCsv } from './parse-broker-csv.js';

// Test support for the unit tests of the definition vocabulary (row-options, table-options,
// interest-sign, vocabulary, vocabulary-text-trades): hand-made files read with a mapping built on
// one base, each test stating only the options it is about.

/** The lines of a hand-made file, joined with LF. */
export const lines = (...rows: string[]): string => rows.join('\n');

/**
 * The base of the hand-made files' mappings: comma-separated, a decimal point, dates year first,
 * the columns `Date`, `Kind` (the action), `Code` (the symbol), `Units` (the quantity), `Price` and
 * `Ccy` (the currency; a column a file lacks reads empty), no action values.
 */
const BASE: ColumnMapping = {
  delimiter: ',',
  columns: {
    date: 'Date',
    action: 'Kind',
    symbol: 'Code',
    quantity: 'Units',
    price: 'Price',
    currency: 'Ccy',
  },
  dateOrder: 'ymd',
  decimal: '.',
  actions: {},
};

/**
 * A mapping of the hand-made files: the base (see {@link BASE}) with `parts` over it, the columns of
 * `parts` added to the base's (a field it names is mapped to its column instead).
 */
export function vocabularyMapping(parts: Partial<ColumnMapping> = {}): ColumnMapping {
  return { ...BASE, ...parts, columns: { ...BASE.columns, ...parts.columns } };
}

/**
 * Readers of hand-made files under `base`, each with the options of `mapping` over it and any
 * other options of `parseBrokerCsv` (`accountCurrency`): `parse` answers what `parseBrokerCsv`
 * does; `read` the result of a file that reads, and throws the errors (as JSON) of one that fails.
 */
export function readersOf(base: ColumnMapping) {
  const parse = (
    text: string,
    mapping: Partial<ColumnMapping> = {},
    options: Omit<ParseBrokerCsvOptions, 'mapping'> = {},
  ) => parseBrokerCsv(text, { ...options, mapping: { ...base, ...mapping } });
  const read = (
    text: string,
    mapping: Partial<ColumnMapping> = {},
    options: Omit<ParseBrokerCsvOptions, 'mapping'> = {},
  ) => {
    const result = parse(text, mapping, options);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result;
  };
  return { parse, read };
}
