import { define, type FormatDefinition } from '../definition.js';
import { E2G } from './sources.js';

// Trading 212's history exports, as data: one shape (comma-separated, times `yyyy-MM-dd HH:mm:ss`,
// a decimal point, the ISIN as the instrument, a trade priced in its own currency and converted
// from the account's) filled with where each layout names the account's currency.

type Read = FormatDefinition['read'];

/** One Trading 212 layout: where it names the account's currency, and whether it has corporate actions. */
interface Trading212Layout {
  readonly id: string;
  readonly label: string;
  readonly source: FormatDefinition['source'];
  /**
   * The account's currency: `column`, a column of its own (`Currency (Total)`, after `Total`);
   * else the currency the layout names in its headers (`Total (EUR)`), before that column existed.
   */
  readonly account: 'column' | 'EUR' | 'GBP' | 'USD';
  /**
   * Whether the corporate-action rows are read (stock distributions, split pairs, rows written two
   * cells right; transfers out skipped): documented for the layout with `Currency (Total)` only.
   */
  readonly corporateActions?: true;
}

/** The headers every layout has (folded), besides the one that names the account's currency. */
const HEADERS = ['action', 'time', 'noofshares', 'priceshare'];

/**
 * Trading 212's action words (`Market buy`, `Limit sell`, `Dividend (Ordinary)`, `Interest on
 * cash`; anything else skipped), shared by every layout.
 */
const ACTION_PATTERNS: NonNullable<Read['actionPatterns']> = [
  { pattern: ' buy$', kind: 'buy' },
  { pattern: ' sell$', kind: 'sell' },
  { pattern: '^dividend', kind: 'dividend' },
  { pattern: '^interest', kind: 'cash' },
  { pattern: '^', kind: 'skip' },
];

/** Trading 212's notes: a dividend's withholding tax when there is one, interest. */
const NOTES: NonNullable<Read['notes']> = [
  {
    pattern: '^dividend',
    filled: 'Withholding tax',
    note: 'net of withholding tax {Withholding tax} {Currency (Withholding tax)}',
  },
  { pattern: '^interest', note: 'interest' },
];

/** How the corporate-action rows read (see {@link Trading212Layout} `corporateActions`). */
const CORPORATE_ACTIONS = {
  actions: { 'stock distribution': 'shares', 'transfer out': 'skip' },
  notes: [
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
} satisfies Pick<Read, 'actions' | 'notes' | 'shiftedRows' | 'pairedRows'>;

/**
 * A Trading 212 definition from where its layout names the account's currency (see
 * {@link Trading212Layout}). Rows: `Market|Limit|Stop buy` / `… sell` a trade of `No. of shares`
 * at `Price / share` in its currency (`Currency (Price / share)`; `GBX` as GBP ÷ 100), no fee;
 * when that is not the account's currency, Trading 212 converted: a deposit of the trade's gross
 * in its currency and a withdrawal of `Total` in the account's (reversed for a sale).
 * `Dividend (…)`: `Total` net, the withholding tax named in the note (a negative one skipped);
 * `Deposit`, `Withdrawal`, `Interest on cash` (noted interest): cash in the account's currency;
 * any other action skipped. Recorded under the ISIN (the ticker beside it); broker id `ID`.
 */
function trading212Definition<const Id extends string>(
  layout: Trading212Layout & { readonly id: Id },
) {
  const { account } = layout;
  const inColumn = account === 'column';
  const corporate = layout.corporateActions === true;
  return define({
    id: layout.id,
    label: layout.label,
    version: 1,
    source: layout.source,
    recognise: inColumn
      ? { headers: [...HEADERS, 'currencytotal'] }
      : { headers: [...HEADERS, `total${account.toLowerCase()}`], excludes: ['currencytotal'] },
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
        ...(inColumn
          ? { amount: 'Total', currency: 'Currency (Total)' }
          : { amount: `Total (${account})` }),
        id: 'ID',
      },
      ...(inColumn ? {} : { currency: account, currencySource: 'mapping' as const }),
      dateOrder: 'ymd',
      decimal: '.',
      instrument: 'isin',
      priceCurrency: 'Currency (Price / share)',
      actions: {
        deposit: 'cash',
        withdrawal: 'withdrawal',
        ...(corporate ? CORPORATE_ACTIONS.actions : {}),
      },
      actionPatterns: ACTION_PATTERNS,
      notes: corporate ? [...NOTES, ...CORPORATE_ACTIONS.notes] : NOTES,
      ...(corporate
        ? { shiftedRows: CORPORATE_ACTIONS.shiftedRows, pairedRows: CORPORATE_ACTIONS.pairedRows }
        : {}),
      negativeDividend: 'skip',
      impliedFee: false,
      idTemplate: '{id}',
    },
  });
}

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
export const trading212 = trading212Definition({
  id: 'trading212',
  label: 'Trading 212 history',
  source: E2G('trading212Converter.ts'),
  account: 'column',
  corporateActions: true,
});

/**
 * Trading 212 history export of the layout that names the account currency in the headers
 * (`…,Currency (Price / share),Exchange rate,[Result (EUR),]Total (EUR),[Withholding tax,Currency
 * (Withholding tax),][Charge amount (EUR),]…,Notes,ID,…`; 2021 to 2024 exports, before `Currency
 * (Total)` was a column of its own; the columns after `Total` vary by the kinds of rows). Read as
 * the `trading212` entry (see {@link trading212Definition}) but for the corporate actions, which
 * these sources do not document. Charges (`Charge amount`, stamp duty, conversion fees) are not
 * read, as in the `trading212` entry.
 */
function trading212Named<const Id extends string>(
  id: Id,
  currency: 'EUR' | 'GBP' | 'USD',
  reference: string,
) {
  return trading212Definition({
    id,
    label: `Trading 212 history (${currency} account, currency in the headers)`,
    source: {
      kind: 'open-source-importer',
      reference,
      licence: 'not stated (column names only)',
      note: 'the account currency is read from the header name (`Total (EUR)`), as Neophytez/t212-edavki reads it from `Result (…)`',
    },
    account: currency,
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
