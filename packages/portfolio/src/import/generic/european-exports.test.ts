import { describe, expect, it } from 'vitest';
import { decodeBrokerFile } from '../decode.js';
import { acceptUnchanged } from './accept-unchanged.test-support.js';

// Hand-made exports of brokers without a module, in the shapes research note import-languages.md
// records: the proposal is accepted unchanged and the holdings are compared with hand-computed ones.

/** Windows-1252 bytes of a text of Latin-1 letters and €. */
const windows1252 = (text: string) =>
  Uint8Array.from([...text].map((c) => (c === '€' ? 0x80 : c.charCodeAt(0))));

const AVANZA_SV = [
  'Datum;Konto;Typ av transaktion;Värdepapper/beskrivning;Antal;Kurs;Belopp;Courtage;Valuta;ISIN',
  '2024-01-05;ISK;Insättning;Insättning;-;-;20 000,00;-;SEK;-',
  '2024-01-08;ISK;Köp;Investor B;40;245,50;-9 839,00;19,00;SEK;SE0015811963',
  '2024-02-01;ISK;Köp;Volvo B;10;260,00;-2 600,00;0,00;SEK;SE0000115446',
  '2024-03-14;ISK;Sälj;Investor B;-10;270,00;2 681,00;19,00;SEK;SE0015811963',
  '2024-04-04;ISK;Utdelning;Volvo B;10;7,00;70,00;-;SEK;SE0000115446',
  '2024-04-04;ISK;Utländsk källskatt;Volvo B;-;-;-10,50;-;SEK;SE0000115446',
  '2024-05-02;ISK;Uttag;Uttag;-;-;-1 000,00;-;SEK;-',
].join('\n');

const FINECO_IT = [
  'Conto: 1234567',
  'Intestatario: MARIO ROSSI',
  'Periodo: dal 01/01/2024 al 31/03/2024',
  '',
  'Movimenti titoli',
  'Data estrazione: 02/04/2024',
  '',
  'Elenco operazioni',
  '',
  'Operazione;Data valuta;Descrizione;Titolo;Isin;Segno;Quantita;Prezzo;Divisa;Controvalore;Commissioni',
  '12/01/2024;16/01/2024;Compravendita titoli;ENI SPA;IT0003132476;A;100;14,52;EUR;1.452,00;2,95',
  '20/02/2024;22/02/2024;Compravendita titoli;ENEL SPA;IT0003128367;A;200;6,10;EUR;1.220,00;2,95',
  '05/03/2024;07/03/2024;Compravendita titoli;ENI SPA;IT0003132476;V;40;15,00;EUR;600,00;2,95',
  '20/03/2024;20/03/2024;Dividendo;ENI SPA;IT0003132476;;60;0,23;EUR;13,80;',
].join('\n');

const NORDNET_DK = [
  'Id\tBogføringsdag\tHandelsdag\tTransaktionstype\tVærdipapirer\tISIN\tAntal\tKurs\tSamlede afgifter\tValuta\tBeløb\tVekselkurs',
  '1\t2024-01-02\t2024-01-02\tINDBETALING\t\t\t\t\t\tDKK\t50.000,00\t',
  '2\t2024-01-04\t2024-01-03\tKØBT\tNovo Nordisk B\tDK0062498333\t20\t755,20\t29,00\tDKK\t-15.133,00\t1',
  '3\t2024-02-06\t2024-02-05\tSOLGT\tNovo Nordisk B\tDK0062498333\t5\t800,00\t29,00\tDKK\t3.971,00\t1',
  '4\t2024-03-22\t2024-03-22\tUDBYTTE\tNovo Nordisk B\tDK0062498333\t15\t6,40\t\tDKK\t96,00\t',
].join('\n');

const BOURSORAMA_FR = [
  'Date opération;Opération;Libellé;Quantité;Cours;Montant;Frais;Devise',
  '03/01/2024;Versement;Versement espèces;;;5 000,00 €;;EUR',
  '04/01/2024;Achat Comptant;AIR LIQUIDE (FR0000120073);10;165,30 €;-1 658,00 €;5,00 €;EUR',
  '15/02/2024;Achat Comptant;TOTALENERGIES SE (FR0000120271);20;61,00 €;-1 225,00 €;5,00 €;EUR',
  '10/03/2024;Vente Comptant;AIR LIQUIDE (FR0000120073);4;180,00 €;715,00 €;5,00 €;EUR',
  '15/03/2024;Frais de garde;Frais de garde;;;-3,00 €;;EUR',
].join('\n');

const BOLERO_NL = [
  'Datum;Type;Product;ISIN;Aantal;Koers;Valuta;Kosten;Bedrag;',
  '02-01-2024;Storting;;;;;EUR;;2.500,00;',
  '03-01-2024;Aankoop;ASML Holding;NL0010273215;2;680,40;EUR;7,50;-1.368,30;',
  '04-03-2024;Verkoop;ASML Holding;NL0010273215;1;850,00;EUR;7,50;842,50;',
  '30-04-2024;Dividend;ASML Holding;NL0010273215;;;EUR;;1,52;',
  '02-05-2024;Opname;;;;;EUR;;-500,00;',
].join('\n');

const XTB_PL = [
  'Data transakcji;Typ operacji;Instrument;Kod ISIN;Ilość;Kurs;Waluta;Prowizja;Wartość',
  '15.01.2024;Wpłata;;;;;PLN;;10 000,00 zł',
  '16.01.2024;Kupno;PKN ORLEN;PLPKN0000018;30;64,20;PLN;0,00;-1 926,00 zł',
  '20.02.2024;Sprzedaż;PKN ORLEN;PLPKN0000018;10;66,50;PLN;0,00;665,00 zł',
  '10.03.2024;Dywidenda;PKN ORLEN;PLPKN0000018;;;PLN;;83,00 zł',
  '10.03.2024;Podatek;PKN ORLEN;PLPKN0000018;;;PLN;;-15,77 zł',
].join('\n');

const SIGNED_EN = [
  'Trade Date,Ticker,Quantity,Price,Currency,',
  '2024-01-10,MSFT,5,370.00,USD,',
  '2024-02-10,MSFT,-2,400.00,USD,',
  '2024-03-10,AAPL,3,170.00,USD,',
].join('\n');

describe('exports of brokers without a module, proposal accepted unchanged', () => {
  it('Avanza (Swedish, `;`, decimal comma, spaces as thousands separators)', () => {
    const { holdings, proposal } = acceptUnchanged(AVANZA_SV);
    expect(proposal.unmappedActions).toEqual([]);
    expect(holdings).toEqual([
      'SE0000115446 SEK 10 @ 260',
      'SE0015811963 SEK 30 @ 245.975', // (40 × 245.50 + 19) / 40
    ]);
  });

  it('Fineco (Italian, nine preamble lines, a sign column A/V)', () => {
    const { holdings, proposal } = acceptUnchanged(FINECO_IT);
    expect(proposal.mapping.headerLine).toBe(10);
    expect(proposal.mapping.columns.side).toBe('Segno');
    expect(holdings).toEqual([
      'IT0003128367 EUR 200 @ 6.11475',
      'IT0003132476 EUR 60 @ 14.5495', // (1452 + 2.95) / 100
    ]);
  });

  it('Nordnet (Danish, UTF-16 little-endian, tabs)', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(NORDNET_DK, 'utf16le')]);
    const { holdings, cash } = acceptUnchanged(decodeBrokerFile(bytes));
    expect(holdings).toEqual(['DK0062498333 DKK 15 @ 756.65']); // (20 × 755.20 + 29) / 20
    expect(cash).toEqual({ DKK: '38934' }); // 50000 − 15133 + 3971 + 96
  });

  it('Boursorama (French, Windows-1252, € in cells, the ISIN inside the name)', () => {
    const { holdings, proposal } = acceptUnchanged(decodeBrokerFile(windows1252(BOURSORAMA_FR)));
    expect(proposal.mapping.columns.isin).toBe('Libellé');
    expect(holdings).toEqual(['FR0000120073 EUR 6 @ 165.8', 'FR0000120271 EUR 20 @ 61.25']);
  });

  it('Bolero (Dutch, a trailing delimiter on every row)', () => {
    const { holdings, cash } = acceptUnchanged(BOLERO_NL);
    expect(holdings).toEqual(['NL0010273215 EUR 1 @ 684.15']);
    expect(cash).toEqual({ EUR: '1475.72' }); // 2500 − 1368.30 + 842.50 + 1.52 − 500
  });

  it('XTB Polska (Polish, zł in the amount cells)', () => {
    const { holdings, cash } = acceptUnchanged(XTB_PL);
    expect(holdings).toEqual(['PLPKN0000018 PLN 20 @ 64.2']);
    expect(cash).toEqual({ PLN: '8806.23' }); // 10000 − 1926 + 665 + 83 − 15.77
  });

  it('no action column: sells as negative quantities', () => {
    const { holdings } = acceptUnchanged(SIGNED_EN);
    expect(holdings).toEqual(['AAPL USD 3 @ 170', 'MSFT USD 3 @ 370']);
  });
});
