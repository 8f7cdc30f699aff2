import { define } from '../definition.js';

// DEGIRO as data (issue 40), converted from the module `formats/degiro.ts` once it read the
// module's recorded files into the very same transactions, ids, names and fingerprints
// (test/catalogue/module-equivalence, module-golden/degiro.json).

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
  source: {
    kind: 'open-source-importer',
    reference:
      'dickwolff/Export-To-Ghostfolio@9e35bd60 src/converters/degiroConverterV3.ts (read as documentation) and its sample in ../shared/data/broker-exports',
    licence: 'Apache-2.0',
  },
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
