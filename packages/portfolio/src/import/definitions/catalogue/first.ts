import { define } from '../definition.js';
import { ghostfolio } from './converted.js';
import { degiro } from './degiro.js';
import { E2G } from './sources.js';
import { trading212 } from './trading212.js';

// The formats of the first import modules (issue 40: "the twelve modules become definitions"),
// as data. Each was converted only once it read the module's samples and hand-made rows into the
// very same transactions, metadata and import fingerprints (test/catalogue/module-equivalence),
// so that re-importing a file imported with the module duplicates nothing.

/**
 * eToro account statement, "Account Activity" sheet saved as CSV (dates `dd/MM/yyyy HH:mm:ss`,
 * `-` for n/a, `(x)` for negatives; every amount in USD, the account currency). `Open Position` /
 * `Position closed` buy / sell `Units` of the `Details` symbol (`NKE/USD` → NKE) at Amount ÷ Units;
 * fees, SDRT (UK stamp duty) are charges; CFD rows are skipped (a contract, not an owned
 * instrument); a negative dividend is skipped. Broker id: `Position ID`, type and time.
 */
export const etoro = define({
  id: 'etoro',
  label: 'eToro account activity',
  version: 1,
  source: E2G('etoroConverter.ts'),
  recognise: { headers: ['date', 'type', 'details', 'amount', 'units', 'positionid'] },
  read: {
    delimiter: ',',
    columns: {
      date: 'Date',
      action: 'Type',
      symbol: 'Details',
      amount: 'Amount',
      quantity: 'Units',
      id: 'Position ID',
      assetClass: 'Asset type',
    },
    dateOrder: 'dmy',
    decimal: '.',
    currency: 'USD',
    currencySource: 'mapping',
    actions: { 'open position': 'buy', 'position closed': 'sell', dividend: 'dividend' },
    actionPatterns: [
      { pattern: 'fee|sdrt', kind: 'charge' },
      { pattern: 'interest|refund|deposit|withdraw', kind: 'cash' },
      { pattern: '^', kind: 'skip' },
    ],
    notes: [{ pattern: 'interest', note: 'interest' }],
    negativeDividend: 'skip',
    skipClasses: ['CFD'],
    idTemplate: '{id}:{actionLower}:{executedAt}',
  },
});

/**
 * Revolut stock trading statement (ISO 8601 UTC timestamps, `$`/`€`-prefixed amounts). `BUY - *` /
 * `SELL - *` (market, limit, stop) buy / sell at `Price per share` (the total is not used for a
 * fee: it may be in another currency); `STOCK SPLIT` is a buy of the added shares at price 0
 * (Revolut reports the shares received, not the ratio); a `TRANSFER …` between Revolut entities
 * that names a ticker moves a position between legal entities and is skipped, one without a ticker
 * is cash by sign. Any other type fails the file.
 */
export const revolut = define({
  id: 'revolut',
  label: 'Revolut stocks statement',
  version: 1,
  source: E2G('revolutConverter.ts'),
  recognise: {
    headers: ['date', 'ticker', 'type', 'quantity', 'pricepershare', 'totalamount'],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'Date',
      symbol: 'Ticker',
      action: 'Type',
      quantity: 'Quantity',
      price: 'Price per share',
      amount: 'Total Amount',
      currency: 'Currency',
    },
    dateOrder: 'ymd',
    decimal: '.',
    actions: {
      dividend: 'dividend',
      'cash top-up': 'deposit',
      'cash withdrawal': 'withdrawal',
      'custody fee': 'fee',
      'stock split': 'shares',
    },
    actionPatterns: [
      { pattern: '^buy - ', kind: 'buy' },
      { pattern: '^sell - ', kind: 'sell' },
      { pattern: '^transfer ', kind: 'cash' },
    ],
    skipRows: [
      {
        column: 'Type',
        pattern: '^transfer ',
        and: [{ column: 'Ticker', pattern: '.' }],
        reason: 'position transfer between Revolut entities: no change of holdings',
      },
    ],
    notes: [
      { pattern: '^(cash top-up|cash withdrawal|custody fee)$', note: '' },
      { pattern: '^stock split$', note: 'stock split: additional shares received at zero cost' },
    ],
    impliedFee: false,
  },
});

/**
 * Interactive Brokers Flex Query "Cash Transactions" CSV (`Type,SettleDate,ISIN,Description,
 * Amount,CurrencyPrimary`, optionally `DateTime`, `Symbol`, `TransactionID`). Dividends (a negative
 * one, a reversal, a withdrawal), withholding tax (a refund a deposit), fees and commission
 * adjustments (charges), deposits, withdrawals and interest (cash by sign), each noted with its
 * description; the ticker before `(` in the description is the instrument's name. Broker id:
 * `TransactionID`.
 */
export const ibkrCash = define({
  id: 'ibkr-cash',
  label: 'Interactive Brokers Flex Query cash transactions',
  version: 1,
  source: {
    kind: 'broker-documentation',
    reference:
      'Interactive Brokers Flex Query reference (Cash Transactions section); sample in ../shared/data/broker-exports',
  },
  recognise: {
    headers: [
      'type',
      'amount',
      'currencyprimary',
      'description',
      ['settledate', 'datetime', 'date'],
    ],
    excludes: ['buysell'],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'DateTime|SettleDate|Date',
      action: 'Type',
      symbol: 'Symbol',
      isin: 'ISIN',
      name: 'Description',
      amount: 'Amount',
      currency: 'CurrencyPrimary',
      id: 'TransactionID',
    },
    extract: { name: '^([^(]+)\\(' },
    dateOrder: 'ymd',
    decimal: '.',
    actions: {},
    actionPatterns: [
      { pattern: 'dividend', kind: 'dividend' },
      { pattern: 'withholding', kind: 'tax' },
      { pattern: 'fee|commission', kind: 'charge' },
      { pattern: 'deposit|withdraw|interest', kind: 'cash' },
      { pattern: '^', kind: 'skip' },
    ],
    notes: [
      { pattern: 'dividend', note: '{Description}' },
      { pattern: 'withholding', when: 'negative', note: 'withholding tax: {Description}' },
      { pattern: 'withholding', note: 'withholding tax refund: {Description}' },
      { pattern: '.', note: '{Description|action}' },
    ],
    negativeDividend: 'withdrawal',
    idTemplate: '{id}',
  },
});

/**
 * Trade Republic transactions as written by `pytr export_transactions` (Trade Republic has no CSV
 * export of its own): `;`-separated, headers in Dutch, German or English; dates `yyyy-MM-dd` or
 * ISO date-times, a decimal comma or point. Everything is in EUR. The value of a trade is net of its
 * costs (the price is worked out from it; its taxes are a fee apart); a dividend's value is net of
 * its tax (the gross is booked, the tax a fee noted withholding tax). `Opmerking` is the
 * instrument's name.
 */
export const tradeRepublic = define({
  id: 'trade-republic',
  label: 'Trade Republic (pytr export)',
  version: 1,
  source: E2G(
    'tradeRepublicConverter.ts',
    'Trade Republic has no CSV export: this is the layout of `pytr export_transactions`',
  ),
  recognise: {
    headers: [
      ['datum', 'date'],
      ['transactietype', 'typ', 'type'],
      ['waardenetto', 'wertnetto', 'wert', 'value', 'valuenet'],
      'isin',
      ['aantal', 'anzahl', 'shares'],
    ],
    // Portfolio Performance's CSV export has the same words beside its own
    excludes: ['transactioncurrency', 'buchungswahrung', 'grossamount', 'bruttobetrag'],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'datum|date',
      action: 'transactietype|typ|type',
      amount: 'waarde (netto)|wert (netto)|wert|value|value (net)',
      name: 'opmerking|notiz|note',
      isin: 'isin',
      quantity: 'aantal|anzahl|shares',
      fee: 'kosten|gebühren|fees',
      tax: 'belasting|steuern|taxes',
    },
    dateOrder: 'ymd',
    decimal: ',',
    currency: 'EUR',
    currencySource: 'mapping',
    actions: {},
    actionPatterns: [
      { pattern: '^(aankoop|kauf|buy)', kind: 'buy' },
      { pattern: '^(verkoop|verkauf|sell)', kind: 'sell' },
      { pattern: '^dividend', kind: 'dividend' },
      {
        pattern:
          'storting|einzahlung|deposit|onttrekking|auszahlung|withdraw|rente|zinsen|interest',
        kind: 'cash',
      },
      { pattern: '^', kind: 'skip' },
    ],
    notes: [{ pattern: 'rente|zinsen|interest', note: 'interest' }],
    tradeAmount: 'net-of-fee',
    instrument: 'isin',
    names: 'instrument-rows',
  },
});

/**
 * Charles Schwab history CSV (`Date,Action,Symbol,Description,Quantity,Price,Fees & Comm,Amount`;
 * dates `MM/dd/yyyy` or `MM/dd/yyyy as of MM/dd/yyyy`, the first date, when the cash moved, used;
 * `$` amounts). Everything is in USD; the closing `Transactions Total` row is skipped. `Buy`,
 * `Reinvest Shares`, `Sell` trade at `Price` with `Fees & Comm`; dividends of every kind
 * (`… Div …`, `… Cap Gain …`, `Cash In Lieu`) are dividends noted with the action (their
 * reinvestment is its own `Reinvest Shares` row); `Foreign Tax Paid` is withholding tax; other
 * fees and taxes are charges; interest, wires, MoneyLink, transfers and journals are cash by sign;
 * `Stock Split`, `Stock Div Dist`, `Spin-off` buy the shares received at price 0; reverse splits,
 * mergers, name changes, conversions and journaled shares (pairs of lines swapping one security
 * for another) are skipped.
 */
export const schwab = define({
  id: 'schwab',
  label: 'Charles Schwab history',
  version: 1,
  source: E2G('schwabConverter.ts'),
  recognise: {
    headers: ['date', 'action', 'symbol', 'description', 'quantity', 'price', 'amount'],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'Date',
      action: 'Action',
      symbol: 'Symbol',
      name: 'Description',
      quantity: 'Quantity',
      price: 'Price',
      fee: 'Fees & Comm',
      amount: 'Amount',
    },
    dateOrder: 'mdy',
    decimal: '.',
    currency: 'USD',
    currencySource: 'mapping',
    skipRows: [
      { column: 'Date', pattern: '^transactions total', reason: 'the total line of the export' },
    ],
    actions: {
      buy: 'buy',
      'reinvest shares': 'buy',
      sell: 'sell',
      'stock split': 'shares',
      'stock div dist': 'shares',
      'spin-off': 'shares',
    },
    actionPatterns: [
      { pattern: 'split|merger|name change|conversion|journaled shares', kind: 'skip' },
      { pattern: 'div|cap gain|in lieu', kind: 'dividend' },
      { pattern: 'foreign tax', kind: 'tax' },
      { pattern: 'fee|tax', kind: 'charge' },
      { pattern: 'interest|wire|moneylink|transfer|journal|deposit|withdraw', kind: 'cash' },
      { pattern: '^', kind: 'skip' },
    ],
    notes: [
      {
        pattern: '^(stock split|stock div dist|spin-off)$',
        note: '{action}: shares received at zero cost',
      },
      { pattern: 'div|cap gain|in lieu', note: '{action}' },
      { pattern: 'foreign tax', when: 'negative', note: 'withholding tax' },
      { pattern: 'foreign tax', note: '{action}' },
      { pattern: 'interest', note: 'interest' },
    ],
    negativeDividend: 'withdrawal',
    impliedFee: false,
  },
});

const XTB_TRADE = 'purchase|sale|compra|vend|kupno|sprzeda|kauf';
const XTB_WITHHOLDING = 'withholding|podatek|imposto|quellensteuer';
const XTB_CHARGE = 'tax|fee|swap|commission|profit|loss';

/**
 * XTB cash operations report (`ID;Type;Time;Symbol;Comment;Amount`, times `dd.MM.yyyy HH:mm:ss`,
 * types in the account's language: English, Portuguese, Polish, German…). Every amount is in the
 * account currency, which the file does not name: the import's account currency (default EUR).
 * Purchases and sales (`OPEN BUY 34/42.5658 @ 11.7480`: the filled quantity; OPEN buys, CLOSE
 * sells) are recorded at |Amount| ÷ quantity (what the account paid, conversion included: the
 * comment's price is in the instrument's currency, which the file does not give); withholding tax
 * is a fee of the instrument (a refund a deposit); taxes, fees, swaps, commissions and CFD
 * profit/loss are charges; dividends, interest, deposits, withdrawals and transfers are cash by
 * sign. Broker id: `ID` and type (XTB repeats an ID for the row's twin).
 */
export const xtb = define({
  id: 'xtb',
  label: 'XTB cash operations',
  version: 1,
  source: E2G('xtbConverter.ts'),
  recognise: { headers: ['id', 'type', 'time', 'symbol', 'comment', 'amount'] },
  read: {
    delimiter: ';',
    columns: {
      id: 'ID',
      action: 'Type',
      date: 'Time',
      symbol: 'Symbol',
      side: 'Comment',
      quantity: 'Comment',
      amount: 'Amount',
    },
    extract: {
      side: '^(OPEN|CLOSE)\\s+(?:BUY|SELL)\\s',
      quantity: '^(?:OPEN|CLOSE)\\s+(?:BUY|SELL)\\s+([\\d.]+)(?:/[\\d.]+)?\\s*@\\s*[\\d.]+',
    },
    sides: { open: 'buy', close: 'sell' },
    dateOrder: 'dmy',
    decimal: '.',
    currency: 'EUR',
    currencySource: 'account',
    actions: {},
    actionPatterns: [
      { pattern: XTB_TRADE, kind: 'trade' },
      { pattern: XTB_WITHHOLDING, kind: 'tax' },
      { pattern: '^divid', kind: 'dividend' },
      { pattern: XTB_CHARGE, kind: 'charge' },
      {
        pattern: 'spin|interest|deposit|withdraw|transfer|wypłata|wpłata|depósito|levantamento',
        kind: 'cash',
      },
      { pattern: '^', kind: 'skip' },
    ],
    notes: [
      { pattern: XTB_TRADE, note: '{Comment}' },
      { pattern: XTB_WITHHOLDING, when: 'negative', note: 'withholding tax: {Comment}' },
      { pattern: XTB_WITHHOLDING, note: 'withholding tax refund: {Comment}' },
      { pattern: '^divid', when: 'positive', note: '{Comment}' },
      { pattern: 'interest', when: 'positive', note: 'interest: {Comment}' },
      { pattern: `^(?!.*(${XTB_CHARGE})).*interest`, note: 'interest: {Comment}' },
      { pattern: '.', note: '{action}: {Comment}' },
    ],
    negativeDividend: 'withdrawal',
    idTemplate: '{id}:{actionLower}',
  },
});

/**
 * Saxo Bank transactions export saved as CSV (`Client ID,Trade Date,Value Date,Type,Instrument,
 * Instrument ISIN,Instrument currency,Exchange Description,Instrument Symbol,Event,Amount,
 * Order ID,Conversion Rate`; dates `dd-MMM-yyyy`, English or Dutch months; amounts with a decimal
 * comma or point). A `Trade` / `Transactie` is written in its event (`Buy 3 @ 134.85 USD`, `Koop`,
 * `Verkoop`…), in the event's currency, of the symbol before `:` (`NVDA:xnas` → NVDA; else the
 * ISIN); at `Conversion Rate` 1 the amount is in that currency too and its excess over
 * quantity × price is the commission. A `Corporate action` that is a dividend is a dividend in the
 * instrument currency (a negative one skipped); other corporate actions are skipped. `Cash amount`
 * rows are charges, `Cash Transfer` rows cash by sign, noted with the event. Broker id: `Order ID`.
 */
export const saxo = define({
  id: 'saxo',
  label: 'Saxo Bank transactions',
  version: 1,
  source: E2G('saxoConverter.ts'),
  recognise: {
    headers: ['tradedate', 'valuedate', 'type', 'instrument', 'event', 'amount'],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'Trade Date',
      action: 'Type',
      name: 'Instrument',
      isin: 'Instrument ISIN',
      currency: 'Instrument currency',
      symbol: 'Instrument Symbol',
      details: 'Event',
      amount: 'Amount',
      id: 'Order ID',
      fxRate: 'Conversion Rate',
    },
    dateOrder: 'dmy',
    decimal: ',',
    decimals: { details: '.' },
    actions: {
      trade: 'trade',
      transactie: 'trade',
      'corporate action': 'dividend',
      'cash amount': 'charge',
      'cash transfer': 'cash',
    },
    actionPatterns: [{ pattern: '^', kind: 'skip' }],
    skipRows: [
      {
        column: 'Type',
        pattern: '^corporate action$',
        and: [{ column: 'Event', pattern: '^(?!.*dividend)' }],
        reason: 'a corporate action other than a dividend is not modelled',
      },
    ],
    notes: [{ pattern: '^cash (amount|transfer)$', note: '{Event}' }],
    negativeDividend: 'skip',
    impliedFee: 'at-rate-1',
    idTemplate: '{id}',
  },
});

/**
 * Interactive Brokers Flex Query "Trades" CSV, full (~80 columns) or a subset that keeps
 * `Buy/Sell, TradeDate, Quantity, TradePrice, CurrencyPrimary, IBCommission` and `Symbol` or `ISIN`.
 * The instrument is `Symbol`, else `ISIN`; quantity and commission are taken without their sign.
 * The commission is the trade's fee in the trade's currency, else a fee of its own in
 * `IBCommissionCurrency`. The time is `DateTime` (`yyyyMMdd;HHmmss`, as UTC: the query does not
 * state its zone), else `TradeDate`. A currency conversion (`AssetClass` CASH, or no instrument):
 * `Quantity` of the base currency (`CHF.USD` → CHF; without a symbol, the commission currency,
 * which IBKR charges in the base currency) for `TradeMoney` of `CurrencyPrimary`, a deposit and a
 * withdrawal and the commission. Broker id: `TransactionID`, else `TradeID`.
 */
export const ibkrTrades = define({
  id: 'ibkr-trades',
  label: 'Interactive Brokers Flex Query trades',
  version: 1,
  source: {
    kind: 'broker-documentation',
    reference:
      'Interactive Brokers Flex Query reference (Trades section field names); samples in ../shared/data/broker-exports',
  },
  recognise: {
    headers: [
      'buysell',
      'tradedate',
      'quantity',
      'tradeprice',
      'currencyprimary',
      ['symbol', 'isin'],
    ],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'DateTime|TradeDate',
      action: 'AssetClass',
      side: 'Buy/Sell',
      symbol: 'Symbol',
      isin: 'ISIN',
      name: 'Description',
      quantity: 'Quantity',
      price: 'TradePrice',
      amount: 'TradeMoney',
      currency: 'CurrencyPrimary',
      fee: 'IBCommission',
      feeCurrency: 'IBCommissionCurrency',
      id: 'TransactionID|TradeID',
    },
    dateOrder: 'ymd',
    decimal: '.',
    actions: { cash: 'conversion' },
    actionPatterns: [{ pattern: '^', kind: 'trade' }],
    sides: { buy: 'buy', sell: 'sell' },
    noInstrument: 'conversion',
    feeNote: 'IBKR commission',
    impliedFee: false,
    names: 'instrument-rows',
    idTemplate: '{id}',
  },
});

/** Ids of the definitions that replaced the first modules (see `catalogueDefinition`). */
export const FIRST_DEFINITION_IDS: ReadonlySet<string> = new Set([
  etoro.id,
  revolut.id,
  ibkrCash.id,
  tradeRepublic.id,
  schwab.id,
  xtb.id,
  saxo.id,
  ibkrTrades.id,
  degiro.id,
  ghostfolio.id,
  trading212.id,
]);
