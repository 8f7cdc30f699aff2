import { Dec } from '../../decimal.js';
import type { ImportedRow } from '../import-result.js';
import type { CsvRow } from '../row.js';
import {
  byAction,
  day,
  type FileView,
  type Finding,
  list,
  pass,
  type Trade,
  tradesOf,
} from './check-support.js';

// The checks of how the mapping tells trades apart and counts them (see verifyMapping).

/** The `signs` check (see `verifyMapping`). */
export function signs(file: FileView): Finding {
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

/** The `sides` check (see `verifyMapping`). */
export function sides(file: FileView, rows: readonly ImportedRow[]): Finding {
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

/** The `counted-twice` check (see `verifyMapping`). */
export function countedTwice(file: FileView, rows: readonly ImportedRow[]): Finding {
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
