import { readDateTime } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import { abs, dividedBy, readNumber, sign } from '../values.js';

/**
 * XTB cash operations report (`ID;Type;Time;Symbol;Comment;Amount`, `;`-separated, times
 * `dd.MM.yyyy HH:mm:ss`, types in the language of the account: English, Portuguese, Polish,
 * German…). Every amount is in the account currency, which the file does not name: it is the
 * import's `accountCurrency` option (default EUR).
 *
 * - purchases (`Stocks/ETF purchase`, `Ações/ETF compra`, `kupno`, `Kauf`), Comment `OPEN BUY 34/42.5658
 *   @ 11.7480` (filled / ordered quantity) → buy of the filled quantity; sales (`… sale`, `vende`,
 *   `sprzedaż`, `Verkauf`), `CLOSE BUY 1 @ 26.28` → sell. The price in the comment is in the
 *   instrument's currency, which the file does not give either, so the trade is recorded in the
 *   account currency at |Amount| ÷ quantity (what the account paid, conversion included);
 * - `Dividend` → dividend (a negative one, an index CFD adjustment, → withdrawal);
 *   `Withholding tax` → fee noted withholding tax (a positive one, a refund, → deposit);
 * - `Free funds interests` → deposit noted interest (a correction < 0 → withdrawal);
 *   `… interests tax`, `SEC fee`, `Swap`, `Commission`, negative `Profit/Loss (FX/CFD)` → fee;
 *   positive P/L, `Spin off` cash → deposit;
 * - `Deposit`, `Withdrawal`, `Transfer` → deposit / withdrawal by sign;
 * - any other type → skipped with its name. Fingerprint: `ID` + type (XTB repeats a row's ID for
 *   the row's twin, such as the sale closing a purchase).
 */
export const xtbFormat: BrokerFormatSpec = {
  id: 'xtb',
  label: 'XTB cash operations',
  delimiter: ';',
  matches: (header) => hasColumns(header, ['id', 'type', 'time', 'symbol', 'comment', 'amount']),
  mapRow,
};

const TRADE = /^(OPEN|CLOSE)\s+(BUY|SELL)\s+([\d.]+)(?:\/[\d.]+)?\s*@\s*([\d.]+)/i;

function mapRow(row: CsvRow, context: { accountCurrency?: string } = {}): RowOutcome {
  const date = readDateTime(row.get('time'), 'dmy');
  if (!date.ok) return outcome.error(date.message);
  const amount = readNumber(row.get('amount'), 'Amount');
  if (!amount.ok) return outcome.error(amount.message);
  const type = row.get('type');
  const key = type.toLowerCase();
  const symbol = row.get('symbol');
  const comment = row.get('comment');
  const base = { currency: context.accountCurrency ?? 'EUR', executedAt: date.value };
  const meta = { externalId: `${row.get('id')}:${key}` };
  const trade = TRADE.exec(comment);
  if (trade && /purchase|sale|compra|vend|kupno|sprzeda|kauf/.test(key)) {
    const quantity = readNumber(trade[3] ?? '', 'quantity');
    if (!quantity.ok) return outcome.error(quantity.message);
    if (sign(quantity.value) <= 0) return outcome.error('trade of quantity 0');
    const sell = trade[1]?.toUpperCase() === 'CLOSE';
    return outcome.with(meta, {
      type: sell ? 'sell' : 'buy',
      symbol,
      quantity: quantity.value,
      price: dividedBy(abs(amount.value), quantity.value),
      ...base,
      note: comment,
    });
  }
  if (sign(amount.value) === 0) return outcome.skip(`${type} of 0: no effect`);
  if (/withholding|podatek|imposto|quellensteuer/.test(key) || /\bWHT\b/.test(comment)) {
    const tx =
      sign(amount.value) < 0
        ? {
            type: 'fee' as const,
            amount: abs(amount.value),
            ...(symbol ? { symbol } : {}),
            ...base,
            note: `withholding tax: ${comment}`,
          }
        : cashBySign(amount.value, { ...base, note: `withholding tax refund: ${comment}` });
    return tx ? outcome.with(meta, tx) : outcome.skip('tax of 0');
  }
  if (/^divid/.test(key) && sign(amount.value) > 0 && symbol) {
    return outcome.with(meta, {
      type: 'dividend',
      symbol,
      amount: amount.value,
      ...base,
      note: comment,
    });
  }
  if (
    /tax|fee|swap|commission|profit|loss|divid|spin|interest|deposit|withdraw|transfer|wypłata|wpłata|depósito|levantamento/.test(
      key,
    )
  ) {
    const tx =
      sign(amount.value) < 0 && /tax|fee|swap|commission|profit|loss/.test(key)
        ? { type: 'fee' as const, amount: abs(amount.value), ...base, note: `${type}: ${comment}` }
        : cashBySign(amount.value, {
            ...base,
            note: /interest/.test(key) ? `interest: ${comment}` : `${type}: ${comment}`,
          });
    return tx ? outcome.with(meta, tx) : outcome.skip(`${type} of 0`);
  }
  return outcome.skip(`type "${type}" is not a row kind the importer models`);
}
