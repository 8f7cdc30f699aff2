import type { ColumnMapping } from '../../mapping.js';
import { define } from '../definition.js';

// The last import modules converted to definitions (issue 40, "the twelve modules become
// definitions"), each held to the outcomes recorded from its module (test/catalogue/
// module-equivalence): the same transactions, metadata and import fingerprints.

/**
 * Ghostfolio's activity CSV (`Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note`;
 * `Symbol` for `Code`, `Comment` for `Note` also read). Actions `buy`, `sell` (quantities without
 * a sign; the fee on the trade), `dividend` (quantity × price; its fee a fee transaction apart),
 * `fee` (the Fee cell), `interest` (a deposit noted interest); `item`, `liability` and any other
 * fail the file. A buy or sell of quantity 0 is its fee, or skipped without one. A `MANUAL` data
 * source names no listed instrument: its symbol is a label, leading a fee's note. The row's note
 * is its transactions'. Dates `dd-MM-yyyy`, `dd/MM/yyyy`, `dd.MM.yyyy`, `yyyyMMdd`, ISO 8601.
 */
export const ghostfolio = define({
  id: 'ghostfolio',
  label: 'Ghostfolio CSV',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'ghostfolio/ghostfolio@c542997d apps/client/src/app/services/import-activities.service.ts and test/import/ok/sample.csv',
    licence: 'AGPL-3.0',
  },
  recognise: { headers: ['date', 'currency', 'price', 'quantity', 'action', ['code', 'symbol']] },
  read: {
    delimiter: ',',
    columns: {
      date: 'Date',
      action: 'Action',
      symbol: 'Code|Symbol',
      currency: 'Currency',
      price: 'Price',
      quantity: 'Quantity',
      fee: 'Fee',
    },
    dateOrder: 'dmy',
    yearFirst: true,
    decimal: '.',
    actions: {
      buy: 'buy',
      sell: 'sell',
      dividend: 'dividend',
      fee: 'fee',
      interest: 'interest',
    },
    notes: [
      {
        pattern: '^(buy|sell|dividend|fee|interest)$',
        filled: 'Note|Comment',
        note: '{Note|Comment}',
      },
    ],
    ownFee: true,
    unlisted: { column: 'DataSource', pattern: '^manual$' },
    quantitySign: 'positive',
    impliedFee: false,
  },
});

/**
 * Trading 212's action words (`Market buy`, `Limit sell`, `Dividend (Ordinary)`, `Interest on
 * cash`; anything else skipped), shared by every Trading 212 layout.
 */
export const TRADING212_ACTION_PATTERNS: NonNullable<ColumnMapping['actionPatterns']> = [
  { pattern: ' buy$', kind: 'buy' },
  { pattern: ' sell$', kind: 'sell' },
  { pattern: '^dividend', kind: 'dividend' },
  { pattern: '^interest', kind: 'cash' },
  { pattern: '^', kind: 'skip' },
];

/** Trading 212's notes: a dividend's withholding tax when there is one, interest. */
export const TRADING212_NOTES: NonNullable<ColumnMapping['notes']> = [
  {
    pattern: '^dividend',
    filled: 'Withholding tax',
    note: 'net of withholding tax {Withholding tax} {Currency (Withholding tax)}',
  },
  { pattern: '^interest', note: 'interest' },
];

/**
 * Trading 212 history export (`Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,
 * Currency (Price / share),Exchange rate,Result,Currency (Result),Total,Currency (Total),
 * Withholding tax,Currency (Withholding tax),Notes,ID,…`; times `yyyy-MM-dd HH:mm:ss(.SSS)`).
 * `Market|Limit|Stop buy` / `… sell`: a trade of `No. of shares` at `Price / share` in its
 * currency (`GBX` as GBP ÷ 100), no fee; when `Currency (Total)` (the account's) differs,
 * Trading 212 converted: a deposit of the trade's gross in its currency and a withdrawal of
 * `Total` in the account's (reversed for a sale). `Dividend (…)`: `Total` in the account's
 * currency, net, the withholding tax named in the note; `Deposit`, `Withdrawal`, `Interest on
 * cash` (noted interest): cash in the account's currency. Corporate-action rows are written two
 * cells right (an empty cell and their `EOF…` id where `No. of shares` belongs): realigned, the
 * id to `ID`. `Stock split close` + `Stock split open` of one ISIN (the whole position before and
 * after): one split of ratio open ÷ close; `Stock distribution`: the shares received at price 0;
 * `Transfer out` and any other action skipped. Recorded under the ISIN (the ticker beside it);
 * broker id `ID` where given.
 */
export const trading212 = define({
  id: 'trading212',
  label: 'Trading 212 history',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'dickwolff/Export-To-Ghostfolio@9e35bd60 src/converters/trading212Converter.ts (read as documentation) and its sample in ../shared/data/broker-exports',
    licence: 'Apache-2.0',
  },
  recognise: { headers: ['action', 'time', 'noofshares', 'priceshare', 'currencytotal'] },
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
      amount: 'Total',
      currency: 'Currency (Total)',
      id: 'ID',
    },
    dateOrder: 'ymd',
    decimal: '.',
    instrument: 'isin',
    priceCurrency: 'Currency (Price / share)',
    actions: {
      deposit: 'cash',
      withdrawal: 'withdrawal',
      'stock distribution': 'shares',
      'transfer out': 'skip',
    },
    actionPatterns: TRADING212_ACTION_PATTERNS,
    notes: [
      ...TRADING212_NOTES,
      { pattern: '^stock distribution$', note: 'stock distribution: shares received at zero cost' },
    ],
    shiftedRows: [
      {
        when: [
          { column: '#5', pattern: '^$' },
          { column: '#6', pattern: '^EOF\\d+$' },
        ],
        at: 5,
        by: 2,
        keep: { position: 6, column: 'ID' },
      },
    ],
    pairedRows: [
      {
        first: '^stock split close$',
        second: '^stock split open$',
        key: 'ISIN',
        kind: 'split',
        note: 'stock split: {before} → {after}',
      },
    ],
    negativeDividend: 'skip',
    impliedFee: false,
    idTemplate: '{id}',
  },
});
