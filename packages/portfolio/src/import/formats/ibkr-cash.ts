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
import { abs, readNumber, sign } from '../values.js';

/**
 * Interactive Brokers Flex Query "Cash Transactions" CSV (`Type,SettleDate,ISIN,Description,
 * Amount,CurrencyPrimary`, optionally `DateTime`, `Symbol`, `TransactionID`).
 *
 * - `Dividends`, `Payment In Lieu Of Dividends` → dividend of the ISIN (gross; a negative amount,
 *   a reversal, becomes a withdrawal noted as such);
 * - `Withholding Tax` → fee noted `withholding tax` (a positive amount, a refund, → deposit);
 * - `Deposits/Withdrawals`, `Broker Interest Received/Paid`, `Bond Interest …`, `Other Fees`,
 *   `Commission Adjustments` → deposit / withdrawal by sign (fees: fee);
 * - any other type → skipped with its name.
 * The instrument is `Symbol` or else the ISIN; the ticker before `(` in the description is kept
 * as its name. Fingerprint: `TransactionID` when the query includes it.
 */
export const ibkrCashFormat: BrokerFormatSpec = {
  id: 'ibkr-cash',
  label: 'Interactive Brokers Flex Query cash transactions',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['type', 'amount', 'currencyprimary', 'description']) &&
    (header.includes('settledate') || header.includes('datetime') || header.includes('date')),
  mapRow,
};

function mapRow(row: CsvRow): RowOutcome {
  const rawDate = row.get('datetime') || row.get('settledate') || row.get('date');
  const date = readDateTime(rawDate.replace(/^(\d{4})(\d{2})(\d{2})/, '$1-$2-$3'), 'ymd');
  if (!date.ok) return outcome.error(date.message);
  const amount = readNumber(row.get('amount'), 'Amount');
  if (!amount.ok) return outcome.error(amount.message);
  const type = row.get('type');
  const key = type.toLowerCase();
  const symbol = row.get('symbol') || row.get('isin');
  const description = row.get('description');
  const name = /^([^(]+)\(/.exec(description)?.[1]?.trim();
  const base = { currency: row.get('currencyprimary').toUpperCase(), executedAt: date.value };
  const meta = { externalId: row.get('transactionid') || undefined, name };
  if (sign(amount.value) === 0) return outcome.skip(`${type} of 0: no effect`);
  let tx: NewTransaction | undefined;
  if (key.includes('dividend')) {
    tx =
      sign(amount.value) > 0 && symbol
        ? { type: 'dividend', symbol, amount: amount.value, ...base, note: description }
        : cashBySign(amount.value, { ...base, note: description });
  } else if (key.includes('withholding')) {
    tx =
      sign(amount.value) < 0
        ? {
            type: 'fee',
            amount: abs(amount.value),
            ...(symbol ? { symbol } : {}),
            ...base,
            note: `withholding tax: ${description}`,
          }
        : cashBySign(amount.value, { ...base, note: `withholding tax refund: ${description}` });
  } else if (key.includes('fee') || key.includes('commission')) {
    tx =
      sign(amount.value) < 0
        ? { type: 'fee', amount: abs(amount.value), ...base, note: description || type }
        : cashBySign(amount.value, { ...base, note: description || type });
  } else if (/deposit|withdraw|interest/.test(key)) {
    tx = cashBySign(amount.value, { ...base, note: description || type });
  } else {
    return outcome.skip(`type "${type}" is not a row kind the importer models`);
  }
  return tx ? outcome.with(meta, tx) : outcome.skip(`${type} of 0: no effect`);
}
