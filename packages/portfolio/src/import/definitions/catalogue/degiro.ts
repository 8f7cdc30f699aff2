import { define, type FormatDefinition, type Recognition } from '../definition.js';
import { E2G } from './sources.js';

// DEGIRO as data (issue 40). The account statement was converted from the module
// `formats/degiro.ts` once it read the module's recorded files into the very same transactions,
// ids, names and fingerprints (test/catalogue/module-equivalence, module-golden/degiro.json); the
// two layouts of the "Transactions" report (trades only) are built from one shape. Only the
// column names and the order were taken from the report's sources (facts of the broker's file);
// no code was copied.

const BUY_WORDS = 'koop|buy|kauf|compra|achat|acquisto';
const SELL_WORDS = 'verkoop|sell|verkauf|venda|vente|vendita';
/** "Koop 1 @ 33,9 USD", "Compra 6 ISHARES MSCI WOR A@49,785 EUR (IE00B4L5Y983)", "Sell 4 AVIVA@496 GBX" */
const TRADE = String.raw`^(?<side>${BUY_WORDS}|${SELL_WORDS})\s+(?<quantity>[\d.,]+)\s*[^@]*?\s*@\s*(?<price>[\d.,]+)\s+(?<currency>[A-Z]{3})`;
const FEE = 'kosten|costs|fee|frais|comiss|commiss|gebühr';
const TAX = 'belasting|impôts? sur|imposto|steuer|dividend tax|withholding|retenci';
const CONVERSION = 'valuta|divisa|währungswechsel|currency|fx (credit|debit)|cambio';
const INTEREST = 'courtesy|rente|interest|zinsen|intérêts|interes';
const CASH =
  'deposit|storting|ingreso|einzahlung|withdrawal|terugstorting|opname|auszahlung|levantamento|retrait|dépôt|flatex';

/**
 * DEGIRO account statement (`Account.csv`, "Rekeningoverzicht"), read by column position because
 * the header is localised (`Datum,Tijd,Valutadatum,Product,ISIN,Omschrijving,FX,Mutatie,,Saldo,,
 * Order Id` in Dutch; English, German, French, Spanish, Portuguese and Italian exports have the
 * same twelve columns). Dates `dd-MM-yyyy` + `HH:mm`, amounts with a decimal comma or point. A row
 * whose only cell is the last one continues the previous row's `Order Id` (`continuation`). Rows,
 * recognised from the description (`Omschrijving`), in this order:
 * - `Cash Sweep Transfer` and `Overboeking … uw geldrekening` (moves between the DEGIRO account
 *   and its flatex cash account, both the user's), rows without an amount and `PRODUCTWIJZIGING`
 *   (a product change: the same ISIN sold and bought back at 0) → skipped;
 * - `Koop|Buy|Kauf|Compra|Achat|Acquisto 6 [name]@ 79,35 EUR` → buy of the ISIN at the price in
 *   the text (`detailsPattern`; `GBX` prices become GBP ÷ 100), `Verkoop|Sell|Verkauf|Venda|Vente|
 *   Vendita` → sell (one without an ISIN fails the file); the transaction costs are rows of their
 *   own, so no fee is implied;
 * - negative transaction costs, connection fees, corporate action costs → fee noted with the
 *   description (`when: negative`);
 * - dividend tax (`Dividendbelasting`, `Impôts sur dividende`, `Dividendensteuer`) → fee noted
 *   `withholding tax` (a refund, > 0, a deposit noted `withholding tax refund`);
 * - `Dividend|Dividende|Dividendo` of an ISIN → dividend (gross); a negative one a withdrawal noted
 *   `dividend reversal ISIN`;
 * - currency conversion legs (`Valuta Creditering/Debitering`, `Ingreso/Retirada Cambio de Divisa`,
 *   `Crédito/Levantamento de divisa`, `Währungswechsel`, `FX Credit/Debit`) → deposit / withdrawal
 *   in each currency by sign, noted `currency conversion: …`;
 * - `DEGIRO Courtesy` and interest → deposit (withdrawal) noted `interest: …`; deposits,
 *   withdrawals and their reservations (iDEAL, flatex, `Storting`, `Ingreso`) → by sign;
 * - anything else (`STOCK DIVIDEND: …`, money-market fund rows) → skipped.
 * The instrument is the ISIN, the product its name. Broker id: `Order Id:` and the row kind
 * (`trade`, `fee`, `tax`, `dividend`, `fx-credit`, `fx-debit`); interest and deposits have none.
 */
export const degiro = define({
  id: 'degiro',
  label: 'DEGIRO account statement',
  version: 1,
  source: E2G('degiroConverterV3.ts'),
  recognise: {
    headers: ['isin', ['datum', 'date', 'data', 'fecha']],
    minColumns: 12,
    positions: {
      '0': ['datum', 'date', 'data', 'fecha'],
      '4': ['isin'],
      '11': ['orderid', 'idorden', 'idordre', 'idordine', 'idordem'],
    },
  },
  read: {
    delimiter: ',',
    columns: {
      date: '#0',
      time: '#1',
      name: '#3',
      isin: '#4',
      action: '#5',
      details: '#5',
      currency: '#7',
      amount: '#8',
      id: '#11',
    },
    dateOrder: 'dmy',
    decimal: ',',
    instrument: 'isin',
    continuation: true,
    detailsPattern: TRADE,
    sides: Object.fromEntries([
      ...BUY_WORDS.split('|').map((w) => [w, 'buy' as const]),
      ...SELL_WORDS.split('|').map((w) => [w, 'sell' as const]),
    ]),
    impliedFee: false,
    noInstrument: 'error',
    skipRows: [
      {
        column: '#5',
        pattern: 'cash sweep|overboeking (van|naar) uw geldrekening',
        reason: 'transfer between the DEGIRO account and its flatex cash account: both are yours',
      },
      { column: '#8', pattern: '^$', reason: 'a row without an amount: informational' },
      { column: '#7', pattern: '^$', reason: 'a row without a currency: informational' },
      {
        column: '#5',
        pattern: String.raw`^PRODUCTWIJZIGING\s*:\s*(${BUY_WORDS}|${SELL_WORDS})\s+[\d.,]+[^@]*@\s*[\d.,]+\s+[A-Z]{3}`,
        reason: 'product change (same ISIN sold and bought back at 0): no effect',
      },
      {
        column: '#5',
        pattern: `^(?!.*(${TAX}))dividend`,
        and: [{ column: '#4', pattern: '^$' }],
        reason: 'a dividend without an ISIN: not modelled',
      },
    ],
    actions: {},
    actionPatterns: [
      { pattern: TRADE, kind: 'trade', tag: 'trade' },
      { pattern: FEE, when: 'negative', kind: 'fee', tag: 'fee' },
      { pattern: TAX, kind: 'tax', tag: 'tax' },
      { pattern: '^dividend', kind: 'dividend', tag: 'dividend' },
      { pattern: CONVERSION, when: 'positive', kind: 'cash', tag: 'fx-credit' },
      { pattern: CONVERSION, kind: 'cash', tag: 'fx-debit' },
      { pattern: INTEREST, kind: 'cash' },
      { pattern: CASH, kind: 'cash' },
      { pattern: '^', kind: 'skip' },
    ],
    notes: [
      { pattern: FEE, when: 'negative', note: '{action}' },
      { pattern: TAX, when: 'negative', note: 'withholding tax' },
      { pattern: TAX, when: 'positive', note: 'withholding tax refund' },
      { pattern: '^dividend', when: 'negative', note: 'dividend reversal {#4}' },
      { pattern: CONVERSION, note: 'currency conversion: {action}' },
      { pattern: INTEREST, note: 'interest: {action}' },
    ],
    negativeDividend: 'withdrawal',
    idTemplate: '{id}:{tag}',
  },
});

type Read = FormatDefinition['read'];

/**
 * The columns both layouts of the "Transactions" report open with (0-based): `Date`, `Time`,
 * `Product`, `ISIN`, (`Reference`, `Venue`,) `Quantity` (negative: a sale), `Price` (in the
 * currency of the unnamed column after it).
 */
const REPORT_COLUMNS = {
  date: '#0',
  time: '#1',
  name: '#2',
  isin: '#3',
  quantity: '#6',
  price: '#7',
} satisfies Read['columns'];

const HALIR = 'jose-pleonasm/Halir@1ebe1e0a docs/degiro/transactions-versions.md';

/** One layout of the "Transactions" report: what it adds to the columns both open with. */
interface ReportLayout {
  readonly id: string;
  readonly label: string;
  readonly reference: string;
  readonly note: string;
  /** Recognition; `Date`, `ISIN` and `Quantity` are pinned to positions 0, 3 and 6 besides. */
  readonly recognise: Recognition;
  /** Columns after `Price` (see {@link REPORT_COLUMNS}). */
  readonly columns: Read['columns'];
  /** How the layout reads besides its columns (the currency, the fee). */
  readonly read?: Omit<Partial<Read>, 'columns'>;
}

/**
 * A definition of a "Transactions" report layout (see {@link ReportLayout}): comma-separated,
 * dates `dd-MM-yyyy`, numbers with a `.` decimal mark, every row a trade of `Quantity` at `Price`
 * (no action column: trades only), recorded under the ISIN (a row without one fails the file),
 * broker id the order id.
 */
function reportDefinition<const Id extends string>(layout: ReportLayout & { readonly id: Id }) {
  return define({
    id: layout.id,
    label: layout.label,
    version: 1,
    source: {
      kind: 'open-source-importer',
      reference: layout.reference,
      licence: 'not stated (UNLICENSED in package.json; column names only)',
      note: layout.note,
    },
    recognise: {
      ...layout.recognise,
      positions: { '0': ['date'], '3': ['isin'], '6': ['quantity'], ...layout.recognise.positions },
    },
    read: {
      delimiter: ',',
      columns: { ...REPORT_COLUMNS, ...layout.columns },
      ...layout.read,
      dateOrder: 'dmy',
      decimal: '.',
      instrument: 'isin',
      actions: {},
      noInstrument: 'error',
      idTemplate: '{id}',
    },
  });
}

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
export const degiroTransactions = reportDefinition({
  id: 'degiro-transactions',
  label: 'DEGIRO transactions report',
  reference: `${HALIR} (the 19 column titles in order) and src/modules/degiro/csvToHston.js (side from the sign of Quantity; price, fees and total each followed by their currency); jaantaponen/verotunkki front/src/utils/parsers/loadTransactions.ts (unnamed headers are the currency of the column before; dates DD-MM-YYYY and HH:mm)`,
  note: 'decimal mark `.`: both importers read the cells as plain numbers after a comma split; the newer layout with `AutoFX Fee` and `Total EUR` is degiro-transactions-2024',
  recognise: {
    headers: ['isin', 'venue', 'quantity', 'price', 'orderid'],
    excludes: ['autofxfee'],
    minColumns: 19,
    positions: { '18': ['orderid'] },
  },
  columns: { currency: '#8', fee: '#14', feeCurrency: '#15', id: '#18' },
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
export const degiroTransactions2024 = reportDefinition({
  id: 'degiro-transactions-2024',
  label: 'DEGIRO transactions report (AutoFX layout)',
  reference: `${HALIR} (second layout: the 17 column titles in order, \`AutoFX Fee\`, \`Total EUR\`)`,
  note: 'decimal mark and the empty exchange rate of EUR trades as in the older layout (see degiro-transactions); a EUR trade written with a rate other than 1 keeps no fee',
  recognise: {
    headers: ['isin', 'venue', 'quantity', 'price', 'autofxfee', 'totaleur', 'orderid'],
  },
  columns: { amount: 'Total EUR', fxRate: 'Exchange rate', id: 'Order ID' },
  read: {
    currency: 'EUR',
    currencySource: 'mapping',
    priceCurrency: '#8',
    impliedFee: 'at-rate-1',
  },
});
