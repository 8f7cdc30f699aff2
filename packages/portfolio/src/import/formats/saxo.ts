import { readDateTime } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import { abs, isZero, minus, readNumber, sign, times } from '../values.js';

/**
 * Saxo Bank transactions export saved as CSV (`Client ID,Trade Date,Value Date,Type,Instrument,
 * Instrument ISIN,Instrument currency,Exchange Description,Instrument Symbol,Event,Amount,
 * Order ID,Conversion Rate`; dates `dd-MMM-yyyy` with English or Dutch month names; amounts with a
 * decimal point or comma).
 *
 * - `Trade`/`Transactie`, Event `Buy 3 @ 134.85 USD` / `Sell …` / `Koop …` / `Verkoop …` → buy /
 *   sell of the symbol before `:` of `Instrument Symbol` (`NVDA:xnas` → NVDA; the ISIN when there
 *   is none), in the currency of the event. When `Conversion Rate` is 1 the amount is in that
 *   currency too, and what it exceeds quantity × price by is the commission (the trade's fee);
 *   otherwise the fee is not known and left out.
 * - `Corporate action` with Event `Dividend` → dividend of `Amount` in the instrument currency;
 *   other corporate actions → skipped with the event named.
 * - `Cash amount` (custody fee, other charges) → fee, or deposit when positive;
 *   `Cash Transfer` Deposit / Withdrawal → deposit / withdrawal by sign.
 * Fingerprint: `Order ID` when given; the instrument name is kept.
 */
export const saxoFormat: BrokerFormatSpec = {
  id: 'saxo',
  label: 'Saxo Bank transactions',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['trade date', 'value date', 'type', 'instrument', 'event', 'amount']),
  mapRow,
};

const TRADE =
  /^(buy|sell|koop|verkoop|kauf|verkauf|achat|vente)\s+([\d.,]+)\s*@\s*([\d.,]+)\s+([A-Z]{3})/i;

function mapRow(row: CsvRow): RowOutcome {
  const date = readDateTime(row.get('trade date'), 'dmy');
  if (!date.ok) return outcome.error(date.message);
  const amount = readNumber(row.get('amount'), 'Amount', { decimal: ',' });
  if (!amount.ok) return outcome.error(amount.message);
  const type = row.get('type').toLowerCase();
  const event = row.get('event');
  const currency = row.get('instrument currency').toUpperCase();
  const symbol =
    row.get('instrument symbol').split(':')[0]?.toUpperCase() || row.get('instrument isin');
  const meta = { externalId: row.get('order id') || undefined, name: row.get('instrument') };
  const base = { currency, executedAt: date.value };
  if (type === 'trade' || type === 'transactie') {
    const trade = TRADE.exec(event);
    if (!trade) return outcome.error(`trade event "${event}" is not "Buy n @ price CCY"`);
    const [, verb = '', qText = '', pText = '', priceCurrency = ''] = trade;
    const quantity = readNumber(qText, 'quantity');
    const price = readNumber(pText, 'price');
    if (!quantity.ok) return outcome.error(quantity.message);
    if (!price.ok) return outcome.error(price.message);
    const side = /^(sell|verkoop|verkauf|vente)$/i.test(verb) ? 'sell' : 'buy';
    const gross = times(quantity.value, price.value);
    const rate = row.get('conversion rate');
    const fee =
      rate === '' || rate === '1'
        ? side === 'buy'
          ? minus(abs(amount.value), gross)
          : minus(gross, abs(amount.value))
        : '0';
    return outcome.with(meta, {
      type: side,
      symbol,
      quantity: quantity.value,
      price: price.value,
      currency: priceCurrency.toUpperCase(),
      executedAt: date.value,
      ...(sign(fee) > 0 ? { fee } : {}),
    });
  }
  if (isZero(amount.value)) return outcome.skip(`${event} of 0: no effect`);
  if (type === 'corporate action') {
    if (!/dividend/i.test(event)) return outcome.skip(`corporate action "${event}" not modelled`);
    if (sign(amount.value) < 0) return outcome.skip('negative dividend: reversal not modelled');
    return outcome.with(meta, { type: 'dividend', symbol, amount: amount.value, ...base });
  }
  if (type === 'cash amount') {
    const tx =
      sign(amount.value) < 0
        ? { type: 'fee' as const, amount: abs(amount.value), ...base, note: event }
        : cashBySign(amount.value, { ...base, note: event });
    return tx ? outcome.with(meta, tx) : outcome.skip(`${event} of 0`);
  }
  if (type === 'cash transfer') {
    const tx = cashBySign(amount.value, { ...base, note: event });
    return tx ? outcome.with(meta, tx) : outcome.skip(`${event} of 0`);
  }
  return outcome.skip(`type "${row.get('type')}" is not a row kind the importer models`);
}
