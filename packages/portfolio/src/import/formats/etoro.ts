import { readDateTime } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import { abs, dividedBy, readNumber, readOptionalNumber, sign } from '../values.js';

/**
 * eToro account statement, "Account Activity" sheet saved as CSV (`Date,Type,Details,Amount,
 * Units,Realized Equity Change,Realized Equity,Balance,Position ID,Asset type,NWA`; dates
 * `dd/MM/yyyy HH:mm:ss`, `-` for n/a, amounts with thousands separators or decimal commas and
 * `(x)` for negatives). Every amount is in USD, the account currency.
 *
 * - `Open Position` → buy of `Units` of the `Details` symbol (`NKE/USD` → NKE) at Amount ÷ Units;
 *   `Position closed` → sell of `Units` at Amount ÷ Units (Amount is the proceeds);
 * - `Dividend` → dividend (net: eToro shows no withholding row); `Interest Payment`,
 *   `Overnight refund` → deposit noted interest / refund; `Deposit` → deposit; `Withdraw Request`
 *   → withdrawal; `Overnight fee`, `SDRT` (UK stamp duty), `* Fee` → fee (0 skipped);
 * - rows of `Asset type` CFD → skipped: a CFD is a contract, not an owned instrument;
 * - any other type → skipped with its name.
 * Fingerprint: `Position ID` + type + time.
 */
export const etoroFormat: BrokerFormatSpec = {
  id: 'etoro',
  label: 'eToro account activity',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['date', 'type', 'details', 'amount', 'units', 'position id']),
  mapRow,
};

function mapRow(row: CsvRow): RowOutcome {
  const date = readDateTime(row.get('date'), 'dmy');
  if (!date.ok) return outcome.error(date.message);
  const type = row.get('type');
  const key = type.toLowerCase();
  const base = { currency: 'USD', executedAt: date.value };
  const positionId = row.get('position id');
  const externalId =
    positionId && positionId !== '-' ? `${positionId}:${key}:${date.value}` : undefined;
  if (row.get('asset type').toUpperCase() === 'CFD') {
    return outcome.skip(`${type} of a CFD: a contract, not an owned instrument`);
  }
  const amount = readNumber(row.get('amount'), 'Amount');
  if (!amount.ok) return outcome.error(amount.message);
  const symbol = row.get('details').split('/')[0]?.trim() ?? '';
  if (key === 'open position' || key === 'position closed') {
    const units = readOptionalNumber(row.get('units'), 'Units');
    if (!units.ok) return outcome.error(units.message);
    if (units.value === undefined || sign(units.value) === 0) {
      return outcome.error(`${type} without Units`);
    }
    return outcome.with(
      { externalId },
      {
        type: key === 'open position' ? 'buy' : 'sell',
        symbol,
        quantity: abs(units.value),
        price: dividedBy(abs(amount.value), abs(units.value)),
        ...base,
      },
    );
  }
  if (key === 'dividend') {
    if (sign(amount.value) <= 0) return outcome.skip('dividend of 0 or less: no cash received');
    return outcome.with(
      { externalId },
      { type: 'dividend', symbol, amount: amount.value, ...base },
    );
  }
  if (/fee|sdrt/.test(key)) {
    if (sign(amount.value) === 0) return outcome.skip(`${type} of 0: no effect`);
    const tx =
      sign(amount.value) < 0
        ? { type: 'fee' as const, amount: abs(amount.value), ...base, note: type }
        : cashBySign(amount.value, { ...base, note: type });
    return tx ? outcome.with({ externalId }, tx) : outcome.skip(`${type} of 0`);
  }
  if (/interest|refund|deposit|withdraw/.test(key)) {
    const note = /interest/.test(key) ? 'interest' : type;
    const tx = cashBySign(amount.value, { ...base, note });
    return tx ? outcome.with({ externalId }, tx) : outcome.skip(`${type} of 0: no effect`);
  }
  return outcome.skip(`type "${type}" is not a row kind the importer models`);
}
