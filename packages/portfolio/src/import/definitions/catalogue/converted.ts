import { define } from '../definition.js';

// One of the last import modules converted to definitions (issue 40, "the twelve modules become
// definitions"; the other, Trading 212, is in trading212.ts with its other layouts), held to the
// outcomes recorded from its module (test/catalogue/module-equivalence): the same transactions,
// metadata and import fingerprints.

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
