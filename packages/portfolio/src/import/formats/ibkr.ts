import type { NewTransaction } from '../../transaction.js';
import { instantFromParts } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import type { Parsed } from '../values.js';
import { abs, isZero, readNumber } from '../values.js';

/**
 * Interactive Brokers Flex Query "Trades" CSV, full (~80 columns) or a subset that keeps
 * `Buy/Sell, TradeDate, Quantity, TradePrice, CurrencyPrimary, IBCommission` and `Symbol` or `ISIN`.
 *
 * The instrument is `Symbol`, else `ISIN`. Quantity and commission are taken as absolute values
 * (IBKR signs them). The commission becomes the trade's fee when `IBCommissionCurrency` is the
 * trade currency, else a separate fee transaction in its own currency. The time is `DateTime`
 * (`yyyyMMdd;HHmmss`, read as UTC: the Flex Query does not state its zone) or `TradeDate`
 * (`yyyyMMdd`). Currency conversions (`AssetClass` CASH, or rows with neither symbol nor ISIN)
 * are skipped: the transaction types have no conversion.
 */
export const ibkrTradesFormat: BrokerFormatSpec = {
  id: 'ibkr-trades',
  label: 'Interactive Brokers Flex Query trades',
  delimiter: ',',
  matches: (header) =>
    hasColumns(header, ['buy/sell', 'tradedate', 'quantity', 'tradeprice', 'currencyprimary']) &&
    (header.includes('symbol') || header.includes('isin')),
  mapRow,
};

function mapRow(row: CsvRow): RowOutcome {
  const symbol = row.get('symbol') || row.get('isin');
  if (row.get('assetclass').toUpperCase() === 'CASH' || symbol === '') {
    return outcome.skip('currency conversion: not modelled as a transaction');
  }
  const side = row.get('buy/sell').toUpperCase();
  if (side !== 'BUY' && side !== 'SELL') {
    return outcome.error(`Buy/Sell "${row.get('buy/sell')}" is not BUY or SELL`);
  }
  const executedAt = readTradeTime(row);
  if (!executedAt.ok) return outcome.error(executedAt.message);
  const quantity = readNumber(row.get('quantity'), 'Quantity');
  if (!quantity.ok) return outcome.error(quantity.message);
  const price = readNumber(row.get('tradeprice'), 'TradePrice');
  if (!price.ok) return outcome.error(price.message);
  const currency = row.get('currencyprimary').toUpperCase();
  const trade = {
    type: side === 'BUY' ? ('buy' as const) : ('sell' as const),
    symbol,
    quantity: abs(quantity.value),
    price: price.value,
    currency,
    executedAt: executedAt.value,
  };
  return withCommission(row, trade, currency);
}

type Trade = Extract<NewTransaction, { type: 'buy' | 'sell' }>;

function withCommission(row: CsvRow, trade: Trade, currency: string): RowOutcome {
  if (row.get('ibcommission') === '') return outcome.ok(trade);
  const commission = readNumber(row.get('ibcommission'), 'IBCommission');
  if (!commission.ok) return outcome.error(commission.message);
  if (isZero(commission.value)) return outcome.ok(trade);
  const fee = abs(commission.value);
  const feeCurrency = (row.get('ibcommissioncurrency') || currency).toUpperCase();
  if (feeCurrency === currency) return outcome.ok({ ...trade, fee });
  return outcome.ok(trade, {
    type: 'fee',
    symbol: trade.symbol,
    amount: fee,
    currency: feeCurrency,
    executedAt: trade.executedAt,
    note: 'IBKR commission',
  });
}

function readTradeTime(row: CsvRow): Parsed<string> {
  const dateTime = /^(\d{4})(\d{2})(\d{2})[;, T]?(\d{2})(\d{2})(\d{2})$/.exec(row.get('datetime'));
  if (dateTime) {
    const [year, month, day, hour, minute, second] = dateTime.slice(1).map(Number);
    return instantFromParts(
      { year: year ?? 0, month: month ?? 0, day: day ?? 0, hour, minute, second },
      row.get('datetime'),
    );
  }
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(row.get('tradedate'));
  if (!date) return { ok: false, message: `TradeDate "${row.get('tradedate')}" is not yyyyMMdd` };
  const [year, month, day] = date.slice(1).map(Number);
  return instantFromParts(
    { year: year ?? 0, month: month ?? 0, day: day ?? 0 },
    row.get('tradedate'),
  );
}
