import type { NewTransaction } from '../../transaction.js';
import { readIsoInstant } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import { abs, readNumber, sign } from '../values.js';

/**
 * Revolut stock trading statement (`Date,Ticker,Type,Quantity,Price per share,Total Amount,
 * Currency,FX Rate`; ISO 8601 UTC timestamps, `$`/`€`-prefixed amounts, occasional decimal comma).
 *
 * Types: `BUY - *` / `SELL - *` (market, limit, stop) → buy/sell at `Price per share`;
 * `DIVIDEND` → dividend of `Total Amount`; `CASH TOP-UP` → deposit; `CASH WITHDRAWAL` → withdrawal;
 * `CUSTODY FEE` → fee; `STOCK SPLIT` → a buy of the additional shares at price 0 (Revolut reports
 * the shares received, not the ratio; a zero-cost buy has the same effect on quantity and average
 * cost as the split); `TRANSFER …` between Revolut entities: with a ticker it only moves the
 * position between legal entities and is skipped, without a ticker its cash amount is a deposit or
 * withdrawal by sign. Any other type fails the file.
 */
export const revolutFormat: BrokerFormatSpec = {
  id: 'revolut',
  label: 'Revolut stocks statement',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['date', 'ticker', 'type', 'quantity', 'price per share', 'total amount']),
  mapRow,
};

function mapRow(row: CsvRow): RowOutcome {
  const date = readIsoInstant(row.get('date'));
  if (!date.ok) return outcome.error(date.message);
  const base = { currency: row.get('currency').toUpperCase(), executedAt: date.value };
  const type = row.get('type').toUpperCase();
  if (/^(BUY|SELL) - /.test(type)) return trade(row, type.startsWith('BUY') ? 'buy' : 'sell', base);
  if (type === 'STOCK SPLIT') return splitShares(row, base);
  if (type.startsWith('TRANSFER ')) return transfer(row, base);
  const cashType = CASH_TYPES[type];
  if (cashType === undefined) return outcome.error(`type "${row.get('type')}" is not supported`);
  const total = readNumber(row.get('total amount'), 'Total Amount');
  if (!total.ok) return outcome.error(total.message);
  const symbol = row.get('ticker');
  const tx: NewTransaction =
    cashType === 'dividend'
      ? { type: 'dividend', symbol, amount: abs(total.value), ...base }
      : { type: cashType, amount: abs(total.value), ...base };
  return outcome.ok(tx);
}

const CASH_TYPES: Record<string, 'dividend' | 'deposit' | 'withdrawal' | 'fee' | undefined> = {
  DIVIDEND: 'dividend',
  'CASH TOP-UP': 'deposit',
  'CASH WITHDRAWAL': 'withdrawal',
  'CUSTODY FEE': 'fee',
};

interface Base {
  readonly currency: string;
  readonly executedAt: string;
}

function trade(row: CsvRow, type: 'buy' | 'sell', base: Base): RowOutcome {
  const quantity = readNumber(row.get('quantity'), 'Quantity');
  if (!quantity.ok) return outcome.error(quantity.message);
  const price = readNumber(row.get('price per share'), 'Price per share');
  if (!price.ok) return outcome.error(price.message);
  return outcome.ok({
    type,
    symbol: row.get('ticker'),
    quantity: quantity.value,
    price: price.value,
    ...base,
  });
}

function splitShares(row: CsvRow, base: Base): RowOutcome {
  const quantity = readNumber(row.get('quantity'), 'Quantity');
  if (!quantity.ok) return outcome.error(quantity.message);
  if (sign(quantity.value) <= 0) {
    return outcome.error('STOCK SPLIT with a quantity <= 0 (reverse split) is not supported');
  }
  return outcome.ok({
    type: 'buy',
    symbol: row.get('ticker'),
    quantity: quantity.value,
    price: '0',
    ...base,
    note: 'stock split: additional shares received at zero cost',
  });
}

function transfer(row: CsvRow, base: Base): RowOutcome {
  if (row.get('ticker') !== '') {
    return outcome.skip('position transfer between Revolut entities: no change of holdings');
  }
  const total = readNumber(row.get('total amount'), 'Total Amount');
  if (!total.ok) return outcome.error(total.message);
  const direction = sign(total.value);
  if (direction === 0) return outcome.skip('transfer of 0: no effect');
  return outcome.ok({
    type: direction > 0 ? 'deposit' : 'withdrawal',
    amount: abs(total.value),
    ...base,
    note: row.get('type'),
  });
}
