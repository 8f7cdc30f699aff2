import type { NewTransaction } from '../../transaction.js';
import { readDateTime } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  type LineOutcome,
  outcome,
  type RowOutcome,
} from '../row.js';
import { abs, dividedBy, readNumber, sign } from '../values.js';

/**
 * DEGIRO account statement (`Account.csv`, "Rekeningoverzicht"), read by column position because
 * the header is localised (`Datum,Tijd,Valutadatum,Product,ISIN,Omschrijving,FX,Mutatie,,Saldo,,
 * Order Id` in Dutch; English, German, French, Spanish, Portuguese and Italian exports have the
 * same twelve columns). Dates `dd-MM-yyyy` + `HH:mm` (Amsterdam wall-clock time), amounts with a
 * decimal comma or point.
 *
 * A row whose only cell is the last one continues the previous row's `Order Id` (DEGIRO wraps a
 * long id onto a second line) and is joined to it. Rows, recognised from the description:
 * - `Koop|Buy|Kauf|Compra|Achat|Acquisto 6 [name]@ 79,35 EUR` → buy of the ISIN at the price in
 *   the text (`GBX` prices become GBP / 100); `Verkoop|Sell|Verkauf|Venda|Vente|Vendita` → sell;
 *   `PRODUCTWIJZIGING` (product change: the same ISIN sold and bought back at 0) → skipped;
 * - transaction costs, connection fees (`Aansluitingskosten`), corporate action costs → fee;
 * - `Dividend|Dividende|Dividendo` → dividend (gross); dividend tax (`Dividendbelasting`,
 *   `Impôts sur dividende`, `Dividendensteuer`) → fee with note `withholding tax` (a refund, >0,
 *   → deposit);
 * - currency conversion legs (`Valuta Creditering/Debitering`, `Ingreso/Retirada Cambio de Divisa`,
 *   `Crédito/Levantamento de divisa`, `Währungswechsel`) → deposit / withdrawal in each currency
 *   by sign, so that cash per currency follows the broker's executed rate;
 * - deposits, withdrawals and their reservations (iDEAL, flatex, `Storting`, `Ingreso`) → deposit /
 *   withdrawal by sign; `DEGIRO Courtesy` and interest → deposit noted `interest`;
 * - `Cash Sweep Transfer` and `Overboeking … flatexDEGIRO Bank` (moves between the DEGIRO account
 *   and its flatex cash account, both the user's) and rows without an amount → skipped;
 * - anything else → skipped with the description.
 * The instrument is the ISIN; the product column is kept as its name. The order id plus the row
 * kind is the import fingerprint.
 */
export const degiroFormat: BrokerFormatSpec = {
  id: 'degiro',
  label: 'DEGIRO account statement',
  delimiter: ',',
  matches: (header) =>
    header.length >= 12 &&
    header[4] === 'isin' &&
    ['datum', 'date', 'data', 'fecha'].includes(header[0] ?? '') &&
    (header[11] ?? '').includes('order'),
  mapRow,
  mapTable,
};

function mapTable(rows: readonly CsvRow[]): LineOutcome[] {
  const joined: CsvRow[] = [];
  for (const row of rows) {
    const previous = joined.at(-1);
    const onlyLast = row.cells.slice(0, 11).every((c) => c.trim() === '') && row.cell(11) !== '';
    if (onlyLast && previous !== undefined) {
      joined[joined.length - 1] = withOrderId(previous, previous.cell(11) + row.cell(11));
      continue;
    }
    joined.push(row);
  }
  return joined.map((row) => ({ line: row.line, outcome: mapRow(row) }));
}

function withOrderId(row: CsvRow, orderId: string): CsvRow {
  const cells = [...row.cells];
  cells[11] = orderId;
  return { ...row, cells, cell: (i) => (i === 11 ? orderId : row.cell(i)) };
}

const TRADE =
  /^(?:PRODUCTWIJZIGING\s*:\s*)?(koop|buy|kauf|compra|achat|acquisto|verkoop|sell|verkauf|venda|vente|vendita)\s+([\d.,]+)\s*(?:[^@]*?)\s*@\s*([\d.,]+)\s+([A-Z]{3})/i;
const SELL_WORDS = new Set(['verkoop', 'sell', 'verkauf', 'venda', 'vente', 'vendita']);

function mapRow(row: CsvRow): RowOutcome {
  const description = row.cell(5);
  const date = readDateTime(`${row.cell(0)} ${row.cell(1)}`.trim(), 'dmy');
  if (!date.ok) return outcome.error(date.message);
  const isin = row.cell(4);
  const name = row.cell(3);
  const orderId = row.cell(11);
  const currency = row.cell(7).toUpperCase();
  const lower = description.toLowerCase();
  const rawAmount = row.cell(8);
  if (/cash sweep|overboeking (van|naar) uw geldrekening/i.test(description)) {
    return outcome.skip(
      'transfer between the DEGIRO account and its flatex cash account: both are yours',
    );
  }
  if (rawAmount === '' || currency === '') {
    return outcome.skip(`"${description}" has no amount: informational row`);
  }
  const amount = readNumber(rawAmount, 'Mutatie', { decimal: ',' });
  if (!amount.ok) return outcome.error(amount.message);
  const base = { currency, executedAt: date.value };
  const meta = (kind: string) => ({
    ...(orderId ? { externalId: `${orderId}:${kind}` } : {}),
    ...(name ? { name } : {}),
  });
  const trade = TRADE.exec(description);
  if (trade) {
    if (/^PRODUCTWIJZIGING/i.test(description)) {
      return outcome.skip('product change (same ISIN sold and bought back at 0): no effect');
    }
    return mapTrade(trade, isin, base.executedAt, meta('trade'));
  }
  if (/kosten|costs|fee|frais|comiss|commiss|gebühr/i.test(lower) && sign(amount.value) < 0) {
    return outcome.with(meta('fee'), {
      type: 'fee',
      amount: abs(amount.value),
      ...(isin ? { symbol: isin } : {}),
      ...base,
      note: description,
    });
  }
  if (/belasting|impôts? sur|imposto|steuer|dividend tax|withholding|retenci/i.test(lower)) {
    const tx: NewTransaction | undefined =
      sign(amount.value) < 0
        ? {
            type: 'fee',
            amount: abs(amount.value),
            ...(isin ? { symbol: isin } : {}),
            ...base,
            note: 'withholding tax',
          }
        : cashBySign(amount.value, { ...base, note: 'withholding tax refund' });
    return tx ? outcome.with(meta('tax'), tx) : outcome.skip('tax of 0: no effect');
  }
  if (/^dividend/i.test(lower) && isin) {
    if (sign(amount.value) <= 0) {
      const tx = cashBySign(amount.value, { ...base, note: `dividend reversal ${isin}` });
      return tx ? outcome.with(meta('dividend'), tx) : outcome.skip('dividend of 0');
    }
    return outcome.with(meta('dividend'), {
      type: 'dividend',
      symbol: isin,
      amount: amount.value,
      ...base,
    });
  }
  if (/valuta|divisa|währungswechsel|currency|fx (credit|debit)|cambio/i.test(lower)) {
    const kind = sign(amount.value) > 0 ? 'fx-credit' : 'fx-debit';
    const tx = cashBySign(amount.value, { ...base, note: `currency conversion: ${description}` });
    return tx ? outcome.with(meta(kind), tx) : outcome.skip('conversion of 0: no effect');
  }
  if (/courtesy|rente|interest|zinsen|intérêts|interes/i.test(lower)) {
    const tx = cashBySign(amount.value, { ...base, note: `interest: ${description}` });
    return tx ? outcome.ok(tx) : outcome.skip('interest of 0: no effect');
  }
  if (
    /deposit|storting|ingreso|einzahlung|withdrawal|terugstorting|opname|auszahlung|levantamento|retrait|dépôt|flatex/i.test(
      lower,
    )
  ) {
    const tx = cashBySign(amount.value, { ...base, note: description });
    return tx ? outcome.ok(tx) : outcome.skip(`"${description}" of 0: no effect`);
  }
  return outcome.skip(`"${description}" is not a row kind the importer models`);
}

function mapTrade(
  match: RegExpExecArray,
  isin: string,
  executedAt: string,
  meta: { externalId?: string; name?: string },
): RowOutcome {
  const [, verb = '', quantityText = '', priceText = '', priceCurrency = ''] = match;
  const quantity = readNumber(quantityText, 'quantity', { decimal: ',' });
  if (!quantity.ok) return outcome.error(quantity.message);
  const price = readNumber(priceText, 'price', { decimal: ',' });
  if (!price.ok) return outcome.error(price.message);
  const pence = priceCurrency.toUpperCase() === 'GBX';
  if (!isin) return outcome.error('a trade without ISIN');
  return outcome.with(meta, {
    type: SELL_WORDS.has(verb.toLowerCase()) ? 'sell' : 'buy',
    symbol: isin,
    quantity: quantity.value,
    price: pence ? dividedBy(price.value, '100') : price.value,
    currency: pence ? 'GBP' : priceCurrency.toUpperCase(),
    executedAt,
  });
}
