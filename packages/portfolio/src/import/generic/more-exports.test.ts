import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../parse-broker-csv.js';
import { acceptUnchanged } from './accept-unchanged.test-support.js';

// More hand-made exports of brokers without a module (see european-exports.test.ts).

const COMDIRECT_DE = [
  'Buchungstag;Valuta;Geschäftsart;Bezeichnung;ISIN;Stück;Kurs;Devisenkurs;Wert;Währung',
  '02.01.2024;02.01.2024;Einzahlung;;;;;;5.000,00;EUR',
  '03.01.2024;05.01.2024;Kauf;SAP SE;DE0007164600;10;140,50;1,0000;-1.405,00;EUR',
  '04.03.2024;06.03.2024;Verkauf;SAP SE;DE0007164600;4;170,00;1,0000;680,00;EUR',
  '15.05.2024;15.05.2024;Dividende;SAP SE;DE0007164600;;;;13,20;EUR',
].join('\n');

const ES = [
  'Fecha;Tipo de operación;Valor;ISIN;Títulos;Precio;Divisa;Comisión;Importe',
  '10/01/2024;Ingreso;;;;;EUR;;3.000,00',
  '11/01/2024;Compra;IBERDROLA;ES0144580Y14;100;11,20;EUR;8,00;-1.128,00',
  '12/02/2024;Venta;TELEFONICA;ES0178430E18;50;3,90;EUR;8,00;187,00',
  '01/03/2024;Dividendo;IBERDROLA;ES0144580Y14;;;EUR;;21,50',
  '05/03/2024;Retirada;;;;;EUR;;-500,00',
].join('\n');

const PT = [
  'Data;Tipo;Ativo;ISIN;Quantidade;Preço;Moeda;Comissões;Valor',
  '2024-01-08;Depósito;;;;;EUR;;2000,00',
  '2024-01-09;Compra;GALP ENERGIA;PTGAL0AM0009;50;14,10;EUR;2,50;-707,50',
  '2024-02-20;Venda;GALP ENERGIA;PTGAL0AM0009;20;15,00;EUR;2,50;297,50',
  '2024-05-10;Dividendos;GALP ENERGIA;PTGAL0AM0009;;;EUR;;7,80',
  '2024-06-01;Levantamento;;;;;EUR;;-100,00',
].join('\n');

const NORDNET_NO = [
  'Id,Bokføringsdag,Handelsdag,Oppgjørsdag,Portefølje,Transaksjonstype,Verdipapir,ISIN,Antall,Kurs,Rente,Totale Avgifter,Valuta,Beløp,Vekslingskurs',
  '1,2024-01-02,2024-01-02,2024-01-04,5551234,INNSKUDD,,,,,,,NOK,"20000",',
  '2,2024-01-05,2024-01-05,2024-01-09,5551234,KJØPT,Equinor,NO0010096985,30,"310,50",,"29",NOK,"-9344",1',
  '3,2024-03-01,2024-03-01,2024-03-05,5551234,UTBYTTE,Equinor,NO0010096985,30,"3,80",,,NOK,"114",1',
].join('\n');

describe('more exports of brokers without a module, proposal accepted unchanged', () => {
  it('German: "Valuta" is a value date here (its values are dates), "Devisenkurs" a rate', () => {
    const { holdings, proposal } = acceptUnchanged(COMDIRECT_DE);
    expect(proposal.mapping.columns).toMatchObject({
      date: 'Buchungstag',
      price: 'Kurs',
      amount: 'Wert',
      currency: 'Währung',
    });
    expect(Object.values(proposal.mapping.columns)).not.toContain('Devisenkurs');
    expect(holdings).toEqual(['DE0007164600 EUR 6 @ 140.5']);
  });

  it('Spanish: a sale of units the file never bought follows the oversell rule and is reported', () => {
    const { holdings, plan } = acceptUnchanged(ES);
    expect(holdings).toEqual(['ES0144580Y14 EUR 100 @ 11.28']); // (100 × 11.20 + 8) / 100
    expect(plan.warnings).toEqual([
      { line: 4, message: expect.stringContaining('sells 50 ES0178430E18') },
    ]);
  });

  it('Portuguese', () => {
    expect(acceptUnchanged(PT).holdings).toEqual(['PTGAL0AM0009 EUR 30 @ 14.15']);
  });

  it('Norwegian Nordnet (quoted decimal commas)', () => {
    expect(acceptUnchanged(NORDNET_NO).holdings).toEqual([
      'NO0010096985 NOK 30 @ 311.4666666667', // (30 × 310.50 + 29) / 30
    ]);
  });
});

describe('when unsure, the proposal asks', () => {
  it('which column holds the amount and which date order, instead of guessing', () => {
    const text = [
      'Col A;Col B;Col C;Col D',
      '01/02/2024;AAPL;3;150,00',
      '03/04/2024;MSFT;1;300,00',
    ].join('\n');
    const result = parseBrokerCsv(text);
    if (result.ok) throw new Error('an unknown layout must not import without a mapping');
    const needs = result.proposal?.needs ?? [];
    expect(needs.map((n) => n.field)).toEqual(expect.arrayContaining(['dateOrder', 'amount']));
    expect(result.proposal?.mapping.columns.quantity).toBeUndefined();
    expect(result.proposal?.confidence.date).toMatchObject({ column: 'Col A' });
  });
});

// Layouts of the kinds of exports a proposal once imported wrongly (Swedish, Swiss, Italian, a
// pension fund's fractional units): hand-made rows under their published header names.
describe('layouts that were once imported wrongly, proposal accepted unchanged', () => {
  it('Swedish: a sale written with a negative quantity under its own action', () => {
    const { proposal, holdings } = acceptUnchanged(
      [
        'Datum;Konto;Typ av transaktion;Värdepapper/beskrivning;Antal;Kurs;Belopp;Courtage;Valuta;ISIN',
        '2024-01-10;ISK;Insättning;Insättning;-;-;10000;-;SEK;-',
        '2024-01-11;ISK;Köp;Investor B;10;250,5;-2505;1;SEK;SE0015811963',
        '2024-02-11;ISK;Köp;Investor B;5;260;-1300;1;SEK;SE0015811963',
        '2024-03-11;ISK;Sälj;Investor B;-4;270;1080;1;SEK;SE0015811963',
        '2024-04-11;ISK;Utdelning;Investor B;11;4,4;48,4;-;SEK;SE0015811963',
      ].join('\n'),
    );
    expect(proposal.acceptable).toBe(true);
    expect(holdings).toEqual(['SE0015811963 SEK 11 @ 253.8']);
  });

  it('Swiss: day-first dates with a time, costs in their own column', () => {
    const { proposal, holdings } = acceptUnchanged(
      [
        'Datum;Auftrag #;Transaktionen;Symbol;Name;ISIN;Anzahl;Stückpreis;Kosten;Aufgelaufene Zinsen;Nettobetrag;Saldo;Währung',
        '15-01-2024 10:00:00;111;Einzahlung;;;;0;0;0;0;5000;5000;CHF',
        '16-01-2024 10:00:00;112;Kauf;NESN;NESTLE N;CH0038863350;10;100;9,85;0;-1009,85;3990,15;CHF',
        '16-03-2024 10:00:00;113;Verkauf;NESN;NESTLE N;CH0038863350;4;105;9,85;0;410,15;4400,3;CHF',
        '20-04-2024 10:00:00;;Dividende;NESN;NESTLE N;CH0038863350;6;3;0;0;18;4418,3;CHF',
      ].join('\n'),
    );
    expect(proposal.acceptable).toBe(true);
    expect(holdings).toEqual(['NESN CHF 6 @ 100.985']);
  });

  it('Italian: a preamble and a sign column A/V', () => {
    const { proposal, holdings } = acceptUnchanged(
      [
        'Conto: 123',
        'Periodo: 2024',
        '',
        'Operazione;Data valuta;Descrizione;Titolo;Isin;Segno;Quantita;Prezzo;Divisa;Controvalore',
        '10/01/2024;12/01/2024;Compravendita titoli;ENEL;IT0003128367;A;100;6,5;EUR;650',
        '10/02/2024;12/02/2024;Compravendita titoli;ENEL;IT0003128367;V;40;7;EUR;280',
        '20/03/2024;20/03/2024;Dividendo;ENEL;IT0003128367;;;;EUR;12',
      ].join('\n'),
    );
    expect(proposal.acceptable).toBe(true);
    expect(holdings).toEqual(['IT0003128367 EUR 60 @ 6.5']);
  });

  it('a pension fund: fractional units whose price and cash agree', () => {
    const { proposal, holdings } = acceptUnchanged(
      [
        'Date;Category;Asset Name;ISIN;Number of Shares;Asset Currency;Asset Price in CHF;Cash Flow;Balance',
        '2024-01-05;Deposit;;;;;;1000;1000',
        '2024-01-08;Buy;CSIF (CH) Bond;CH0209106761;0.8123;CHF;950;-771.685;228.315',
        '2024-02-08;Buy;CSIF (CH) Bond;CH0209106761;0.2;CHF;960;-192;36.315',
      ].join('\n'),
    );
    expect(proposal.checks.find((c) => c.id === 'fractional-quantity')).toMatchObject({
      passed: true,
    });
    expect(proposal.acceptable).toBe(true);
    // (0.8123 × 950 + 0.2 × 960) / 1.0123
    expect(holdings).toEqual(['CH0209106761 CHF 1.0123 @ 951.9756989035']);
  });
});
