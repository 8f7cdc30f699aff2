import type { NewTransaction } from '../../transaction.js';
import { readDateTime } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  outcome,
  type RowOutcome,
} from '../row.js';
import { abs, dividedBy, minus, plus, readNumber, readOptionalNumber, sign } from '../values.js';

/** Header names per field, Dutch / German / English (`pytr export_transactions`). */
const COLUMNS = {
  date: ['datum', 'date'],
  type: ['transactietype', 'typ', 'type'],
  value: ['waarde (netto)', 'wert (netto)', 'wert', 'value', 'value (net)'],
  note: ['opmerking', 'notiz', 'note'],
  isin: ['isin'],
  shares: ['aantal', 'anzahl', 'shares'],
  fees: ['kosten', 'gebühren', 'fees'],
  taxes: ['belasting', 'steuern', 'taxes'],
} as const;

type Field = keyof typeof COLUMNS;

/**
 * Trade Republic transactions as written by `pytr export_transactions` (Trade Republic has no CSV
 * export of its own): `;`-separated, headers in Dutch (`Datum;Transactietype;Waarde (netto);
 * Opmerking;ISIN;Aantal;Kosten;Belasting`), German or English; one file may mix `2024-07-23` with
 * a decimal comma and `2024-12-10T10:25:01` with a decimal point. Everything is in EUR.
 *
 * - `Aankoop|Kauf|Buy` / `Verkoop|Verkauf|Sell` → buy / sell of `Aantal` of the ISIN; the value is
 *   net of costs, so price = (|value| − costs) ÷ shares for a buy and (value + costs) ÷ shares for a
 *   sell, with the costs as the trade's fee; taxes → a separate fee noted tax;
 * - `Dividend|Dividende` → dividend of value + taxes (gross) and the taxes as a fee noted
 *   withholding tax; `Rente|Zinsen|Interest` → deposit noted interest;
 * - `Storting|Einzahlung|Deposit` / `Onttrekking|Auszahlung|Withdrawal` → deposit / withdrawal;
 * - any other type → skipped with its name. `Opmerking` is kept as the instrument's name.
 */
export const tradeRepublicFormat: BrokerFormatSpec = {
  id: 'trade-republic',
  label: 'Trade Republic (pytr export)',
  delimiter: ';',
  matches: (header) =>
    (['date', 'type', 'value', 'isin', 'shares'] as const).every((f) =>
      COLUMNS[f].some((name) => header.includes(name)),
    ),
  mapRow,
};

function field(row: CsvRow, name: Field): string {
  for (const column of COLUMNS[name]) if (row.has(column)) return row.get(column);
  return '';
}

function mapRow(row: CsvRow): RowOutcome {
  const date = readDateTime(field(row, 'date'), 'ymd');
  if (!date.ok) return outcome.error(date.message);
  const style = { decimal: ',' as const };
  const value = readNumber(field(row, 'value'), 'value', style);
  if (!value.ok) return outcome.error(value.message);
  const fees = readOptionalNumber(field(row, 'fees'), 'fees', style);
  if (!fees.ok) return outcome.error(fees.message);
  const taxes = readOptionalNumber(field(row, 'taxes'), 'taxes', style);
  if (!taxes.ok) return outcome.error(taxes.message);
  const fee = abs(fees.value ?? '0');
  const tax = abs(taxes.value ?? '0');
  const type = field(row, 'type');
  const key = type.toLowerCase();
  const isin = field(row, 'isin');
  const name = field(row, 'note');
  const base = { currency: 'EUR', executedAt: date.value };
  const taxFee = (note: string): NewTransaction[] =>
    sign(tax) > 0 ? [{ type: 'fee', amount: tax, symbol: isin, ...base, note }] : [];
  if (/^(aankoop|kauf|buy|verkoop|verkauf|sell)/.test(key)) {
    const shares = readNumber(field(row, 'shares'), 'shares', style);
    if (!shares.ok) return outcome.error(shares.message);
    if (!isin) return outcome.error(`${type} without ISIN`);
    const sell = /^(verkoop|verkauf|sell)/.test(key);
    const gross = sell ? plus(abs(value.value), fee) : minus(abs(value.value), fee);
    const trade: NewTransaction = {
      type: sell ? 'sell' : 'buy',
      symbol: isin,
      quantity: abs(shares.value),
      price: dividedBy(gross, abs(shares.value)),
      ...base,
      ...(sign(fee) > 0 ? { fee } : {}),
    };
    return outcome.with({ name }, trade, ...taxFee('tax'));
  }
  if (/^dividend/.test(key)) {
    if (!isin) return outcome.error('dividend without ISIN');
    const gross = plus(value.value, tax);
    if (sign(gross) <= 0) return outcome.skip('dividend of 0 or less: no effect');
    return outcome.with(
      { name },
      { type: 'dividend', symbol: isin, amount: gross, ...base },
      ...taxFee('withholding tax'),
    );
  }
  if (
    /storting|einzahlung|deposit|onttrekking|auszahlung|withdraw|rente|zinsen|interest/.test(key)
  ) {
    const note = /rente|zinsen|interest/.test(key) ? 'interest' : type;
    const tx = cashBySign(value.value, { ...base, note });
    return tx ? outcome.ok(tx) : outcome.skip(`${type} of 0: no effect`);
  }
  return outcome.skip(`type "${type}" is not a row kind the importer models`);
}
