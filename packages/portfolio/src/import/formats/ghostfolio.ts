import type { NewTransaction } from '../../transaction.js';
import { readCalendarDate } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import { isZero, readNumber, times } from '../values.js';

/**
 * Ghostfolio's generic activity CSV (`Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note`;
 * fixtures `ghostfolio/test/import/ok/sample.csv`). Actions: `buy`, `sell`, `dividend` (amount =
 * quantity × price), `fee` (amount = Fee), `interest` (imported as a deposit); `item` and
 * `liability` are rejected. A buy or sell of quantity 0 is skipped when it has no fee, and becomes
 * a fee when it has one. Dates: `dd-MM-yyyy`, `dd/MM/yyyy`, `dd.MM.yyyy`, `yyyyMMdd`, ISO 8601.
 */
export const ghostfolioFormat: BrokerFormatSpec = {
  id: 'ghostfolio',
  label: 'Ghostfolio CSV',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['date', 'currency', 'price', 'quantity', 'action']) &&
    (header.includes('code') || header.includes('symbol')),
  mapRow,
};

interface GhostfolioRow {
  readonly executedAt: string;
  readonly symbol: string;
  readonly currency: string;
  readonly price: string;
  readonly quantity: string;
  readonly fee: string;
  readonly note: string | undefined;
  readonly manual: boolean;
}

function mapRow(row: CsvRow): RowOutcome {
  const parsed = readRow(row);
  if (typeof parsed === 'string') return outcome.error(parsed);
  const action = row.get('action').toLowerCase();
  switch (action) {
    case 'buy':
    case 'sell':
      return trade(action, parsed);
    case 'dividend':
      return dividend(parsed);
    case 'fee':
      return isZero(parsed.fee)
        ? outcome.skip('fee of 0: no effect')
        : outcome.ok(feeOf(parsed, parsed.fee));
    case 'interest':
      return outcome.ok({
        type: 'deposit',
        amount: times(parsed.quantity, parsed.price),
        currency: parsed.currency,
        executedAt: parsed.executedAt,
        note: parsed.note ?? 'interest',
      });
    default:
      return outcome.error(`action "${row.get('action')}" is not supported`);
  }
}

function readRow(row: CsvRow): GhostfolioRow | string {
  const date = readCalendarDate(row.get('date'));
  if (!date.ok) return date.message;
  const numbers = ['price', 'quantity'].map((c) => readNumber(row.get(c), c));
  const fee =
    row.get('fee') === '' ? { ok: true as const, value: '0' } : readNumber(row.get('fee'), 'fee');
  for (const n of [...numbers, fee]) if (!n.ok) return n.message;
  const [price, quantity] = numbers.map((n) => (n.ok ? n.value : '0'));
  return {
    executedAt: date.value,
    symbol: row.get('code') || row.get('symbol'),
    currency: row.get('currency').toUpperCase(),
    price: price ?? '0',
    quantity: quantity ?? '0',
    fee: fee.ok ? fee.value : '0',
    note: row.get('note') || row.get('comment') || undefined,
    manual: row.get('datasource').toUpperCase() === 'MANUAL',
  };
}

function trade(type: 'buy' | 'sell', r: GhostfolioRow): RowOutcome {
  if (isZero(r.quantity)) {
    return isZero(r.fee)
      ? outcome.skip(`${type} of quantity 0 without fee: no effect`)
      : outcome.ok(feeOf(r, r.fee));
  }
  const tx: NewTransaction = {
    type,
    symbol: r.symbol,
    quantity: r.quantity,
    price: r.price,
    currency: r.currency,
    executedAt: r.executedAt,
    ...(isZero(r.fee) ? {} : { fee: r.fee }),
    ...(r.note ? { note: r.note } : {}),
  };
  return outcome.ok(tx);
}

function dividend(r: GhostfolioRow): RowOutcome {
  const amount = times(r.quantity, r.price);
  const base = { currency: r.currency, executedAt: r.executedAt };
  const txs: NewTransaction[] = [];
  if (!isZero(amount)) {
    txs.push({ type: 'dividend', symbol: r.symbol, amount, ...base, ...noteOf(r) });
  }
  if (!isZero(r.fee)) txs.push(feeOf(r, r.fee));
  return txs.length === 0 ? outcome.skip('dividend of 0: no effect') : outcome.ok(...txs);
}

function feeOf(r: GhostfolioRow, amount: string): NewTransaction {
  const label = r.manual ? r.symbol : undefined;
  const note = [label, r.note].filter(Boolean).join(': ') || undefined;
  return {
    type: 'fee',
    amount,
    currency: r.currency,
    executedAt: r.executedAt,
    ...(r.manual || r.symbol === '' ? {} : { symbol: r.symbol }),
    ...(note ? { note } : {}),
  };
}

function noteOf(r: GhostfolioRow): { note?: string } {
  return r.note ? { note: r.note } : {};
}
