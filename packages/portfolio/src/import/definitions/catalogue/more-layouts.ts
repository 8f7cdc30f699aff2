import { define, type FormatDefinition } from '../definition.js';
import { TRADING212_ACTION_PATTERNS, TRADING212_NOTES } from './converted.js';

// Other layouts of brokers the catalogue already reads (issue 40: "a real export often differs
// from the one layout we have"), each from a public source that names its columns. Only the
// column names and the order were taken from the sources (facts of the broker's file); no code
// was copied.

/**
 * DEGIRO's "Transactions" report (`Transactions.csv`, English, the layout before the AutoFX
 * column): `Date,Time,Product,ISIN,Reference,Venue,Quantity,Price,,Local value,,Value,,Exchange
 * rate,Transaction and/or third,,Total,,Order ID` — 19 columns, the currency of each amount in
 * the unnamed column after it. Trades only (dividends, fees and deposits are in the account
 * statement, the `degiro` entry): every row is a trade of `Quantity` (negative: a sale) at
 * `Price` in its currency (column 8), the transaction costs (column 14, negative) in their own
 * currency (column 15) — booked apart when it is not the price's. `Total` (the cash after
 * DEGIRO's conversion) is not read: the file does not say how the conversion was booked; the
 * account statement does. Dates `dd-MM-yyyy`, times `HH:mm`, numbers with a `.` decimal mark.
 * Recorded under the ISIN; broker id the order id.
 */
export const degiroTransactions = define({
  id: 'degiro-transactions',
  label: 'DEGIRO transactions report',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'jose-pleonasm/Halir@1ebe1e0a docs/degiro/transactions-versions.md (the 19 column titles in order) and src/modules/degiro/csvToHston.js (side from the sign of Quantity; price, fees and total each followed by their currency); jaantaponen/verotunkki front/src/utils/parsers/loadTransactions.ts (unnamed headers are the currency of the column before; dates DD-MM-YYYY and HH:mm)',
    licence: 'not stated (UNLICENSED in package.json; column names only)',
    note: 'decimal mark `.`: both importers read the cells as plain numbers after a comma split; the newer layout with `AutoFX Fee` and `Total EUR` is degiro-transactions-2024',
  },
  recognise: {
    headers: ['isin', 'venue', 'quantity', 'price', 'orderid'],
    excludes: ['autofxfee'],
    minColumns: 19,
    positions: { '0': ['date'], '3': ['isin'], '6': ['quantity'], '18': ['orderid'] },
  },
  read: {
    delimiter: ',',
    columns: {
      date: '#0',
      time: '#1',
      name: '#2',
      isin: '#3',
      quantity: '#6',
      price: '#7',
      currency: '#8',
      fee: '#14',
      feeCurrency: '#15',
      id: '#18',
    },
    dateOrder: 'dmy',
    decimal: '.',
    instrument: 'isin',
    actions: {},
    noInstrument: 'error',
    idTemplate: '{id}',
  },
});

/**
 * DEGIRO's "Transactions" report in its newer layout (`Date,Time,Product,ISIN,Reference
 * exchange,Venue,Quantity,Price,,Local value,,Value EUR,Exchange rate,AutoFX Fee,Transaction
 * and/or third party fees EUR,Total EUR,Order ID,`): the account currency is in the headers, the
 * price's currency in the unnamed column after `Price`. Trades only: `Quantity` (negative: a
 * sale) at `Price` in its currency. A trade in EUR costs `Total EUR`: its fee is what the total
 * exceeds quantity × price by (the row has no exchange rate). A trade in another currency was
 * converted by DEGIRO: beside the trade a deposit of quantity × price in its currency and a
 * withdrawal of `Total EUR` (fees and the AutoFX fee included; a sale: the reverse). Only EUR
 * accounts (the header names `Total EUR`). Dates `dd-MM-yyyy`, numbers with a `.` decimal mark.
 */
export const degiroTransactions2024 = define({
  id: 'degiro-transactions-2024',
  label: 'DEGIRO transactions report (AutoFX layout)',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'jose-pleonasm/Halir@1ebe1e0a docs/degiro/transactions-versions.md (second layout: the 17 column titles in order, `AutoFX Fee`, `Total EUR`)',
    licence: 'not stated (UNLICENSED in package.json; column names only)',
    note: 'decimal mark and the empty exchange rate of EUR trades as in the older layout (see degiro-transactions); a EUR trade written with a rate other than 1 keeps no fee',
  },
  recognise: {
    headers: ['isin', 'venue', 'quantity', 'price', 'autofxfee', 'totaleur', 'orderid'],
    positions: { '0': ['date'], '3': ['isin'], '6': ['quantity'] },
  },
  read: {
    delimiter: ',',
    columns: {
      date: '#0',
      time: '#1',
      name: '#2',
      isin: '#3',
      quantity: '#6',
      price: '#7',
      amount: 'Total EUR',
      fxRate: 'Exchange rate',
      id: 'Order ID',
    },
    currency: 'EUR',
    currencySource: 'mapping',
    priceCurrency: '#8',
    dateOrder: 'dmy',
    decimal: '.',
    instrument: 'isin',
    actions: {},
    impliedFee: 'at-rate-1',
    noInstrument: 'error',
    idTemplate: '{id}',
  },
});

/**
 * Trading 212 history export of the layout that names the account currency in the headers
 * (`…,Currency (Price / share),Exchange rate,[Result (EUR),]Total (EUR),[Withholding tax,Currency
 * (Withholding tax),][Charge amount (EUR),]…,Notes,ID,…`; 2021 to 2024 exports, before `Currency
 * (Total)` was a column of its own; the columns after `Total` vary by the kinds of rows). Read as
 * the `trading212` entry: `Market|Limit|Stop buy` / `… sell` a trade of `No. of shares` at `Price /
 * share` in its currency (`GBX` as GBP ÷ 100); when that is not the account's currency, Trading
 * 212 converted: a deposit of the trade's gross in its currency and a withdrawal of `Total` in the
 * account's (reversed for a sale). `Dividend (…)`: `Total` net, the withholding tax named in the
 * note; `Deposit`, `Withdrawal`, `Interest on cash`: cash; any other action skipped. Charges
 * (`Charge amount`, stamp duty, conversion fees) are not read, as in the `trading212` entry.
 */
function trading212Named<const Id extends string>(
  id: Id,
  currency: 'EUR' | 'GBP' | 'USD',
  reference: string,
): FormatDefinition & { readonly id: Id } {
  return define({
    id,
    label: `Trading 212 history (${currency} account, currency in the headers)`,
    version: 1,
    source: {
      kind: 'open-source-importer',
      reference,
      licence: 'not stated (column names only)',
      note: 'the account currency is read from the header name (`Total (EUR)`), as Neophytez/t212-edavki reads it from `Result (…)`',
    },
    recognise: {
      headers: ['action', 'time', 'noofshares', 'priceshare', `total${currency.toLowerCase()}`],
      excludes: ['currencytotal'],
    },
    read: {
      delimiter: ',',
      columns: {
        date: 'Time',
        action: 'Action',
        isin: 'ISIN',
        symbol: 'Ticker',
        name: 'Name',
        quantity: 'No. of shares',
        price: 'Price / share',
        amount: `Total (${currency})`,
        id: 'ID',
      },
      currency,
      currencySource: 'mapping',
      dateOrder: 'ymd',
      decimal: '.',
      instrument: 'isin',
      priceCurrency: 'Currency (Price / share)',
      actions: {
        deposit: 'cash',
        withdrawal: 'withdrawal',
      },
      actionPatterns: TRADING212_ACTION_PATTERNS,
      notes: TRADING212_NOTES,
      negativeDividend: 'skip',
      impliedFee: false,
      idTemplate: '{id}',
    },
  });
}

const T212_SOURCES =
  'Neophytez/t212-edavki main.py (2021 and 2022 headers with `Result (EUR)`, `Total (EUR)`, `Charge amount (EUR)`, `Currency conversion fee (EUR)`; base currency from the header)';

/** Trading 212, EUR account, currency in the headers (see {@link trading212Named}). */
export const trading212Eur = trading212Named('trading212-eur', 'EUR', T212_SOURCES);

/** Trading 212, GBP account, currency in the headers (see {@link trading212Named}). */
export const trading212Gbp = trading212Named(
  'trading212-gbp',
  'GBP',
  'alexpung/UK-Investment-tax-calculator@ffa58be8 UnitTest/Test/Parser/Trading212CsvParseControllerTest.cs (2024 header: `Result (GBP),Total (GBP),Withholding tax,Currency (Withholding tax),Stamp duty reserve tax,…,Notes,ID,…,Currency conversion fee (GBP)`)',
);

/** Trading 212, USD account, currency in the headers (see {@link trading212Named}). */
export const trading212Usd = trading212Named(
  'trading212-usd',
  'USD',
  `${T212_SOURCES}; its README: base currency EUR or USD`,
);

/**
 * Scalable Capital's older export through Baader Bank: the securities turnover file ("WUM",
 * Wertpapierumsätze), `;`-separated, its columns named by Baader's field codes (`XXX-BUDAT`
 * booking date `yyyyMMdd`, `XXX-BUZEIT` time, `XXX-WPKURS` price, `XXX-WHGAB` currency, `XXX-NW`
 * quantity, `XXX-WPNR` ISIN, `XXX-WPGART` `Kauf`/`Verkauf`, `XXX-EXTORDID` order reference,
 * `XXX-BELEGU` savings plan). Trades only, without their fees (those are in the cash account
 * file, "RKK", not read here): a buy or sell of |`XXX-NW`| at `XXX-WPKURS`; any other kind fails
 * the file. Numbers with a `,` decimal mark. Recorded under the ISIN; broker id the reference.
 */
export const scalableCapitalBaader = define({
  id: 'scalable-capital-baader',
  label: 'Scalable Capital (Baader Bank) Wertpapierumsätze',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'VibeNL/GhostfolioSidekick Parsers/ScalableCaptial/BaaderBankWUMRecord.cs (column names, date yyyyMMdd, price and quantity in nl-NL culture) and ScalableCapitalWUMParser.cs (`;`; Kauf/Verkauf, |quantity|, anything else unsupported)',
    licence: 'not stated in the files read (column names only)',
    note: 'the order of the columns is not given by the source (read by name); the cash account file (RKK: Saldo, Coupons/Dividende, ORDERGEBUEHR rows) is not covered: its other rows are not documented',
  },
  recognise: {
    headers: ['xxxbudat', 'xxxwpkurs', 'xxxwhgab', 'xxxnw', 'xxxwpnr', 'xxxwpgart'],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'XXX-BUDAT',
      price: 'XXX-WPKURS',
      currency: 'XXX-WHGAB',
      quantity: 'XXX-NW',
      isin: 'XXX-WPNR',
      action: 'XXX-WPGART',
      id: 'XXX-EXTORDID',
    },
    dateOrder: 'ymd',
    decimal: ',',
    instrument: 'isin',
    actions: { kauf: 'buy', verkauf: 'sell' },
    noInstrument: 'error',
    impliedFee: false,
    idTemplate: '{id}',
  },
});
