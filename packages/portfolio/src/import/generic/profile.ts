import type { DateOrder } from '../dates.js';
import type { CsvRow } from '../row.js';
import { meaningOf, sideOf } from './action-words.js';
import {
  dateOrdersOf,
  decimalOf,
  isCurrencyCode,
  isIsin,
  isinIn,
  readCell,
  readDate,
} from './cells.js';
import { readTradeText } from './trade-text.js';

/** What a column's values are, as shares of its non-empty cells (0 to 1). */
export interface ColumnProfile {
  readonly name: string;
  readonly index: number;
  readonly cells: string[];
  /** The cell of every sampled row, empty ones included (row-aligned with the other columns). */
  readonly rowCells: string[];
  readonly dates: number;
  readonly dateOrders: DateOrder[];
  readonly numbers: number;
  readonly decimal: '.' | ',' | undefined;
  /** Share of number cells below zero. */
  readonly negatives: number;
  readonly isins: number;
  readonly isinsInside: number;
  readonly currencies: number;
  readonly actions: number;
  readonly sides: number;
  readonly tradeTexts: number;
  /** The decimal mark of the numbers in the trades written as text ("Koop 1 @ 33,9 USD"). */
  readonly textDecimal: '.' | ',' | undefined;
  readonly texts: number;
  readonly tickers: number;
  readonly distinct: number;
}

const share = (cells: readonly string[], test: (cell: string) => boolean) =>
  cells.length === 0 ? 0 : cells.filter(test).length / cells.length;

/** Profiles the column at `index` over `rows` (the first 500 data rows are enough). */
export function profileColumn(name: string, index: number, rows: readonly CsvRow[]): ColumnProfile {
  const rowCells = rows.map((r) => r.cell(index)).map((c) => (c === '-' ? '' : c));
  const cells = rowCells.filter((c) => c !== '');
  const decimal = decimalOf(cells);
  const values = cells.map((c) => readCell(c, decimal ?? '.'));
  const read = values.filter((v): v is string => v !== undefined);
  const dateLike = (c: string) =>
    /\d/.test(c) && (['ymd', 'dmy', 'mdy'] as const).some((o) => readDate(c, o) !== undefined);
  return {
    name,
    index,
    cells,
    rowCells,
    dates: share(cells, dateLike),
    dateOrders: dateOrdersOf(cells),
    numbers: cells.length === 0 ? 0 : read.length / cells.length,
    decimal,
    negatives: read.length === 0 ? 0 : read.filter((v) => v.startsWith('-')).length / read.length,
    isins: share(cells, (c) => isIsin(c.toUpperCase())),
    isinsInside: share(cells, (c) => isinIn(c) !== undefined),
    currencies: share(cells, (c) => isCurrencyCode(c.toUpperCase()) && c.length === 3),
    actions: share(cells, (c) => meaningOf(c) !== undefined),
    sides: share(cells, (c) => c.length <= 4 && sideOf(c) !== undefined),
    textDecimal: decimalOf(
      cells.flatMap((c) => (/@/.test(c) ? (c.match(/\d[\d.,]*\d/g) ?? []) : [])),
    ),
    tradeTexts: share(
      cells,
      (c) => /[a-z]/i.test(c) && readTradeText(c, decimal ?? '.') !== undefined,
    ),
    texts: share(cells, (c) => /\p{L}{3}/u.test(c) && !dateLike(c)),
    tickers: share(cells, (c) => /^[A-Z][A-Za-z0-9.\-:/]{0,11}$/.test(c) && !isIsin(c)),
    distinct: new Set(cells.map((c) => c.toLowerCase())).size,
  };
}
