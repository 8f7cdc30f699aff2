import { Dec } from '../../decimal.js';
import type { NewTransaction } from '../../transaction.js';
import type { ImportedRow } from '../import-result.js';
import { actionResolver, fieldOf, skipRuleOf } from '../mapped-row.js';
import type { ColumnMapping, MappedKind, MappingCheck, MappingQuestion } from '../mapping.js';
import type { CsvRow } from '../row.js';
import { isinIn, readCell, readDate } from './cells.js';

// What the checks of a mapping (verify.ts) share: a check's finding, and the file as the mapping
// sees it.

/** A check's result with the question that settles it when it failed. */
export interface Finding extends MappingCheck {
  readonly question?: Omit<MappingQuestion, 'check'>;
}

/** Up to five lines, and how many more. */
export const list = (lines: readonly number[]) =>
  lines.length > 5
    ? `${lines.slice(0, 5).join(', ')} and ${lines.length - 5} more`
    : lines.join(', ');

/** A passed check. */
export const pass = (id: string, detail: string): Finding => ({
  id,
  passed: true,
  detail,
  lines: [],
});

/** The file's rows as the mapping sees them: kind, action text, instrument and numbers per row. */
export class FileView {
  readonly rows: readonly CsvRow[];
  readonly byLine: ReadonlyMap<number, CsvRow>;
  private readonly kindOf: (action: string, amount?: string) => MappedKind | undefined;

  constructor(
    rows: readonly CsvRow[],
    readonly mapping: ColumnMapping,
    parsed: readonly ImportedRow[] = [],
    readonly header: readonly string[] = [],
  ) {
    this.rows = rows;
    this.byLine = new Map(rows.map((r) => [r.line, r]));
    this.kindOf = actionResolver(mapping);
    for (const { transaction: tx } of parsed) {
      if (tx.type !== 'buy' && tx.type !== 'sell') continue;
      const symbol = tx.symbol.toUpperCase();
      const trades = this.tradesOf.get(symbol) ?? [];
      trades.push(tx);
      this.tradesOf.set(symbol, trades);
      this.tradeKeys.add(
        `${symbol}|${tx.executedAt.slice(0, 10)}|${new Dec(tx.quantity).toFixed()}`,
      );
    }
  }

  /** The buys and sells the mapping reads, per upper-cased symbol. */
  private readonly tradesOf = new Map<
    string,
    Extract<NewTransaction, { type: 'buy' | 'sell' }>[]
  >();
  /** `SYMBOL|day|quantity` of every buy and sell the mapping reads. */
  private readonly tradeKeys = new Set<string>();

  get(row: CsvRow, field: keyof ColumnMapping['columns']): string {
    return fieldOf(row, this.mapping, field);
  }

  action(row: CsvRow): string {
    return this.get(row, 'action');
  }

  /** The row's kind: `skip` for a row a skip rule takes, else its action's. */
  kind(row: CsvRow): MappedKind | undefined {
    if (skipRuleOf(row, this.mapping) !== undefined) return 'skip';
    return this.kindOf(this.action(row), this.number(row, 'amount')?.toFixed());
  }

  /** The row's instrument cell (symbol, ISIN, or an ISIN inside the name), '' when none. */
  instrument(row: CsvRow): string {
    const symbol = this.get(row, 'symbol');
    const isin = this.get(row, 'isin');
    return symbol || (isin ? (isinIn(isin) ?? isin) : '') || isinIn(this.get(row, 'name')) || '';
  }

  number(row: CsvRow, field: 'quantity' | 'price' | 'amount' | 'fee'): Dec | undefined {
    const cell = this.get(row, field);
    if (cell === '' || cell === '-') return undefined;
    const value = readCell(cell, this.mapping.decimals?.[field] ?? this.mapping.decimal);
    return value === undefined ? undefined : new Dec(value);
  }

  /**
   * The rows that move units of an instrument, except those whose units net to zero per
   * instrument (a transfer out and back in, such as a move between two entities of a broker).
   */
  netUnits(rows: readonly CsvRow[]): CsvRow[] {
    const moving = rows.filter((r) => this.movesUnits(r) && !this.restates(r));
    const sums = new Map<string, Dec>();
    for (const r of moving) {
      const key = this.instrument(r);
      sums.set(key, (sums.get(key) ?? new Dec(0)).plus(this.number(r, 'quantity') ?? 0));
    }
    return moving.filter((r) => !sums.get(this.instrument(r))?.isZero());
  }

  /**
   * Whether the row only restates units the file's trades already hold on its day (a broker
   * moving the account between two of its entities, with no cash): |quantity| ≤ units held.
   */
  restates(row: CsvRow): boolean {
    const q = this.number(row, 'quantity');
    const amount = this.number(row, 'amount');
    const date = readDate(this.get(row, 'date'), this.mapping.dateOrder);
    if (!q || (amount && !amount.isZero()) || !date) return false;
    let held = new Dec(0);
    for (const tx of this.tradesOf.get(this.instrument(row).toUpperCase()) ?? []) {
      if (tx.executedAt.slice(0, 10) > date.slice(0, 10)) continue;
      held = tx.type === 'buy' ? held.plus(tx.quantity) : held.minus(tx.quantity);
    }
    return held.gt(0) && q.abs().lte(held);
  }

  /** Whether a trade the mapping reads has the row's day, instrument and units (the same order). */
  repeatsTrade(row: CsvRow): boolean {
    const q = this.number(row, 'quantity')?.abs();
    const date = readDate(this.get(row, 'date'), this.mapping.dateOrder);
    if (!q || !date) return false;
    const symbol = this.instrument(row).toUpperCase();
    return this.tradeKeys.has(`${symbol}|${date.slice(0, 10)}|${q.toFixed()}`);
  }

  /** Whether the row moves units of an instrument (an instrument and a quantity other than 0). */
  movesUnits(row: CsvRow): boolean {
    const q = this.number(row, 'quantity');
    return this.instrument(row) !== '' && q !== undefined && !q.isZero();
  }
}

/** The rows grouped by their action cell. */
export function byAction(rows: readonly CsvRow[], file: FileView): Map<string, CsvRow[]> {
  const groups = new Map<string, CsvRow[]>();
  for (const row of rows) {
    const value = file.action(row);
    groups.set(value, [...(groups.get(value) ?? []), row]);
  }
  return groups;
}

/** A buy or a sell the mapping reads. */
export type Trade = ImportedRow & {
  transaction: Extract<NewTransaction, { type: 'buy' | 'sell' }>;
};

export function tradesOf(rows: readonly ImportedRow[]): Trade[] {
  return rows.filter(
    (r): r is Trade => r.transaction.type === 'buy' || r.transaction.type === 'sell',
  );
}

/** The UTC day of an ISO instant. */
export const day = (iso: string) => iso.slice(0, 10);
