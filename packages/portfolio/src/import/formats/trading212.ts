import type { NewTransaction } from '../../transaction.js';
import { readDateTime } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  hasColumns,
  type LineOutcome,
  outcome,
  type RowMeta,
  type RowOutcome,
} from '../row.js';
import { abs, dividedBy, isZero, readNumber, readOptionalNumber, sign, times } from '../values.js';

/**
 * Trading 212 history export (`Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,
 * Currency (Price / share),Exchange rate,Result,Currency (Result),Total,Currency (Total),
 * Withholding tax,Currency (Withholding tax),Notes,ID,Currency conversion fee,…`; times
 * `yyyy-MM-dd HH:mm:ss(.SSS)`).
 *
 * - `Market|Limit|Stop buy` / `… sell` → buy / sell of `No. of shares` at `Price / share` in its
 *   currency. When `Currency (Total)` (the account currency) differs, Trading 212 converted: the
 *   account pays `Total` (or receives it), and the conversion is recorded as a deposit and a
 *   withdrawal in the two currencies (gross = shares × price), so cash stays right per currency.
 * - `Dividend (…)` → dividend of `Total` in `Currency (Total)` (net: Trading 212 pays in the
 *   account currency after withholding, which is noted);
 * - `Deposit` / `Withdrawal` → deposit / withdrawal; `Interest on cash` → deposit noted interest;
 * - corporate-action rows (`Stock split close/open`, `Stock distribution`, `Transfer out`, any row
 *   whose sixth cell is empty and seventh an `EOF…` id) are written two cells to the right: they
 *   are realigned first (the id to `ID`, the values back under their headers), so every value is
 *   read from its own column;
 * - `Stock split close` + `Stock split open` (the whole position before and after) → one split of
 *   ratio open ÷ close; `Stock distribution` → buy of the shares received at price 0;
 *   `Transfer out` → skipped (shares moved to another broker; remove that holding by hand);
 * - any other action → skipped with its name. Fingerprint: `ID` where given.
 *
 * The transaction's `symbol` is the `ISIN` (as before, so fingerprints of rows without an `ID`
 * do not change); the row's meta carries `isin`, `ticker` and `name`, from which the service
 * resolves the instrument (resolution `export`).
 */
export const trading212Format: BrokerFormatSpec = {
  id: 'trading212',
  label: 'Trading 212 history',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['action', 'time', 'no. of shares', 'price / share', 'currency (total)']),
  mapRow,
  mapTable,
};

/** Position of `ID` and of `No. of shares` in the export's header. */
const SHARES_AT = 5;

/**
 * A corporate-action row realigned: Trading 212 writes an empty cell and the row's id before
 * its values (`…,Name,,EOF27002856700,11.0563304000,0.00,USD,…`), so that each value sits two
 * columns right of its header. The realigned row reads every value under its own header, and its
 * id under `ID`. Other rows are answered unchanged.
 */
export function realign(row: CsvRow, header: readonly string[]): CsvRow {
  const id = row.cell(SHARES_AT + 1);
  if (row.cell(SHARES_AT) !== '' || !/^EOF\d+$/.test(id)) return row;
  const cells = [...row.cells.slice(0, SHARES_AT), ...row.cells.slice(SHARES_AT + 2)];
  while (cells.length < header.length) cells.push('');
  const idAt = header.indexOf('id');
  if (idAt >= 0) cells[idAt] = id;
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  const at = (column: string) => index.get(column.toLowerCase());
  return {
    line: row.line,
    cells,
    cell: (i) => (cells[i] ?? '').trim(),
    has: (column) => at(column) !== undefined,
    get: (column) => {
      const i = at(column);
      return i === undefined ? '' : (cells[i] ?? '').trim();
    },
  };
}

function mapTable(rows: readonly CsvRow[]): LineOutcome[] {
  const closes = new Map<string, string>();
  return rows.map((original) => {
    const row = realign(original, original.header ?? []);
    const action = row.get('action').toLowerCase();
    const isin = row.get('isin');
    if (action === 'stock split close') {
      closes.set(isin, row.get('no. of shares'));
      return {
        line: row.line,
        outcome: outcome.skip('stock split: position before the split (paired with the open row)'),
      };
    }
    if (action === 'stock split open') {
      const before = closes.get(isin);
      if (before === undefined) {
        return { line: row.line, outcome: outcome.error('stock split open without its close row') };
      }
      return { line: row.line, outcome: splitOf(row, before) };
    }
    return { line: row.line, outcome: mapRow(row) };
  });
}

function splitOf(row: CsvRow, before: string): RowOutcome {
  const date = readDateTime(row.get('time'), 'ymd');
  if (!date.ok) return outcome.error(date.message);
  const old = readNumber(before, 'No. of shares (before)');
  const now = readNumber(row.get('no. of shares'), 'No. of shares (after)');
  if (!old.ok) return outcome.error(old.message);
  if (!now.ok) return outcome.error(now.message);
  if (isZero(old.value)) return outcome.error('stock split of a position of 0');
  return outcome.with(
    { externalId: row.get('id'), ...instrumentOf(row) },
    {
      type: 'split',
      symbol: row.get('isin'),
      ratio: dividedBy(now.value, old.value),
      currency: (row.get('currency (price / share)') || 'USD').toUpperCase(),
      executedAt: date.value,
      note: `stock split: ${old.value} → ${now.value}`,
    },
  );
}

/** The instrument the row names: its `ISIN`, `Ticker` and `Name` cells (each when given). */
function instrumentOf(row: CsvRow): { name?: string; isin?: string; ticker?: string } {
  return {
    ...(row.get('name') ? { name: row.get('name') } : {}),
    ...(row.get('isin') ? { isin: row.get('isin') } : {}),
    ...(row.get('ticker') ? { ticker: row.get('ticker') } : {}),
  };
}

function mapRow(row: CsvRow): RowOutcome {
  const date = readDateTime(row.get('time'), 'ymd');
  if (!date.ok) return outcome.error(date.message);
  const action = row.get('action');
  const key = action.toLowerCase();
  const isin = row.get('isin');
  const meta = { externalId: row.get('id') || undefined, ...instrumentOf(row) };
  const account = row.get('currency (total)').toUpperCase();
  if (/ (buy|sell)$/.test(key)) return trade(row, key.endsWith('sell'), date.value, meta);
  if (key === 'stock distribution') {
    const quantity = readNumber(row.get('no. of shares'), 'No. of shares');
    if (!quantity.ok) return outcome.error(quantity.message);
    return outcome.with(
      { ...meta, externalId: row.get('id') },
      {
        type: 'buy',
        symbol: isin,
        quantity: quantity.value,
        price: '0',
        currency: (row.get('currency (price / share)') || account).toUpperCase(),
        executedAt: date.value,
        note: 'stock distribution: shares received at zero cost',
      },
    );
  }
  if (key === 'transfer out') {
    return outcome.skip(
      `transfer out of ${isin}: shares moved to another broker; review this holding`,
    );
  }
  const total = readNumber(row.get('total'), 'Total');
  if (!total.ok) return outcome.error(total.message);
  const base = { currency: account, executedAt: date.value };
  if (key.startsWith('dividend')) {
    if (sign(total.value) <= 0) return outcome.skip('dividend of 0: no effect');
    const tax = row.get('withholding tax');
    const note = tax
      ? `net of withholding tax ${tax} ${row.get('currency (withholding tax)')}`
      : undefined;
    return outcome.with(meta, {
      type: 'dividend',
      symbol: isin,
      amount: total.value,
      ...base,
      ...(note ? { note } : {}),
    });
  }
  if (key === 'deposit' || key === 'withdrawal' || key.startsWith('interest')) {
    const signed = key === 'withdrawal' ? `-${abs(total.value)}` : total.value;
    const tx = cashBySign(signed, {
      ...base,
      note: key.startsWith('interest') ? 'interest' : action,
    });
    return tx ? outcome.with(meta, tx) : outcome.skip(`${action} of 0: no effect`);
  }
  return outcome.skip(`action "${action}" is not a row kind the importer models`);
}

function trade(row: CsvRow, sell: boolean, executedAt: string, meta: RowMeta): RowOutcome {
  const quantity = readNumber(row.get('no. of shares'), 'No. of shares');
  if (!quantity.ok) return outcome.error(quantity.message);
  const price = readNumber(row.get('price / share'), 'Price / share');
  if (!price.ok) return outcome.error(price.message);
  const total = readOptionalNumber(row.get('total'), 'Total');
  if (!total.ok) return outcome.error(total.message);
  let currency = row.get('currency (price / share)').toUpperCase();
  let unitPrice = price.value;
  if (currency === 'GBX') {
    currency = 'GBP';
    unitPrice = dividedBy(unitPrice, '100');
  }
  const account = row.get('currency (total)').toUpperCase() || currency;
  const txs: NewTransaction[] = [
    {
      type: sell ? 'sell' : 'buy',
      symbol: row.get('isin') || row.get('ticker'),
      quantity: quantity.value,
      price: unitPrice,
      currency,
      executedAt,
    },
  ];
  if (account !== currency && total.value !== undefined) {
    const gross = times(quantity.value, unitPrice);
    const note = `currency conversion ${account}/${currency} for this trade`;
    const legs = sell
      ? [
          cashBySign(`-${gross}`, { currency, executedAt, note }),
          cashBySign(abs(total.value), { currency: account, executedAt, note }),
        ]
      : [
          cashBySign(gross, { currency, executedAt, note }),
          cashBySign(`-${abs(total.value)}`, { currency: account, executedAt, note }),
        ];
    for (const leg of legs) if (leg) txs.push(leg);
  }
  return outcome.with(meta, ...txs);
}
