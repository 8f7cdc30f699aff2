import { describe, expect, it } from 'vitest';
import {
  nordnet,
  nordnetDk,
  nordnetDk2021,
  nordnetDkTyped,
  nordnetFi,
  nordnetFi2021,
  nordnetNo,
} from '../../src/import/definitions/catalogue/nordnet.js';
import { definitionMapping, parseBrokerCsv } from '../../src/index.js';
import { FIXTURES } from './fixtures.js';

// Nordnet's two other Danish layouts (see the definitions' sources): one with Værdipapirtype after
// Værdipapirer, which moves Samlede afgifter, its Valuta, Beløb and Beløb's Valuta one place on
// (12–15); and the 2021 one, whose fees' currency is named "Samlede afgifter valuta", so the first
// plain Valuta is Beløb's. The rows here are hand-made.

const headerOf = (id: string) => FIXTURES[id]?.text.split('\n')[0] ?? '';
const read = (text: string) => {
  const parsed = parseBrokerCsv(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed;
};

describe('Nordnet Denmark, the layout with Værdipapirtype', () => {
  const header = headerOf('nordnet-dk-typed');

  it("books Beløb in the currency of the Valuta after it (15), not the fees' (13) nor Indkøbsværdi's (17)", () => {
    const parsed = read(
      [
        header,
        // a deposit into the USD account: the fees' Valuta is empty
        '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINDBETALING\t\t\t\t\t\t\t\t\t250,00\tUSD\t\t\t\t\t\t250,00\t\t\t\t\t\t\t',
        // a USD share bought from the DKK account: Beløb in DKK, Indkøbsværdi in USD
        '2\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKØBT\tApple Inc\tAktier\tUS0378331005\t2\t100\t\t10,00\tDKK\t-2.010,00\tDKK\t200,00\tUSD\t\t\t2\t-2.010,00\t6,9\t\t\t1\t1\t10,00\tDKK',
      ].join('\n'),
    );
    expect(parsed.format).toBe('nordnet-dk-typed');
    expect(parsed.transactions).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '250', currency: 'USD' }),
      expect.objectContaining({
        type: 'buy',
        symbol: 'US0378331005',
        quantity: '2',
        price: '1000',
        fee: '10',
        currency: 'DKK',
      }),
    ]);
  });

  it('reads the withdrawal and the dividend tax of its fixture', () => {
    const types = read(FIXTURES['nordnet-dk-typed']?.text ?? '').transactions.map((t) =>
      'quantity' in t
        ? `${t.type} ${t.quantity}`
        : 'amount' in t
          ? `${t.type} ${t.amount}`
          : t.type,
    );
    expect(types).toEqual([
      'deposit 1000',
      'buy 10',
      'sell 4',
      'dividend 6',
      'fee 1.62',
      'withdrawal 100',
    ]);
  });

  it('is the older nordnet-dk once Værdipapirtype is taken out', () => {
    const cells = header.split('\t');
    const without = cells.filter((c) => c !== 'Værdipapirtype').join('\t');
    const deposit =
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINDBETALING\t\t\t\t\t\t\t\t250,00\tUSD';
    expect(read([without, deposit].join('\n')).format).toBe('nordnet-dk');
  });

  it('does not take a file whose Valuta columns stand elsewhere', () => {
    // the fees' Valuta dropped: Beløb and its Valuta are no longer at their places
    const cells = header.split('\t');
    const shifted = [...cells.slice(0, 13), ...cells.slice(14)].join('\t');
    expect(parseBrokerCsv([shifted, '1\t2024-01-02'].join('\n'))).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: expect.stringContaining('matches no supported format') }],
    });
  });
});

describe('Nordnet Denmark, the 2021 layout (Samlede afgifter valuta)', () => {
  const header = headerOf('nordnet-dk-2021');

  it('books Beløb in the first plain Valuta and reads UDB. as a dividend', () => {
    const parsed = read(
      [
        header,
        '1\t2021-10-15\t2021-10-15\t2021-10-15\t123\tINDBETALING\t\t\t\t\t\t\t\t\t1.447,32\tUSD',
        '2\t2021-10-18\t2021-10-18\t2021-10-18\t123\tUDB.\tApple Inc\tAktier\tUS0378331005\t2\t0,5\t\t\t\t1,00\tUSD',
        '3\t2021-10-19\t2021-10-19\t2021-10-21\t123\tKØBT\tApple Inc\tAktier\tUS0378331005\t2\t100\t\t10,00\tDKK\t-2.010,00\tDKK\t200,00',
      ].join('\n'),
    );
    expect(parsed.format).toBe('nordnet-dk-2021');
    expect(parsed.transactions).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '1447.32', currency: 'USD' }),
      expect.objectContaining({ type: 'dividend', amount: '1', currency: 'USD' }),
      expect.objectContaining({
        type: 'buy',
        quantity: '2',
        price: '1000',
        fee: '10',
        currency: 'DKK',
      }),
    ]);
  });

  it('is not read by the layout with four Valuta columns, whose positions it shares', () => {
    // Samlede afgifter (12), Beløb (14) and Valuta (15) stand where nordnet-dk-typed pins them
    const cells = header.split('\t');
    expect([cells[12], cells[14], cells[15]]).toEqual(['Samlede afgifter', 'Beløb', 'Valuta']);
    const deposit =
      '1\t2021-10-15\t2021-10-15\t2021-10-15\t123\tINDBETALING\t\t\t\t\t\t\t\t\t100,00\tDKK';
    expect(read([header, deposit].join('\n')).format).toBe('nordnet-dk-2021');
  });
});

describe('the Nordnet builder', () => {
  it('pins the fees, the amount and its currency where a layout repeats the currency name', () => {
    const pinned = [nordnet, nordnetDk, nordnetNo, nordnetFi, nordnetDkTyped].map((d) => [
      d.id,
      d.recognise.positions,
      d.read.columns.currency,
    ]);
    expect(pinned).toEqual([
      ['nordnet', { 11: ['totalavgift'], 13: ['belopp'], 14: ['valuta'] }, '#14'],
      ['nordnet-dk', { 11: ['samledeafgifter'], 13: ['belob'], 14: ['valuta'] }, '#14'],
      ['nordnet-no', { 11: ['totaleavgifter'], 13: ['belop'], 14: ['valuta'] }, '#14'],
      ['nordnet-fi', { 11: ['kokonaiskulut'], 13: ['summa'], 14: ['valuutta'] }, '#14'],
      ['nordnet-dk-typed', { 12: ['samledeafgifter'], 14: ['belob'], 15: ['valuta'] }, '#15'],
    ]);
  });

  it('reads the currency by name, with no positions, where the fees have a named currency', () => {
    const named = [nordnetFi2021, nordnetDk2021].map((d) => [
      d.id,
      d.recognise.positions,
      d.read.columns.currency,
    ]);
    expect(named).toEqual([
      ['nordnet-fi-2021', undefined, 'valuutta'],
      ['nordnet-dk-2021', undefined, 'valuta'],
    ]);
  });
});

describe('the columns of the Nordnet definitions', () => {
  const definitions = [
    nordnet,
    nordnetDk,
    nordnetDkTyped,
    nordnetDk2021,
    nordnetNo,
    nordnetFi,
    nordnetFi2021,
  ];

  // a column the header lacks is dropped from the mapping the file is read (and checked) with
  it.each(definitions.map((d) => [d.id, d] as const))(
    '%s: every column it names is in its fixture header',
    (id, definition) => {
      const mapping = definitionMapping(FIXTURES[id]?.text ?? '', definition);
      expect(mapping).toBeDefined();
      expect(Object.keys(mapping?.columns ?? {}).sort()).toEqual(
        Object.keys(definition.read.columns).sort(),
      );
    },
  );

  it('nordnet-dk reads the rate from Vekslingskurs, as Nordnet Denmark names it', () => {
    // the Danish header (four Valuta columns, no Værdipapirtype) as public Nordnet readers' tests
    // write it (a Go ParseNordnetCSV test, a JavaScript import-csv test), rows hand-made
    const header = [
      'Id',
      'Bogføringsdag',
      'Handelsdag',
      'Valørdag',
      'Depot',
      'Transaktionstype',
      'Værdipapirer',
      'ISIN',
      'Antal',
      'Kurs',
      'Rente',
      'Samlede afgifter',
      'Valuta',
      'Beløb',
      'Valuta',
      'Indkøbsværdi',
      'Valuta',
      'Resultat',
      'Valuta',
      'Totalt antal',
      'Saldo',
      'Vekslingskurs',
      'Transaktionstekst',
      'Makuleringsdato',
      'Notanummer',
      'Verifikationsnummer',
      'Kurtage',
      'Valuta',
      'Middelkurs',
      'Oprindelig rente',
    ].join('\t');
    const buy = [
      '2',
      '2026-07-03',
      '2026-07-03',
      '2026-07-07',
      '123',
      'KØBT',
      'Apple Inc',
      'US0378331005',
      '2',
      '100',
      '0',
      '25',
      'DKK',
      '-1.315,00',
      'DKK',
      '200',
      'USD',
      '0',
      'USD',
      '2',
      '8.685,00',
      '6,45',
      '',
      '',
      '1',
      '1',
      '25',
      'DKK',
      '',
      '',
    ].join('\t');
    const text = [header, buy].join('\n');
    expect(read(text).format).toBe('nordnet-dk');
    // the column names of the mapping the file is read with are the header's, as read (lower case)
    expect(definitionMapping(text, nordnetDk)?.columns.fxRate).toBe('vekslingskurs');
  });
});
