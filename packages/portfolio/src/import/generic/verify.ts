import { Dec } from '../../decimal.js';
import { TYPE_RANK } from '../../derive-holdings.js';
import type { NewTransaction } from '../../transaction.js';
import { normalizeNewlines, readTable } from '../csv-records.js';
import type { BrokerCsvResult, ImportedRow, ImportLimits } from '../import-result.js';
import { mappedFormat } from '../mapped-row.js';
import type { ColumnMapping, MappedKind, MappingCheck, MappingQuestion } from '../mapping.js';
import { readWith, UNREADABLE } from '../read-rows.js';
import type { CsvRow, RowContext } from '../row.js';
import { isinIn, readCell, readDate } from './cells.js';
import { fromLine } from './sniff.js';

/** What the checks of a mapping found: whether its result may be imported unchanged, and why not. */
export interface MappingVerdict {
  /** Every check run, passed or not. */
  readonly checks: MappingCheck[];
  /** Whether every check passed: the mapping's holdings can be imported as they are. */
  readonly acceptable: boolean;
  /** One question per failed check, the one that settles it. */
  readonly questions: MappingQuestion[];
  /** The file read with the mapping (what an import of it would store). */
  readonly parsed: BrokerCsvResult;
}

/**
 * {@link verifyMapping} of a file as uploaded (any line ends, a byte-order mark): what importing
 * it with `mapping` would leave in the ledger, checked. `accountCurrency` as for the import.
 */
export function checkMapping(
  text: string,
  mapping: ColumnMapping,
  options: { readonly accountCurrency?: string } = {},
): MappingVerdict {
  const normalized = normalizeNewlines(text.replace(/^\uFEFF/, ''));
  const context = options.accountCurrency
    ? { accountCurrency: options.accountCurrency.toUpperCase() }
    : {};
  return verifyMapping(normalized, mapping, context);
}

const LIMITS: ImportLimits = {
  maxBytes: Number.MAX_SAFE_INTEGER,
  maxRows: Number.MAX_SAFE_INTEGER,
};

/**
 * Simulates the import `mapping` makes of `normalized` (LF line ends, no BOM) and tests what the
 * ledger says, before anyone relies on it:
 * - `readable`: every row is read, or the rows skipped as unreadable are a minority and hold no
 *   units of an instrument;
 * - `widths`: no row that is read has more (filled) cells than the header (values shifted right);
 * - `skipped-units`: no row whose action is skipped (or unknown) moves units of an instrument,
 *   unless it repeats a trade the mapping reads (a second row of one order);
 * - `instruments`: the mapping reads an instrument column (a trade with an empty instrument cell
 *   is a currency trade, skipped);
 * - `units-in-cash-rows`: no row recorded as cash (deposit, withdrawal, interest, fee, transfer)
 *   carries units of an instrument;
 * - `signs`: the rows of one buy (or sell) action do not mix signs of quantity or amount (a sell
 *   written as a negative buy);
 * - `sides`: without an action, side or text column, some sign tells buys from sells (else every
 *   row would be read as a purchase);
 * - `counted-twice`: no trade appears twice (two rows of one order under two actions, every trade
 *   twice, or a trade and a cash leg of the same amount in the same direction);
 * - `quantity-price-amount`: quantity × price matches the amount (up to fees, or at a steady
 *   exchange rate), on whole and on fractional quantities alike;
 * - `positions`: no sale sells more than is held when the file itself bought the instrument
 *   earlier, no dividend is paid on a position the file bought and emptied, and not every trade is
 *   a sale.
 * A failed check comes with the question that settles it.
 */
export function verifyMapping(
  normalized: string,
  mapping: ColumnMapping,
  context: RowContext = {},
): MappingVerdict {
  const body = fromLine(normalized, mapping.headerLine ?? 1);
  const parsed = readWith(
    mappedFormat(mapping),
    'mapped',
    body,
    LIMITS,
    context,
    mapping.skipUnreadable,
  );
  const table = readTable(body, mapping.delimiter);
  const checks: Finding[] = [];
  if (!parsed.ok || 'message' in table) {
    const errors = parsed.ok ? [] : parsed.errors;
    checks.push({
      id: 'readable',
      passed: false,
      detail: `${errors.length} rows cannot be read: ${errors
        .slice(0, 3)
        .map((e) => `line ${e.line}: ${e.message}`)
        .join('; ')}`,
      lines: errors.map((e) => e.line),
      question: {
        question: `Lines ${list(errors.map((e) => e.line))} cannot be read with this mapping: skip them (set skipUnreadable) or correct the mapping?`,
        candidates: ['skip', 'correct the mapping'],
      },
    });
    return verdict(checks, parsed);
  }
  const file = new FileView(table.rows, mapping, parsed.rows, table.rawHeader);
  checks.push(
    readable(file, parsed),
    widths(file),
    skippedUnits(file),
    instruments(file, parsed),
    unitsInCashRows(file),
    signs(file),
    sides(file, parsed.rows),
    countedTwice(file, parsed.rows),
    ...productChecks(file, parsed.rows),
    positions(parsed.rows),
  );
  return verdict(checks, parsed);
}

interface Finding extends MappingCheck {
  readonly question?: Omit<MappingQuestion, 'check'>;
}

function verdict(findings: readonly Finding[], parsed: BrokerCsvResult): MappingVerdict {
  const checks = findings.map(({ question: _q, ...check }) => check);
  const questions = findings.flatMap((f) =>
    !f.passed && f.question ? [{ ...f.question, check: f.id }] : [],
  );
  return { checks, acceptable: checks.every((c) => c.passed), questions, parsed };
}

const list = (lines: readonly number[]) =>
  lines.length > 5
    ? `${lines.slice(0, 5).join(', ')} and ${lines.length - 5} more`
    : lines.join(', ');

const pass = (id: string, detail: string): Finding => ({ id, passed: true, detail, lines: [] });

/** The file's rows as the mapping sees them: kind, action text, instrument and numbers per row. */
class FileView {
  readonly rows: readonly CsvRow[];
  readonly byLine: ReadonlyMap<number, CsvRow>;
  private readonly lookup: ReadonlyMap<string, MappedKind>;

  constructor(
    rows: readonly CsvRow[],
    readonly mapping: ColumnMapping,
    parsed: readonly ImportedRow[] = [],
    readonly header: readonly string[] = [],
  ) {
    this.rows = rows;
    this.byLine = new Map(rows.map((r) => [r.line, r]));
    this.lookup = new Map(Object.entries(mapping.actions).map(([k, v]) => [k.toLowerCase(), v]));
    for (const { transaction: tx } of parsed) {
      if (tx.type !== 'buy' && tx.type !== 'sell') continue;
      const symbol = tx.symbol.toUpperCase();
      const list = this.tradesOf.get(symbol) ?? [];
      list.push(tx);
      this.tradesOf.set(symbol, list);
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
    const column = this.mapping.columns[field];
    return column === undefined ? '' : row.get(column);
  }

  action(row: CsvRow): string {
    return this.get(row, 'action');
  }

  kind(row: CsvRow): MappedKind | undefined {
    if (this.mapping.columns.action === undefined) return 'trade';
    return this.lookup.get(this.action(row).toLowerCase());
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

function readable(file: FileView, parsed: Extract<BrokerCsvResult, { ok: true }>): Finding {
  const unreadable = parsed.skipped.filter((s) => s.message.startsWith(`${UNREADABLE}:`));
  if (unreadable.length === 0) return pass('readable', 'every row is read');
  const lines = unreadable.map((s) => s.line);
  // most of the file unread is no reading of it, whatever the rows hold
  if (unreadable.length * 2 > file.rows.length) {
    const first = unreadable[0]?.message.replace(`${UNREADABLE}: `, '') ?? '';
    return {
      id: 'readable',
      passed: false,
      detail: `${unreadable.length} of ${file.rows.length} rows cannot be read (line ${unreadable[0]?.line}: ${first})`,
      lines,
      question: {
        question: `Most rows cannot be read with this mapping (${first}): which columns hold the quantity, the price or the amount, and what do the actions mean?`,
        candidates: ['correct the mapping'],
      },
    };
  }
  const units = unreadable.filter((s) => {
    const row = file.byLine.get(s.line);
    return row !== undefined && file.movesUnits(row);
  });
  if (units.length === 0) {
    return pass(
      'readable',
      `${unreadable.length} rows cannot be read and are skipped (lines ${list(lines)}); none holds units of an instrument`,
    );
  }
  const first = units[0]?.message.replace(`${UNREADABLE}: `, '') ?? '';
  return {
    id: 'readable',
    passed: false,
    detail: `${units.length} rows that move units of an instrument cannot be read and would be skipped (line ${units[0]?.line}: ${first})`,
    lines: units.map((s) => s.line),
    question: {
      question: `Lines ${list(units.map((s) => s.line))} move units but cannot be read (${first}): which column or meaning is wrong?`,
      candidates: ['correct the mapping', 'skip them'],
    },
  };
}

function widths(file: FileView): Finding {
  const width = file.header.length;
  const wide = file.rows.filter(
    (r) =>
      file.kind(r) !== 'skip' &&
      r.cells.length > width &&
      r.cells.slice(width).some((c) => c.trim() !== ''),
  );
  if (wide.length === 0) return pass('widths', 'no row has more cells than the header');
  const lines = wide.map((r) => r.line);
  return {
    id: 'widths',
    passed: false,
    detail: `${wide.length} rows have more cells than the header's ${width} (lines ${list(lines)}): their values may sit under other columns`,
    lines,
    question: {
      value: file.action(wide[0] as CsvRow),
      question: `Lines ${list(lines)} have more cells than the header: are their values shifted (skip these rows and record them by hand), or read as they are?`,
      candidates: ['skip', 'read as they are'],
    },
  };
}

function byAction(rows: readonly CsvRow[], file: FileView): Map<string, CsvRow[]> {
  const groups = new Map<string, CsvRow[]>();
  for (const row of rows) {
    const value = file.action(row);
    groups.set(value, [...(groups.get(value) ?? []), row]);
  }
  return groups;
}

function skippedUnits(file: FileView): Finding {
  const classes = new Set((file.mapping.skipClasses ?? []).map((c) => c.toLowerCase()));
  const rows = file.netUnits(
    file.rows.filter(
      (r) =>
        file.kind(r) === 'skip' &&
        !classes.has(file.get(r, 'assetClass').toLowerCase()) &&
        !file.repeatsTrade(r),
    ),
  );
  if (rows.length === 0) return pass('skipped-units', 'no skipped row moves units');
  const groups = [...byAction(rows, file)];
  const [value, first] = groups[0] ?? ['', []];
  return {
    id: 'skipped-units',
    passed: false,
    detail: `${rows.length} rows whose action is skipped move units of an instrument (${groups
      .map(([v, r]) => `"${v}" ×${r.length}`)
      .join(', ')}): the holdings would miss them`,
    lines: rows.map((r) => r.line),
    question: {
      value,
      question: `What is "${value}"? Its rows (lines ${list(first.map((r) => r.line))}) move units of an instrument, so skipping them would leave the holdings wrong`,
      candidates: ['buy', 'sell', 'trade', 'shares', 'skip'],
    },
  };
}

function instruments(file: FileView, parsed: Extract<BrokerCsvResult, { ok: true }>): Finding {
  const lines = parsed.skipped
    .filter((s) => s.message.includes('without an instrument'))
    .map((s) => s.line);
  if (lines.length === 0) return pass('instruments', 'every trade names its instrument');
  const { symbol, isin } = file.mapping.columns;
  if (symbol !== undefined || isin !== undefined) {
    return pass(
      'instruments',
      `${lines.length} trades with an empty instrument cell are skipped as currency trades (lines ${list(lines)})`,
    );
  }
  const names = [file.mapping.columns.name, file.mapping.columns.symbol].filter(
    (c): c is string => c !== undefined,
  );
  return {
    id: 'instruments',
    passed: false,
    detail: `${lines.length} trades name no instrument the mapping reads (lines ${list(lines)}) and would be skipped`,
    lines,
    question: {
      field: 'symbol',
      question: `Which column names the instrument of the trades on lines ${list(lines)}?`,
      candidates: names,
    },
  };
}

const CASH_KINDS = new Set<MappedKind | undefined>([
  'deposit',
  'withdrawal',
  'interest',
  'fee',
  'cash',
]);

function unitsInCashRows(file: FileView): Finding {
  const rows = file.netUnits(file.rows.filter((r) => CASH_KINDS.has(file.kind(r))));
  if (rows.length === 0) {
    return pass('units-in-cash-rows', 'no row recorded as cash moves units');
  }
  const groups = [...byAction(rows, file)];
  const [value, first] = groups[0] ?? ['', []];
  const kind = first[0] ? file.kind(first[0]) : undefined;
  return {
    id: 'units-in-cash-rows',
    passed: false,
    detail: `${rows.length} rows recorded as cash carry units of an instrument (${groups
      .map(([v, r]) => `"${v}" ×${r.length}`)
      .join(', ')}): the units would not reach the holdings`,
    lines: rows.map((r) => r.line),
    question: {
      value,
      question: `"${value}" is read as ${kind}, but its rows (lines ${list(first.map((r) => r.line))}) carry units of an instrument: are they purchases or sales?`,
      candidates: ['trade', 'buy', 'sell', 'shares', kind ?? 'cash'],
    },
  };
}

function signs(file: FileView): Finding {
  const mixed: { value: string; field: string; rows: CsvRow[] }[] = [];
  const trades = file.rows.filter((r) => ['buy', 'sell'].includes(file.kind(r) ?? ''));
  for (const [value, rows] of byAction(trades, file)) {
    for (const field of ['quantity', 'amount'] as const) {
      const values = rows.map((r) => file.number(r, field)).filter((v) => v && !v.isZero());
      const negative = values.filter((v) => v?.isNegative()).length;
      if (negative > 0 && negative < values.length) {
        const minority = negative * 2 <= values.length;
        const odd = rows.filter((r) => {
          const v = file.number(r, field);
          return v !== undefined && !v.isZero() && v.isNegative() === minority;
        });
        mixed.push({ value, field, rows: odd });
      }
    }
  }
  if (mixed.length === 0) return pass('signs', 'the rows of each buy or sell action agree in sign');
  const first = mixed[0];
  const kind = first?.rows[0] ? file.kind(first.rows[0]) : 'buy';
  return {
    id: 'signs',
    passed: false,
    detail: mixed
      .map(
        (m) =>
          `"${m.value}" (read as ${kind}) has ${m.field}s of both signs (lines ${list(m.rows.map((r) => r.line))}): a ${kind === 'buy' ? 'sale' : 'purchase'} written with the other sign?`,
      )
      .join('; '),
    lines: mixed.flatMap((m) => m.rows.map((r) => r.line)),
    question: {
      value: first?.value ?? '',
      question: `"${first?.value}" rows have ${first?.field}s of both signs: is it a buy or sell by the sign (trade), or always a ${kind}?`,
      candidates: ['trade', kind ?? 'buy'],
    },
  };
}

function sides(file: FileView, rows: readonly ImportedRow[]): Finding {
  const { action, side, details } = file.mapping.columns;
  const trades = tradesOf(rows);
  if (action !== undefined || side !== undefined || details !== undefined || trades.length < 2) {
    return pass('sides', 'an action, side or text column tells buys from sells');
  }
  const byAmount = file.mapping.sideFrom === 'amount';
  const told = file.rows.some((r) =>
    file.number(r, byAmount ? 'amount' : 'quantity')?.isNegative(),
  );
  if (told)
    return pass(
      'sides',
      `the sign of the ${byAmount ? 'amount' : 'quantity'} tells buys from sells`,
    );
  return {
    id: 'sides',
    passed: false,
    detail: `no column tells buys from sells and no ${byAmount ? 'amount' : 'quantity'} is negative: all ${trades.length} rows would be read as ${byAmount ? 'sales' : 'purchases'}`,
    lines: [],
    question: {
      field: 'action',
      question: `Which column says whether a row is a purchase, a sale or something else (all ${trades.length} rows would be read as ${byAmount ? 'sales' : 'purchases'})?`,
      candidates: file.header.filter((h) => !Object.values(file.mapping.columns).includes(h)),
    },
  };
}

type Trade = ImportedRow & { transaction: Extract<NewTransaction, { type: 'buy' | 'sell' }> };

function tradesOf(rows: readonly ImportedRow[]): Trade[] {
  return rows.filter(
    (r): r is Trade => r.transaction.type === 'buy' || r.transaction.type === 'sell',
  );
}

const day = (iso: string) => iso.slice(0, 10);

function countedTwice(file: FileView, rows: readonly ImportedRow[]): Finding {
  const trades = tradesOf(rows);
  const action = (line: number) => {
    const row = file.byLine.get(line);
    return row ? file.action(row) : '';
  };
  const groups = new Map<string, Trade[]>();
  for (const t of trades) {
    const tx = t.transaction;
    const key = [day(tx.executedAt), tx.symbol, new Dec(tx.quantity).toFixed()].join('|');
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const doubts: string[] = [];
  const lines: number[] = [];
  let identical = 0;
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const actions = new Set(group.map((t) => action(t.line)));
    const sides = new Set(group.map((t) => t.transaction.type));
    if (actions.size > 1 && sides.size === 1) {
      const [a, b] = group;
      doubts.push(
        `lines ${a?.line} and ${b?.line} both ${a?.transaction.type} ${a?.transaction.quantity} ${a?.transaction.symbol} on ${day(a?.transaction.executedAt ?? '')} under different actions ("${action(a?.line ?? 0)}", "${action(b?.line ?? 0)}")`,
      );
      lines.push(...group.map((t) => t.line));
    } else if (sides.size === 1) identical += group.length;
  }
  // genuine identical fills happen; every trade twice does not
  if (trades.length >= 4 && identical >= trades.length * 0.8) {
    doubts.push(`${identical} of ${trades.length} trades appear twice with the same values`);
  }
  const legs = cashLegs(rows, trades);
  for (const [cash, trade] of legs) {
    doubts.push(
      `line ${cash.line} moves the cash of the ${trade.transaction.type} on line ${trade.line} a second time`,
    );
    lines.push(cash.line);
  }
  if (doubts.length === 0) return pass('counted-twice', 'no trade or cash leg appears twice');
  const first = legs[0]?.[0];
  const firstAction = first ? action(first.line) : action(lines[0] ?? 0);
  return {
    id: 'counted-twice',
    passed: false,
    detail: doubts.slice(0, 3).join('; ') + (doubts.length > 3 ? ` (${doubts.length} in all)` : ''),
    lines,
    question: {
      value: firstAction,
      question: `Is "${firstAction}" ${first ? 'the cash leg of a trade' : 'a second row of the same order'} (skip it), or a movement of its own?`,
      candidates: ['skip', kindAt(file, first?.line ?? lines[0] ?? 0)],
    },
  };
}

function kindAt(file: FileView, line: number): string {
  const row = file.byLine.get(line);
  return (row && file.kind(row)) ?? 'trade';
}

/** Cash rows that repeat a trade's cash in the same direction (same day, currency and amount). */
function cashLegs(rows: readonly ImportedRow[], trades: readonly Trade[]): [ImportedRow, Trade][] {
  const legs: [ImportedRow, Trade][] = [];
  const byDay = new Map<string, Trade[]>();
  for (const t of trades) {
    const key = `${day(t.transaction.executedAt)}|${t.transaction.currency}`;
    const list = byDay.get(key) ?? [];
    list.push(t);
    byDay.set(key, list);
  }
  for (const row of rows) {
    const tx = row.transaction;
    if (tx.type !== 'withdrawal' && tx.type !== 'deposit') continue;
    const amount = new Dec(tx.amount);
    const match = (byDay.get(`${day(tx.executedAt)}|${tx.currency}`) ?? []).find((t) => {
      const trade = t.transaction;
      if ((trade.type === 'buy') !== (tx.type === 'withdrawal')) return false;
      const gross = new Dec(trade.quantity).times(trade.price);
      const fee = new Dec(trade.fee ?? '0');
      const cash = trade.type === 'buy' ? gross.plus(fee) : gross.minus(fee);
      return cash
        .minus(amount)
        .abs()
        .lte(Dec.max(0.011, cash.times(0.001)));
    });
    if (match) legs.push([row, match]);
  }
  return legs;
}

function productChecks(file: FileView, rows: readonly ImportedRow[]): Finding[] {
  const samples: { line: number; ratio: number; fits: boolean; fractional: boolean }[] = [];
  const seen = new Set<number>();
  for (const t of tradesOf(rows)) {
    if (seen.has(t.line)) continue;
    seen.add(t.line);
    const row = file.byLine.get(t.line);
    if (!row) continue;
    const q = file.number(row, 'quantity');
    const p = file.number(row, 'price');
    const a = file.number(row, 'amount');
    if (!q || !p || !a || q.isZero() || p.isZero() || a.isZero()) continue;
    const value = q.abs().times(p.abs());
    const paid = a.abs();
    const fee = file.number(row, 'fee')?.abs() ?? new Dec(0);
    const slack = Dec.max(paid.times(0.05), fee.plus(0.011).plus(q.abs().times(0.005)));
    samples.push({
      line: t.line,
      ratio: value.dividedBy(paid).toNumber(),
      fits: value.minus(paid).abs().lte(slack),
      fractional: !q.isInteger(),
    });
  }
  const judge = (id: string, subset: typeof samples, what: string): Finding => {
    if (subset.length === 0) return pass(id, `no ${what} row names quantity, price and amount`);
    const misfits = subset.filter((s) => !s.fits);
    if (misfits.length === 0 || misfits.length <= subset.length * 0.1) {
      return pass(
        id,
        `quantity × price matches the amount on ${subset.length - misfits.length} of ${subset.length} ${what} rows`,
      );
    }
    // judged on every trade row: a fractional row off while whole ones fit is no exchange rate
    const ratios = samples.map((s) => s.ratio).sort((x, y) => x - y);
    const median = ratios[Math.floor(ratios.length / 2)] ?? 1;
    // an amount in another currency: every row off by about the same rate, and not by none
    const steady = ratios.every((r) => r >= median / 1.1 && r <= median * 1.1);
    if (steady && samples.length >= 2 && Math.abs(median - 1) > 0.05) {
      return pass(
        id,
        `quantity × price is the amount times a steady rate (${median.toPrecision(4)}) on ${samples.length} trade rows: the amount is in another currency`,
      );
    }
    const shown = misfits.slice(0, 3).map((m) => `line ${m.line}: ×${m.ratio.toPrecision(3)}`);
    return {
      id,
      passed: false,
      detail: `quantity × price differs from the amount on ${misfits.length} of ${subset.length} ${what} rows (${shown.join(', ')})`,
      lines: misfits.map((m) => m.line),
      question: {
        field: 'quantity',
        question: `On ${misfits.length} ${what} rows (lines ${list(misfits.map((m) => m.line))}) quantity × price is not the amount: do "${file.mapping.columns.quantity}", "${file.mapping.columns.price}" and "${file.mapping.columns.amount}" hold the units, the unit price and the trade's cash?`,
        candidates: [
          file.mapping.columns.quantity ?? '',
          file.mapping.columns.price ?? '',
          file.mapping.columns.amount ?? '',
        ].filter(Boolean),
      },
    };
  };
  return [
    judge('quantity-price-amount', samples, 'trade'),
    judge(
      'fractional-quantity',
      samples.filter((s) => s.fractional),
      'fractional-quantity trade',
    ),
  ];
}

function positions(rows: readonly ImportedRow[]): Finding {
  const ordered = [...rows].sort(
    (a, b) =>
      Date.parse(a.transaction.executedAt) - Date.parse(b.transaction.executedAt) ||
      TYPE_RANK[a.transaction.type] - TYPE_RANK[b.transaction.type] ||
      a.line - b.line ||
      a.index - b.index,
  );
  const held = new Map<string, Dec>();
  const bought = new Set<string>();
  const doubts: { line: number; text: string }[] = [];
  let sells = 0;
  let buys = 0;
  for (const { line, transaction: tx } of ordered) {
    if (tx.type === 'split') continue;
    if (tx.type !== 'buy' && tx.type !== 'sell' && tx.type !== 'dividend') continue;
    const key = `${tx.symbol}|${tx.currency}`;
    const now = held.get(key) ?? new Dec(0);
    if (tx.type === 'buy') {
      buys++;
      bought.add(key);
      held.set(key, now.plus(tx.quantity));
    } else if (tx.type === 'sell') {
      sells++;
      const q = new Dec(tx.quantity);
      // beyond the units held by more than a fifth (fractional units are rounded by brokers)
      if (q.gt(now.times(1.2).plus(1e-9)) && bought.has(key)) {
        doubts.push({
          line,
          text: `line ${line} sells ${q.toFixed()} ${tx.symbol} when ${now.toFixed()} are held, although the file bought it before`,
        });
      }
      held.set(key, Dec.max(0, now.minus(q)));
    } else if (now.isZero() && bought.has(key)) {
      doubts.push({
        line,
        text: `line ${line} pays a dividend on ${tx.symbol} when the file's own trades left 0 units`,
      });
    }
  }
  if (sells >= 2 && buys === 0) {
    doubts.push({ line: 0, text: `all ${sells} trades are sales and none is a purchase` });
  }
  if (doubts.length === 0) {
    return pass('positions', 'no position goes below 0 or pays on 0 while the file trades it');
  }
  return {
    id: 'positions',
    passed: false,
    detail:
      doubts
        .slice(0, 3)
        .map((d) => d.text)
        .join('; ') + (doubts.length > 3 ? ` (${doubts.length} in all)` : ''),
    lines: doubts.map((d) => d.line).filter((l) => l > 0),
    question: {
      field: 'side',
      question: `The holdings go below 0 or pay on 0 (${doubts[0]?.text}): are buys and sells told apart right (the action values, or the sign of the quantity or the amount)?`,
      candidates: ['quantity', 'amount', 'action'],
    },
  };
}
