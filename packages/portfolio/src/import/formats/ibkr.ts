import type { NewTransaction } from '../../transaction.js';
import { instantFromParts } from '../dates.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  hasColumns,
  outcome,
  type RowOutcome,
} from '../row.js';
import type { Parsed } from '../values.js';
import { abs, isZero, negate, readNumber } from '../values.js';

/**
 * Interactive Brokers Flex Query "Trades" CSV, full (~80 columns) or a subset that keeps
 * `Buy/Sell, TradeDate, Quantity, TradePrice, CurrencyPrimary, IBCommission` and `Symbol` or `ISIN`.
 *
 * The instrument is `Symbol`, else `ISIN`. Quantity and commission are taken as absolute values
 * (IBKR signs them). The commission becomes the trade's fee when `IBCommissionCurrency` is the
 * trade currency, else a separate fee transaction in its own currency. The time is `DateTime`
 * (`yyyyMMdd;HHmmss`, read as UTC: the Flex Query does not state its zone) or `TradeDate`
 * (`yyyyMMdd`). `TransactionID` (else `TradeID`) is the fingerprint when present.
 *
 * Currency conversions (`AssetClass` CASH, or rows with neither symbol nor ISIN): `Quantity` is
 * the amount of the base currency (bought > 0, sold < 0), `TradeMoney` the amount of
 * `CurrencyPrimary` it cost or brought. The base currency is the part before `.` of a `Symbol`
 * such as `CHF.USD`; a subset without `Symbol` names it only through the commission, which IBKR
 * charges in the base currency, so `IBCommissionCurrency` is used when it differs from
 * `CurrencyPrimary` (otherwise the row fails). Each conversion becomes a withdrawal in the
 * currency given and a deposit in the one received, plus the commission as a fee.
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
  if (row.get('assetclass').toUpperCase() === 'CASH' || symbol === '') return conversion(row);
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

function conversion(row: CsvRow): RowOutcome {
  const executedAt = readTradeTime(row);
  if (!executedAt.ok) return outcome.error(executedAt.message);
  const quote = row.get('currencyprimary').toUpperCase();
  const pair = /^([A-Z]{3})\.([A-Z]{3})$/.exec(row.get('symbol').toUpperCase());
  const commissionCurrency = row.get('ibcommissioncurrency').toUpperCase();
  const baseCurrency =
    pair?.[1] ?? (commissionCurrency && commissionCurrency !== quote ? commissionCurrency : '');
  if (baseCurrency === '') {
    return outcome.error('currency conversion whose sold currency cannot be told (no Symbol)');
  }
  const quantity = readNumber(row.get('quantity'), 'Quantity');
  if (!quantity.ok) return outcome.error(quantity.message);
  const money = readNumber(row.get('trademoney'), 'TradeMoney');
  if (!money.ok) return outcome.error(money.message);
  const at = executedAt.value;
  const note = `currency conversion ${baseCurrency}/${quote} at ${row.get('tradeprice')}`;
  const txs: NewTransaction[] = [];
  const baseLeg = cashBySign(quantity.value, { currency: baseCurrency, executedAt: at, note });
  const quoteLeg = cashBySign(negate(money.value), { currency: quote, executedAt: at, note });
  if (baseLeg) txs.push(baseLeg);
  if (quoteLeg) txs.push(quoteLeg);
  const commission = readNumber(row.get('ibcommission') || '0', 'IBCommission');
  if (!commission.ok) return outcome.error(commission.message);
  if (!isZero(commission.value)) {
    txs.push({
      type: 'fee',
      amount: abs(commission.value),
      currency: commissionCurrency || quote,
      executedAt: at,
      note: 'IBKR commission',
    });
  }
  return outcome.with({ externalId: externalIdOf(row) }, ...txs);
}

function externalIdOf(row: CsvRow): string | undefined {
  return row.get('transactionid') || row.get('tradeid') || undefined;
}

type Trade = Extract<NewTransaction, { type: 'buy' | 'sell' }>;

function withCommission(row: CsvRow, trade: Trade, currency: string): RowOutcome {
  const meta = { externalId: externalIdOf(row), name: row.get('description') || undefined };
  if (row.get('ibcommission') === '') return outcome.with(meta, trade);
  const commission = readNumber(row.get('ibcommission'), 'IBCommission');
  if (!commission.ok) return outcome.error(commission.message);
  if (isZero(commission.value)) return outcome.with(meta, trade);
  const fee = abs(commission.value);
  const feeCurrency = (row.get('ibcommissioncurrency') || currency).toUpperCase();
  if (feeCurrency === currency) return outcome.with(meta, { ...trade, fee });
  return outcome.with(meta, trade, {
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
