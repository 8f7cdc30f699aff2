import { define } from '../definition.js';

// Other layouts of brokers the catalogue already reads (issue 40: "a real export often differs
// from the one layout we have"), each from a public source that names its columns. Only the
// column names and the order were taken from the sources (facts of the broker's file); no code
// was copied. DEGIRO's transactions report is in degiro.ts and Trading 212's layouts in
// trading212.ts, each built from one shape with its broker's other layouts.

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
