import type { NewTransaction } from '../../transaction.js';
import { readDateTime } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import { abs, readNumber, readOptionalNumber, sign } from '../values.js';

/**
 * Charles Schwab history CSV (`Date,Action,Symbol,Description,Quantity,Price,Fees & Comm,Amount`;
 * dates `MM/dd/yyyy` or `MM/dd/yyyy as of MM/dd/yyyy`, where the first date, when the cash moved,
 * is used; `$` amounts with thousands separators). Everything is in USD. The closing
 * `Transactions Total` row is skipped.
 *
 * - `Buy`, `Reinvest Shares` → buy (`Fees & Comm` as fee); `Sell` → sell;
 * - `Cash Dividend`, `Reinvest Dividend`, `Qual Div Reinvest`, `Non-Qualified Div`, `Special … Div`,
 *   `Pr Yr …`, `… Cap Gain …`, `Cash In Lieu` → dividend of `Amount` (the reinvestment is its own
 *   `Reinvest Shares` row);
 * - `Credit Interest`, `Bank Interest` → deposit noted interest; `Foreign Tax Paid` → fee noted
 *   withholding tax; `Advisor Fee`, `ADR Mgmt Fee`, other fees → fee;
 * - `Wire Sent`/`Wire Received`, `MoneyLink Transfer`, `Internal Transfer`, `Journal` → deposit /
 *   withdrawal by sign;
 * - `Stock Split` (the added shares), `Stock Div Dist`, `Spin-off` → buy of the shares received at
 *   price 0 (no cash; the cost basis of the original holding is not split);
 * - `Reverse Split`, `Stock Merger`, `Name Change`, `Conversion`, `Journaled Shares` → skipped:
 *   each is a pair of lines swapping one security for another; review those holdings by hand.
 */
export const schwabFormat: BrokerFormatSpec = {
  id: 'schwab',
  label: 'Charles Schwab history',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['date', 'action', 'symbol', 'description', 'quantity', 'price', 'amount']),
  mapRow,
};

function mapRow(row: CsvRow): RowOutcome {
  const rawDate = row.get('date');
  if (/^transactions total/i.test(rawDate)) return outcome.skip('the total line of the export');
  const date = readDateTime(rawDate.split(/\s+as of\s+/i)[0] ?? '', 'mdy');
  if (!date.ok) return outcome.error(date.message);
  const action = row.get('action');
  const key = action.toLowerCase();
  const symbol = row.get('symbol');
  const base = { currency: 'USD', executedAt: date.value };
  const meta = { name: row.get('description') || undefined };
  const amount = readOptionalNumber(row.get('amount'), 'Amount');
  if (!amount.ok) return outcome.error(amount.message);
  const quantity = readOptionalNumber(row.get('quantity'), 'Quantity');
  if (!quantity.ok) return outcome.error(quantity.message);
  if (key === 'buy' || key === 'reinvest shares' || key === 'sell') {
    const price = readNumber(row.get('price'), 'Price');
    if (!price.ok) return outcome.error(price.message);
    const fee = readOptionalNumber(row.get('fees & comm'), 'Fees & Comm');
    if (!fee.ok) return outcome.error(fee.message);
    if (quantity.value === undefined || sign(quantity.value) === 0) {
      return outcome.error(`${action} without Quantity`);
    }
    return outcome.with(meta, {
      type: key === 'sell' ? 'sell' : 'buy',
      symbol,
      quantity: abs(quantity.value),
      price: price.value,
      ...base,
      ...(fee.value && sign(fee.value) !== 0 ? { fee: abs(fee.value) } : {}),
    });
  }
  if (/split|stock div dist|spin-off|merger|name change|conversion|journaled shares/.test(key)) {
    return corporateAction(action, symbol, quantity.value, base, meta);
  }
  if (amount.value === undefined || sign(amount.value) === 0) {
    return outcome.skip(`${action} without an amount: no effect`);
  }
  let tx: NewTransaction | undefined;
  if (/div|cap gain|in lieu/.test(key) && symbol && sign(amount.value) > 0) {
    tx = { type: 'dividend', symbol, amount: amount.value, ...base, note: action };
  } else if (/foreign tax/.test(key) && sign(amount.value) < 0) {
    const forSymbol = symbol ? { symbol } : {};
    tx = { type: 'fee', amount: abs(amount.value), ...forSymbol, ...base, note: 'withholding tax' };
  } else if (/fee|tax/.test(key) && sign(amount.value) < 0) {
    tx = { type: 'fee', amount: abs(amount.value), ...base, note: action };
  } else if (/interest|wire|moneylink|transfer|journal|deposit|withdraw|div|fee|tax/.test(key)) {
    tx = cashBySign(amount.value, { ...base, note: /interest/.test(key) ? 'interest' : action });
  } else {
    return outcome.skip(`action "${action}" is not a row kind the importer models`);
  }
  return tx ? outcome.with(meta, tx) : outcome.skip(`${action} of 0: no effect`);
}

function corporateAction(
  action: string,
  symbol: string,
  quantity: string | undefined,
  base: { currency: string; executedAt: string },
  meta: { name?: string },
): RowOutcome {
  const key = action.toLowerCase();
  const received = quantity !== undefined && sign(quantity) > 0;
  if ((key === 'stock split' || key === 'stock div dist' || key === 'spin-off') && received) {
    return outcome.with(meta, {
      type: 'buy',
      symbol,
      quantity: quantity ?? '0',
      price: '0',
      ...base,
      note: `${action}: shares received at zero cost`,
    });
  }
  return outcome.skip(
    `${action} ${symbol} (${quantity ?? 'no quantity'}): swaps one security for another, not modelled; review this holding`,
  );
}
