import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../../src/index.js';

// The DEGIRO definition on hand-made rows of every row kind the module `formats/degiro.ts` told
// apart, in six of the export's languages: the expected outcomes are what the module read from this
// very file before it was removed (its golden, module-golden/degiro.json, holds the real sample
// only). One difference is kept: an interest or deposit row that names a product keeps it as the
// row's name (line 26; the module dropped it; the name is not part of the import fingerprint).

const H = 'Date,Time,Value date,Product,ISIN,Description,FX,Change,,Balance,,Order Id';
const rows = [
  '01-02-2024,10:00,01-02-2024,APPLE INC,US0378331005,"Buy 2 APPLE INC@180,5 USD (US0378331005)",,USD,-361.00,USD,1.00,aaa-1',
  '01-02-2024,10:00,01-02-2024,APPLE INC,US0378331005,DEGIRO Transaction and/or third party fees,,EUR,-2.00,EUR,1.00,aaa-1',
  '01-02-2024,10:00,01-02-2024,APPLE INC,US0378331005,DEGIRO Transaction and/or third party fees,,EUR,2.00,EUR,1.00,aaa-2',
  '02-02-2024,10:00,02-02-2024,APPLE INC,US0378331005,Dividend,,USD,-1.50,USD,1.00,',
  '02-02-2024,10:00,02-02-2024,APPLE INC,US0378331005,Dividend,,USD,0,USD,1.00,',
  '02-02-2024,10:00,02-02-2024,,,Dividend,,USD,1.50,USD,1.00,',
  '02-02-2024,10:00,02-02-2024,,,Dividend Tax,,USD,-0.50,USD,1.00,',
  '02-02-2024,10:00,02-02-2024,APPLE INC,US0378331005,Dividendensteuer,,USD,0.30,USD,1.00,b-7',
  '02-02-2024,10:00,02-02-2024,APPLE INC,US0378331005,Dividendensteuer,,USD,0,USD,1.00,',
  '03-02-2024,10:00,03-02-2024,,,Interest,,EUR,-0.10,EUR,1.00,',
  '03-02-2024,10:00,03-02-2024,,,Währungswechsel (Ausbuchung),"1,1",USD,"-5,00",USD,1.00,c-1',
  '03-02-2024,10:00,03-02-2024,,,Währungswechsel (Einbuchung),,EUR,"4,50",EUR,1.00,c-1',
  '03-02-2024,10:00,03-02-2024,,,FX Credit,,EUR,0,EUR,1.00,',
  '04-02-2024,10:00,04-02-2024,VODAFONE,GB00BH4HKS39,"Vente 10 VODAFONE@70,5 GBX (GB00BH4HKS39)",,GBP,7.05,GBP,1.00,d-1',
  '04-02-2024,10:00,04-02-2024,ENI,IT0003132476,"Acquisto 3 ENI@14,2 EUR (IT0003132476)",,EUR,-42.60,EUR,1.00,e-1',
  '04-02-2024,10:00,04-02-2024,ENI,IT0003132476,"Vendita 1 ENI@15 EUR (IT0003132476)",,EUR,15.00,EUR,1.00,e-2',
  '04-02-2024,10:00,04-02-2024,SAP,DE0007164600,"Kauf 1 SAP@150 EUR (DE0007164600)",,EUR,-150.00,EUR,1.00,f-1',
  '04-02-2024,10:00,04-02-2024,SAP,DE0007164600,"Verkauf 1 SAP@160 EUR (DE0007164600)",,EUR,160.00,EUR,1.00,f-2',
  '04-02-2024,10:00,04-02-2024,EDP,PTEDP0AM0009,"Venda 5 EDP@4 EUR (PTEDP0AM0009)",,EUR,20.00,EUR,1.00,',
  '05-02-2024,10:00,05-02-2024,,,Einzahlung,,EUR,100.00,EUR,1.00,',
  '05-02-2024,10:00,05-02-2024,,,Auszahlung,,EUR,-50.00,EUR,1.00,',
  '05-02-2024,10:00,05-02-2024,,,Dépôt,,EUR,0,EUR,1.00,',
  '05-02-2024,10:00,05-02-2024,,,Something else,,EUR,1.00,EUR,1.00,',
  '05-02-2024,10:00,05-02-2024,,,Interest,,EUR,,EUR,1.00,',
  '06-02-2024,10:00,06-02-2024,CASH FUND,NL0010661914,Interest,,EUR,0.10,EUR,1.00,z-9',
  '06-02-2024,10:00,06-02-2024,X,NL0010661914,"PRODUCTWIJZIGING: Verkoop 1 @ 0 EUR",,EUR,0,EUR,1.00,',
  '06-02-2024,10:00,06-02-2024,X,NL0010661914,"Koop 1 @ 1 EUR",,EUR,,EUR,1.00,',
  '06-02-2024,10:00,06-02-2024,X,NL0010661914,"Koop 1 @ 1 EUR",,,-1,EUR,1.00,',
  '06-02-2024,10:00,06-02-2024,X,NL0010661914,"Koop 2 @ 1,5 EUR",,EUR,-3,EUR,1.00,abc-',
  ',,,,,,,,,,,def',
  '06-02-2024,10:00,06-02-2024,,,Storting,,EUR,10,EUR,1.00,q-1',
  '06-02-2024,10:00,06-02-2024,APPLE INC,US0378331005,Fee refund,,EUR,1.00,EUR,1.00,',
];

/** line, type, amount (or quantity@price), currency, note, broker id */
type Tuple = [number, string, string, string, string | undefined, string | undefined];

describe('DEGIRO definition on hand-made rows', () => {
  it('reads what the module read: kinds by description and sign, notes, ids, skips', () => {
    const result = parseBrokerCsv([H, ...rows].join('\n'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.format).toBe('degiro');
    const tuples: Tuple[] = result.rows.map(({ line, transaction: tx, externalId }) => [
      line,
      tx.type,
      'amount' in tx
        ? tx.amount
        : `${'quantity' in tx ? tx.quantity : ''}@${'price' in tx ? tx.price : ''}`,
      tx.currency,
      tx.note,
      externalId,
    ]);
    expect(tuples).toEqual([
      [2, 'buy', '2@180.5', 'USD', undefined, 'aaa-1:trade'],
      [3, 'fee', '2', 'EUR', 'DEGIRO Transaction and/or third party fees', 'aaa-1:fee'],
      [5, 'withdrawal', '1.5', 'USD', 'dividend reversal US0378331005', undefined],
      [8, 'fee', '0.5', 'USD', 'withholding tax', undefined],
      [9, 'deposit', '0.3', 'USD', 'withholding tax refund', 'b-7:tax'],
      [11, 'withdrawal', '0.1', 'EUR', 'interest: Interest', undefined],
      [
        12,
        'withdrawal',
        '5',
        'USD',
        'currency conversion: Währungswechsel (Ausbuchung)',
        'c-1:fx-debit',
      ],
      [
        13,
        'deposit',
        '4.5',
        'EUR',
        'currency conversion: Währungswechsel (Einbuchung)',
        'c-1:fx-credit',
      ],
      [15, 'sell', '10@0.705', 'GBP', undefined, 'd-1:trade'],
      [16, 'buy', '3@14.2', 'EUR', undefined, 'e-1:trade'],
      [17, 'sell', '1@15', 'EUR', undefined, 'e-2:trade'],
      [18, 'buy', '1@150', 'EUR', undefined, 'f-1:trade'],
      [19, 'sell', '1@160', 'EUR', undefined, 'f-2:trade'],
      [20, 'sell', '5@4', 'EUR', undefined, undefined],
      [21, 'deposit', '100', 'EUR', 'Einzahlung', undefined],
      [22, 'withdrawal', '50', 'EUR', 'Auszahlung', undefined],
      [26, 'deposit', '0.1', 'EUR', 'interest: Interest', undefined],
      [30, 'buy', '2@1.5', 'EUR', undefined, 'abc-def:trade'],
      [32, 'deposit', '10', 'EUR', 'Storting', undefined],
    ] satisfies Tuple[]);
    expect(result.skipped.map((s) => s.line)).toEqual([
      4, 6, 7, 10, 14, 23, 24, 25, 27, 28, 29, 33,
    ]);
    expect(result.rows.find((r) => r.line === 26)?.name).toBe('CASH FUND');
  });

  it('refuses the file when a trade names no ISIN, as the module did', () => {
    const bad = [
      H,
      ...rows,
      '06-02-2024,10:00,06-02-2024,X,,"Buy 1 X@1 EUR",,EUR,-1.00,EUR,1.00,g-1',
    ];
    const result = parseBrokerCsv(bad.join('\n'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.line)).toEqual([bad.length]);
  });
});
