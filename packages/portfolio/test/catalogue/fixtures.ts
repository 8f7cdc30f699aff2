import { MORE_FIXTURES } from './more-fixtures.js';

// Hand-made files in each catalogue definition's documented layout (see the definition's
// `source`), each with at least a buy, a sell, a dividend, a fee and a cash movement where the
// layout has them, and what each holds, worked out by hand. The instrument, quantities and prices
// are invented: deposit 1000, buy 10 @ 50 (fee 1), sell 4 @ 60 (fee 1), dividend, fee.

/** A fixture: the file, and the holdings (`SYMBOL CUR quantity`) and cash it holds. */
export interface CatalogueFixture {
  readonly text: string;
  readonly holdings: readonly string[];
  readonly cash: Readonly<Record<string, string>>;
  /** Transaction types the file must yield (defaults: buy, sell, dividend, fee and a cash movement). */
  readonly types?: readonly string[];
}

const lines = (...rows: string[]) => rows.join('\n');

export const FIXTURES: Record<string, CatalogueFixture> = {
  'scalable-capital': {
    text: lines(
      'date;time;status;reference;description;assetType;type;isin;shares;price;amount;fee;tax;currency',
      '2024-01-02;09:00:00;Executed;"r1";"Deposit";Cash;Deposit;;;;1000;0;0;EUR',
      '2024-01-03;10:00:00;Executed;"r2";"iShares Core MSCI World";Security;Buy;IE00B4L5Y983;10;50;-500;1;0;EUR',
      '2024-02-03;10:00:00;Executed;"r3";"iShares Core MSCI World";Security;Sell;IE00B4L5Y983;4;60;240;1;0;EUR',
      '2024-03-03;10:00:00;Executed;"r4";"iShares Core MSCI World";Security;Distribution;IE00B4L5Y983;;;5;0;0;EUR',
      '2024-03-04;10:00:00;Executed;"r5";"Fee";Cash;Fee;;;;-2;0;0;EUR',
      '2024-03-05;10:00:00;Cancelled;"r6";"iShares Core MSCI World";Security;Buy;IE00B4L5Y983;3;50;-150;0;0;EUR',
    ),
    holdings: ['IE00B4L5Y983 EUR 6'],
    cash: { EUR: '741' },
  },
  parqet: {
    text: lines(
      'datetime;date;time;price;shares;amount;tax;fee;realizedgains;type;broker;assettype;identifier;wkn;originalcurrency;currency;fxrate;holding;holdingname;holdingnickname;exchange;avgholdingperiod',
      '2024-01-02T09:00:00.000Z;02.01.2024;09:00:00;1;1000;1000;0;0;0;Deposit;;Cash;;;EUR;EUR;1;h0;Cash;;;',
      '2024-01-03T10:00:00.000Z;03.01.2024;10:00:00;50;10;500;0;1;0;Buy;;Security;IE00B4L5Y983;A0RPWH;EUR;EUR;1;h1;iShares Core MSCI World;;;',
      '2024-02-03T10:00:00.000Z;03.02.2024;10:00:00;60;4;240;0;1;40;Sell;;Security;IE00B4L5Y983;A0RPWH;EUR;EUR;1;h1;iShares Core MSCI World;;;',
      '2024-03-03T10:00:00.000Z;03.03.2024;10:00:00;1;6;6;1;0;0;Dividend;;Security;IE00B4L5Y983;A0RPWH;EUR;EUR;1;h1;iShares Core MSCI World;;;',
      '2024-03-04T10:00:00.000Z;04.03.2024;10:00:00;2;1;2;0;0;0;Fee;;Cash;;;EUR;EUR;1;h0;Cash;;;',
    ),
    holdings: ['IE00B4L5Y983 EUR 6'],
    // 1000 − 501 + 239 + (6 − 1 tax) − 2
    cash: { EUR: '741' },
  },
  'portfolio-performance-de': {
    text: lines(
      'Datum;Typ;Wert;Buchungswährung;Bruttobetrag;Währung Bruttobetrag;Wechselkurs;Gebühren;Steuern;Stück;ISIN;WKN;Ticker-Symbol;Wertpapiername;Notiz',
      '2024-01-02T00:00;Einlage;1.000,00;EUR;;;;;;;;;;;',
      '2024-01-03T10:00;Kauf;-501,00;EUR;500,00;EUR;;1,00;;10;IE00B4L5Y983;A0RPWH;EUNL.DE;iShares Core MSCI World;',
      '2024-02-03T10:00;Verkauf;239,00;EUR;240,00;EUR;;1,00;;4;IE00B4L5Y983;A0RPWH;EUNL.DE;iShares Core MSCI World;',
      '2024-03-03T00:00;Dividende;4,00;EUR;5,00;EUR;;;1,00;6;IE00B4L5Y983;A0RPWH;EUNL.DE;iShares Core MSCI World;',
      '2024-03-04T00:00;Gebühren;-2,00;EUR;;;;;;;;;;;',
      '2024-03-05T00:00;Entnahme;-100,00;EUR;;;;;;;;;;;',
    ),
    holdings: ['IE00B4L5Y983 EUR 6'],
    cash: { EUR: '640' },
  },
  'portfolio-performance-en': {
    text: lines(
      'Date,Type,Value,Transaction Currency,Gross Amount,Currency Gross Amount,Exchange Rate,Fees,Taxes,Shares,ISIN,WKN,Ticker Symbol,Security Name,Note',
      '2024-01-02T00:00,Deposit,"1,000.00",USD,,,,,,,,,,,',
      '2024-01-03T10:00,Buy,-501.00,USD,500.00,USD,,1.00,,10,US0378331005,865985,AAPL,Apple Inc.,',
      '2024-02-03T10:00,Sell,239.00,USD,240.00,USD,,1.00,,4,US0378331005,865985,AAPL,Apple Inc.,',
      '2024-03-03T00:00,Dividend,4.00,USD,5.00,USD,,,1.00,6,US0378331005,865985,AAPL,Apple Inc.,',
      '2024-03-04T00:00,Fees,-2.00,USD,,,,,,,,,,,',
      '2024-03-05T00:00,Removal,-100.00,USD,,,,,,,,,,,',
    ),
    holdings: ['US0378331005 USD 6'],
    cash: { USD: '640' },
  },
  comdirect: {
    text: lines(
      ';',
      '"Depotumsätze der letzten 90 Tage";',
      ';',
      '"Buchungstag";"Geschäftstag";"Stück / Nom.";"Bezeichnung";"WKN";"Währung";"Ausführungskurs";"Umsatz in EUR";',
      '"05.01.2024";"03.01.2024";"10";"ISHSIII-CORE MSCI WLD";"A0RPWH";"EUR";"50,00";"-501,00";',
      '"05.02.2024";"03.02.2024";"4";"ISHSIII-CORE MSCI WLD";"A0RPWH";"EUR";"60,00";"239,00";',
    ),
    holdings: ['A0RPWH EUR 6'],
    cash: { EUR: '-262' },
    // the depot file lists trades only (dividends and fees are on the current account)
    types: ['buy', 'sell'],
  },
  swissquote: {
    text: lines(
      'Date;Order #;Transaction;Symbol;Name;ISIN;Quantity;Unit price;Costs;Accrued Interest;Net Amount;Balance;Currency',
      '02-01-2024 09:00:00;;Payment;;;;0;0;0;0;1000;1000;CHF',
      '03-01-2024 10:00:00;111;Buy;NESN;NESTLE N;CH0038863350;10;50;1;0;-501;499;CHF',
      '03-02-2024 10:00:00;112;Sell;NESN;NESTLE N;CH0038863350;4;60;1;0;239;738;CHF',
      '03-03-2024 10:00:00;;Dividend;NESN;NESTLE N;CH0038863350;6;1;0;0;6.5;744.5;CHF',
      '03-03-2024 10:00:00;;Withholding tax;NESN;NESTLE N;CH0038863350;0;0;0;0;-1.5;743;CHF',
      '04-03-2024 10:00:00;;Custody Fees;;;;0;0;0;0;-2;741;CHF',
    ),
    holdings: ['CH0038863350 CHF 6'],
    cash: { CHF: '741' },
  },
  finpension: {
    text: lines(
      'Date;Category;Asset Name;ISIN;Number of Shares;Asset Currency;Currency Rate;Asset Price in CHF;Cash Flow;Balance',
      '2024-01-02;Deposit;;;;CHF;1;;1000;1000',
      '2024-01-03;Buy;CSIF (CH) Equity World;CH0429081620;10;USD;0.9;50;-500;500',
      '2024-02-03;Sell;CSIF (CH) Equity World;CH0429081620;-4;USD;0.9;60;240;740',
      '2024-03-03;Dividend;CSIF (CH) Equity World;CH0429081620;;USD;0.9;;5;745',
      '2024-03-04;Fee;;;;CHF;1;;-2;743',
    ),
    holdings: ['CH0429081620 CHF 6'],
    cash: { CHF: '743' },
  },
  directa: {
    text: lines(
      'Conto : 12345 Rossi Mario',
      'Data estrazione : 10-04-2024',
      '',
      'Data operazione,Data valuta,Tipo operazione,Ticker,Isin,Protocollo,Descrizione,Quantità,Importo euro,Importo Divisa,Divisa,Riferimento ordine',
      '02-01-2024,02-01-2024,Conferimento,,,1,Bonifico in entrata,0,1000,,,',
      '03-01-2024,05-01-2024,Acquisto,ENEL,IT0003128367,2,ENEL,10,-500,,,R1',
      '03-01-2024,05-01-2024,Commissioni,ENEL,IT0003128367,3,Commissioni ENEL,0,-1,,,R1',
      '03-02-2024,05-02-2024,Vendita,ENEL,IT0003128367,4,ENEL,-4,240,,,R2',
      '20-03-2024,20-03-2024,Dividendi,ENEL,IT0003128367,5,Dividendo ENEL,0,5,,,',
      '20-03-2024,20-03-2024,Ritenuta,ENEL,IT0003128367,6,Ritenuta su dividendo,0,-1.3,,,',
      '31-03-2024,31-03-2024,Bollo,,,7,Imposta di bollo,0,-2,,,',
    ),
    holdings: ['IT0003128367 EUR 6'],
    cash: { EUR: '740.7' },
  },
  fineco: {
    text: lines(
      'Conto: 1234567',
      'Periodo: dal 01/01/2024 al 31/03/2024',
      '',
      'Operazione;Data valuta;Descrizione;Titolo;Isin;Segno;Quantita;Prezzo;Divisa;Controvalore;Commissioni',
      '03/01/2024;05/01/2024;Compravendita titoli;ENI SPA;IT0003132476;A;10;50,00;EUR;500,00;1,00',
      '03/02/2024;05/02/2024;Compravendita titoli;ENI SPA;IT0003132476;V;4;60,00;EUR;240,00;1,00',
      '20/03/2024;20/03/2024;Dividendo;ENI SPA;IT0003132476;;6;1,00;EUR;6,00;',
      '21/03/2024;21/03/2024;Ritenuta su dividendi;ENI SPA;IT0003132476;;;;EUR;-1,56;',
      '31/03/2024;31/03/2024;Imposta di bollo;;;;;;EUR;-2,00;',
    ),
    holdings: ['IT0003132476 EUR 6'],
    // −501 + 239 + 6 − 1.56 − 2 (the securities file holds no cash transfers)
    cash: { EUR: '-259.56' },
    types: ['buy', 'sell', 'dividend', 'fee'],
  },
  bux: {
    text: lines(
      'Transaction Time (CET),Transaction Category,Transaction Type,Transfer Type,Transaction Amount,Transaction Currency,Cash Balance Amount,Asset Id,Asset Name,Asset Quantity,Asset Price,Asset Currency,Currency Pair,Exchange Rate,Profit And Loss Amount,Profit And Loss Currency,Dividend Currency,Dividend Gross Amount,Dividend Net Amount,Dividend Tax Amount,Transaction Description',
      '2024-01-02 09:00:00,CASH,Deposit,CASH_CREDIT,1000,EUR,1000,,,,,,,,,,,,,,iDEAL deposit',
      '2024-01-03 10:00:00,TRADING,Buy Trade,ASSET_TRADE_BUY,-500,EUR,500,NL0010273215,ASML,10,50,EUR,,1,,,,,,,Buy ASML',
      '2024-01-03 10:00:00,FEES,Order Fee,CASH_DEBIT,-1,EUR,499,NL0010273215,ASML,,,,,,,,,,,,Order fee',
      '2024-02-03 10:00:00,TRADING,Sell Trade,ASSET_TRADE_SELL,240,EUR,739,NL0010273215,ASML,4,60,EUR,,1,,,,,,,Sell ASML',
      '2024-03-03 10:00:00,CORPORATE_ACTION,Dividend,CASH_CREDIT,4.25,EUR,743.25,NL0010273215,ASML,,,,,,,,EUR,5,4.25,0.75,Dividend ASML',
    ),
    holdings: ['NL0010273215 EUR 6'],
    cash: { EUR: '743.25' },
  },
  avanza: {
    text: lines(
      'Datum;Konto;Typ av transaktion;Värdepapper/beskrivning;Antal;Kurs;Belopp;Transaktionsvaluta;Courtage;Valutakurs;Instrumentvaluta;ISIN;Resultat',
      '2024-01-02;ISK;Insättning;Insättning;-;-;1 000;SEK;-;-;;-;-',
      '2024-01-03;ISK;Köp;Investor B;10;50;-501;SEK;1;-;SEK;SE0015811963;-',
      '2024-02-03;ISK;Sälj;Investor B;-4;60;239;SEK;1;-;SEK;SE0015811963;38,6',
      '2024-03-03;ISK;Utdelning;Investor B;6;1;6;SEK;-;-;SEK;SE0015811963;-',
      '2024-03-03;ISK;Utländsk källskatt;Investor B;-;-;-1;SEK;-;-;SEK;SE0015811963;-',
      '2024-03-04;ISK;Avgift;Depåavgift;-;-;-2;SEK;-;-;;-;-',
    ),
    holdings: ['SE0015811963 SEK 6'],
    cash: { SEK: '741' },
  },
  nordnet: {
    text: lines(
      'Id\tBokföringsdag\tAffärsdag\tLikviddag\tDepå\tTransaktionstyp\tVärdepapper\tISIN\tAntal\tKurs\tRänta\tTotal Avgift\tValuta\tBelopp\tValuta\tInköpsvärde\tValuta\tResultat\tValuta\tTotalt antal\tSaldo\tVäxlingskurs\tTransaktionstext',
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINSÄTTNING\t\t\t\t\t\t\tSEK\t1 000\tSEK\t\t\t\t\t\t1 000\t\tInsättning',
      '2\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKÖPT\tInvestor B\tSE0015811963\t10\t50\t\t1\tSEK\t-501\tSEK\t\t\t\t\t10\t499\t\t',
      '3\t2024-02-05\t2024-02-03\t2024-02-05\t123\tSÅLT\tInvestor B\tSE0015811963\t4\t60\t\t1\tSEK\t239\tSEK\t\t\t\t\t6\t738\t\t',
      '4\t2024-03-03\t2024-03-03\t2024-03-03\t123\tUTDELNING\tInvestor B\tSE0015811963\t6\t1\t\t\tSEK\t6\tSEK\t\t\t\t\t6\t744\t\t',
      '5\t2024-03-03\t2024-03-03\t2024-03-03\t123\tUTL KUPSKATT\tInvestor B\tSE0015811963\t\t\t\t\tSEK\t-1\tSEK\t\t\t\t\t6\t743\t\t',
      '6\t2024-03-04\t2024-03-04\t2024-03-04\t123\tAVGIFT\t\t\t\t\t\t\tSEK\t-2\tSEK\t\t\t\t\t\t741\t\tPlattformsavgift',
    ),
    holdings: ['SE0015811963 SEK 6'],
    cash: { SEK: '741' },
  },
  freetrade: {
    text: lines(
      'Title,Type,Timestamp,Account Currency,Total Amount,Buy / Sell,Ticker,ISIN,Price per Share in Account Currency,Stamp Duty,Quantity,Venue,Order ID,Order Type,Instrument Currency,Total Shares Amount,Price per Share,FX Rate,Base FX Rate,FX Fee (BPS),FX Fee Amount,Dividend Ex Date,Dividend Pay Date,Dividend Eligible Quantity,Dividend Amount Per Share,Dividend Gross Distribution Amount,Dividend Net Distribution Amount,Dividend Withheld Tax Percentage,Dividend Withheld Tax Amount',
      'Top up,TOP_UP,2024-01-02T09:00:00.000Z,GBP,1000.00,,,,,,,,,,,,,,,,,,,,,,,,',
      'Lloyds,ORDER,2024-01-03T10:00:00.000Z,GBP,501.00,BUY,LLOY,GB0008706128,50.00,1.00,10,XLON,o1,BASIC,GBP,500.00,50.00,1,1,0,0,,,,,,,,',
      'Lloyds,ORDER,2024-02-03T10:00:00.000Z,GBP,240.00,SELL,LLOY,GB0008706128,60.00,0,4,XLON,o2,BASIC,GBP,240.00,60.00,1,1,0,0,,,,,,,,',
      'Lloyds,DIVIDEND,2024-03-03T10:00:00.000Z,GBP,5.00,,LLOY,GB0008706128,,,,,,,GBP,,,,,,,2024-02-10,2024-03-03,6,0.8333,5.00,5.00,0,0',
      'Interest,INTEREST_FROM_CASH,2024-03-31T10:00:00.000Z,GBP,0.50,,,,,,,,,,,,,,,,,,,,,,,,',
      'Withdrawal,WITHDRAWAL,2024-04-02T09:00:00.000Z,GBP,100.00,,,,,,,,,,,,,,,,,,,,,,,,',
    ),
    holdings: ['LLOY GBP 6'],
    // 1000 − 501 (stamp duty 1) + 240 + 5 + 0.50 − 100
    cash: { GBP: '644.5' },
    // Freetrade charges no fee of its own rows: stamp duty is the trade's fee
    types: ['buy', 'sell', 'dividend', 'deposit', 'withdrawal'],
  },
  investengine: {
    text: lines(
      'Security / ISIN,Transaction Type,Quantity,Share Price,Total Trade Value,Trade Date/Time,Settlement Date,Broker',
      'Vanguard FTSE All-World UCITS ETF / ISIN IE00BK5BQT80,Buy,10,50,500,03/01/24 10:00:00,05/01/24,Winterflood',
      'Vanguard FTSE All-World UCITS ETF / ISIN IE00BK5BQT80,Sell,4,60,240,03/02/24 10:00:00,05/02/24,Winterflood',
    ),
    holdings: ['IE00BK5BQT80 GBP 6'],
    cash: { GBP: '-260' },
    // the trading statement lists trades only
    types: ['buy', 'sell'],
  },
  robinhood: {
    text: lines(
      '"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"',
      '"1/2/2024","1/2/2024","1/2/2024","","ACH Deposit","ACH","","","$1,000.00"',
      '"1/3/2024","1/3/2024","1/5/2024","AAPL","Apple',
      'CUSIP: 037833100","Buy","10","$50.00","($500.00)"',
      '"2/3/2024","2/3/2024","2/6/2024","AAPL","Apple","Sell","4","$60.00","$240.00"',
      '"3/3/2024","3/3/2024","3/3/2024","AAPL","Cash Div: R/D 2024-02-10 P/D 2024-03-03 - 6 shares at 1","CDIV","","","$6.00"',
      '"3/3/2024","3/3/2024","3/3/2024","AAPL","Dividend tax withheld","DTAX","","","($1.00)"',
      '"3/4/2024","3/4/2024","3/4/2024","","Gold Subscription Fee","GOLD","","","($5.00)"',
      '"3/5/2024","3/5/2024","3/5/2024","","ACH Withdrawal","ACH","","","($100.00)"',
      '"","","","","","","","",""',
      '"The data provided is for informational purposes only."',
    ),
    holdings: ['AAPL USD 6'],
    cash: { USD: '640' },
  },
  fidelity: {
    text: lines(
      '',
      '',
      ' Run Date,Action,Symbol,Security Description,Security Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Settlement Date',
      ' 01/02/2024,Electronic Funds Transfer Received (Cash),,No Description,Cash,0.000,,,,,1000,',
      ' 01/03/2024,YOU BOUGHT APPLE INC (AAPL) (Cash),AAPL,APPLE INC,Cash,10,50,1,,,-501,01/05/2024',
      ' 02/03/2024,YOU SOLD APPLE INC (AAPL) (Cash),AAPL,APPLE INC,Cash,-4,60,1,,,239,02/06/2024',
      ' 03/03/2024,DIVIDEND RECEIVED APPLE INC (AAPL) (Cash),AAPL,APPLE INC,Cash,0.000,,,,,6,',
      ' 03/03/2024,FOREIGN TAX PAID APPLE INC (AAPL) (Cash),AAPL,APPLE INC,Cash,0.000,,,,,-1,',
      ' 03/04/2024,FEE CHARGED (Cash),,No Description,Cash,0.000,,,,,-2,',
      '',
      '',
      '"The data and information in this spreadsheet is provided to you solely for your use."',
    ),
    holdings: ['AAPL USD 6'],
    cash: { USD: '741' },
  },
  vanguard: {
    text: lines(
      'Account Number,Investment Name,Symbol,Shares,Share Price,Total Value,',
      '12345678,APPLE INC,AAPL,6,60,360,',
      '',
      '',
      'Account Number,Trade Date,Settlement Date,Transaction Type,Transaction Description,Investment Name,Symbol,Shares,Share Price,Principal Amount,Commissions and Fees,Net Amount,Accrued Interest,Account Type,',
      '12345678,01/02/2024,01/02/2024,Funds Received,Deposit,CASH,,0.00000,1.0,1000.00,0.0,1000.00,0.0,CASH,',
      '12345678,01/03/2024,01/05/2024,Buy,Buy,APPLE INC,AAPL,10.00000,50.00,-500.00,1.00,-501.00,0.0,CASH,',
      '12345678,02/03/2024,02/06/2024,Sell,Sell,APPLE INC,AAPL,-4.00000,60.00,240.00,1.00,239.00,0.0,CASH,',
      '12345678,03/03/2024,03/03/2024,Dividend,Dividend Received,APPLE INC,AAPL,0.00000,1.0,6.00,0.0,6.00,0.0,CASH,',
      '12345678,03/04/2024,03/04/2024,Fee,Account Service Fee,CASH,,0.00000,1.0,-2.00,0.0,-2.00,0.0,CASH,',
      '12345678,03/05/2024,03/05/2024,Withdrawal,Withdrawal,CASH,,0.00000,1.0,-100.00,0.0,-100.00,0.0,CASH,',
    ),
    holdings: ['AAPL USD 6'],
    cash: { USD: '642' },
  },
  'hargreaves-lansdown': {
    text: lines(
      'Stocks & Shares ISA,',
      'Client number:,123456',
      ',',
      'Trade date,Settle date,Reference,Description,Unit cost (p),Quantity,Value (£)',
      '02/01/2024,02/01/2024,Card Web,Card Web deposit,n/a,n/a,1000.00',
      '03/01/2024,05/01/2024,B123456,Lloyds Banking Group plc Ordinary 10p,5000,10,-501.00',
      '03/02/2024,05/02/2024,S123457,Lloyds Banking Group plc Ordinary 10p,6000,4,239.00',
      '31/03/2024,31/03/2024,Interest,Interest on cash,n/a,n/a,6.00',
      '31/03/2024,31/03/2024,Manage Fee,Management fee,n/a,n/a,-2.00',
    ),
    holdings: ['Lloyds Banking Group plc Ordinary 10p GBP 6'],
    cash: { GBP: '742' },
    // HL's documented references give no dividend row kind: interest stands in for income
    types: ['buy', 'sell', 'deposit', 'fee'],
  },
  disnat: {
    text: lines(
      "Date de transaction,Date de règlement,Type de transaction,Classe d'actif,Symbole,Description,Marché,Quantité,Prix,Devise du prix,Commission payée,Montant de l'opération,Devise du compte",
      '2024-01-02,2024-01-02,Dépôt,,,Dépôt,,0,0,CAD,0,1000.00,CAD',
      '2024-01-03,2024-01-05,Achat,Actions,RY,ROYAL BANK OF CANADA,TSX,10,50.00,CAD,1.00,-501.00,CAD',
      '2024-02-03,2024-02-05,Vente,Actions,RY,ROYAL BANK OF CANADA,TSX,-4,60.00,CAD,1.00,239.00,CAD',
      '2024-03-03,2024-03-03,Dividende,Actions,RY,ROYAL BANK OF CANADA,TSX,0,0,CAD,0,6.00,CAD',
      '2024-03-04,2024-03-04,Frais,,,Frais de compte,,0,0,CAD,0,-2.00,CAD',
    ),
    holdings: ['RY CAD 6'],
    cash: { CAD: '742' },
  },
  delta: {
    text: lines(
      'Date,Way,Base amount,Base currency (name),Base type,Quote amount,Quote currency,Exchange,Sent/Received from,Sent to,Fee amount,Fee currency (name),Broker,Notes',
      '2024-01-03T10:00:00+00:00,BUY,10,AAPL,STOCK,500,USD,NASDAQ,,,1,USD,,',
      '2024-02-03T10:00:00+00:00,SELL,4,AAPL,STOCK,240,USD,NASDAQ,,,1,USD,,',
    ),
    holdings: ['AAPL USD 6'],
    cash: { USD: '-262' },
    types: ['buy', 'sell'],
  },
  flatex: {
    text: lines(
      'Nummer;Buchtag;Valuta;ISIN;Bezeichnung;Nominal;Einheit;Buchungsinformationen;TA.-Nr.;Kurs;Währung;Depot',
      '1;03.01.2024;05.01.2024;IE00B4L5Y983;ISHSIII-CORE MSCI WLD;10,00;Stk.;Ausführung ORDER Kauf;1001;50,00;EUR;123',
      '2;03.02.2024;05.02.2024;IE00B4L5Y983;ISHSIII-CORE MSCI WLD;-4,00;Stk.;Ausführung ORDER Verkauf;1002;60,00;EUR;123',
    ),
    holdings: ['IE00B4L5Y983 EUR 6'],
    // units only: the cash moves on the flatex cash account
    cash: { EUR: '-260' },
    types: ['buy', 'sell'],
  },
  // the header up to Beløb's Valuta, then the rate as Nordnet names it (Vekslingskurs)
  'nordnet-dk': {
    text: lines(
      'Id\tBogføringsdag\tHandelsdag\tValørdag\tDepot\tTransaktionstype\tVærdipapirer\tISIN\tAntal\tKurs\tRente\tSamlede afgifter\tValuta\tBeløb\tValuta\tVekslingskurs',
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINDBETALING\t\t\t\t\t\t\tDKK\t1.000,00\tDKK\t',
      '2\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKØBT\tNovo Nordisk B\tDK0062498333\t10\t50\t\t1\tDKK\t-501,00\tDKK\t1',
      '3\t2024-02-05\t2024-02-03\t2024-02-05\t123\tSOLGT\tNovo Nordisk B\tDK0062498333\t4\t60\t\t1\tDKK\t239,00\tDKK\t1',
      '4\t2024-03-22\t2024-03-22\t2024-03-22\t123\tUDBYTTE\tNovo Nordisk B\tDK0062498333\t6\t1\t\t\tDKK\t6,00\tDKK\t',
      '5\t2024-03-22\t2024-03-22\t2024-03-22\t123\tUDBYTTESKAT\tNovo Nordisk B\tDK0062498333\t\t\t\t\tDKK\t-1,62\tDKK\t',
      '6\t2024-03-31\t2024-03-31\t2024-03-31\t123\tGEBYR\t\t\t\t\t\t\tDKK\t-2,00\tDKK\t',
    ),
    holdings: ['DK0062498333 DKK 6'],
    cash: { DKK: '740.38' },
  },
  // the layout with Værdipapirtype: the header as the source gives it in full
  'nordnet-dk-typed': {
    text: lines(
      'Id\tBogføringsdag\tHandelsdag\tValørdag\tDepot\tTransaktionstype\tVærdipapirer\tVærdipapirtype\tISIN\tAntal\tKurs\tRente\tSamlede afgifter\tValuta\tBeløb\tValuta\tIndkøbsværdi\tValuta\tResultat\tValuta\tTotalt antal\tSaldo\tVekslingskurs\tTransaktionstekst\tMakuleringsdato\tNotanummer\tVerifikationsnummer\tKurtage\tValuta',
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINDBETALING\t\t\t\t\t\t\t\t\t1.000,00\tDKK\t\t\t\t\t\t1.000,00\t\tIndbetaling\t\t\t\t\t',
      '2\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKØBT\tNovo Nordisk B\tAktier\tDK0062498333\t10\t50\t\t1,00\tDKK\t-501,00\tDKK\t500,00\tDKK\t\t\t10\t499,00\t1\t\t\t111\t111\t1,00\tDKK',
      '3\t2024-02-05\t2024-02-03\t2024-02-05\t123\tSOLGT\tNovo Nordisk B\tAktier\tDK0062498333\t4\t60\t\t1,00\tDKK\t239,00\tDKK\t200,00\tDKK\t39,00\tDKK\t6\t738,00\t1\t\t\t222\t222\t1,00\tDKK',
      '4\t2024-03-22\t2024-03-22\t2024-03-22\t123\tUDBYTTE\tNovo Nordisk B\tAktier\tDK0062498333\t6\t1\t\t\t\t6,00\tDKK\t\t\t\t\t6\t744,00\t\tUdbytte\t\t\t\t\t',
      '5\t2024-03-22\t2024-03-22\t2024-03-22\t123\tUDBYTTESKAT\tNovo Nordisk B\tAktier\tDK0062498333\t6\t\t\t\t\t-1,62\tDKK\t\t\t\t\t6\t742,38\t\tUdbytteskat\t\t\t\t\t',
      '6\t2024-04-02\t2024-04-02\t2024-04-02\t123\tHÆVNING\t\t\t\t\t\t\t\t\t-100,00\tDKK\t\t\t\t\t\t642,38\t\tHævning\t\t\t\t\t',
    ),
    holdings: ['DK0062498333 DKK 6'],
    // 1000 − 501 + 239 + 6 − 1.62 (dividend tax) − 100
    cash: { DKK: '642.38' },
  },
  // the 2021 layout, its header up to Vekslingskurs as the source lists it (later columns read none)
  'nordnet-dk-2021': {
    text: lines(
      'Id\tBogføringsdag\tHandelsdag\tValørdag\tDepot\tTransaktionstype\tVærdipapirer\tVærdipapirtype\tISIN\tAntal\tKurs\tRente\tSamlede afgifter\tSamlede afgifter valuta\tBeløb\tValuta\tIndkøbsværdi\tResultat\tTotal antal\tSaldo\tVekslingskurs',
      '1\t2021-01-04\t2021-01-04\t2021-01-04\t123\tINDBETALING\t\t\t\t\t\t\t\t\t1.000,00\tDKK\t\t\t\t1.000,00\t',
      '2\t2021-01-07\t2021-01-05\t2021-01-07\t123\tKØBT\tNovo Nordisk B\tAktier\tDK0062498333\t10\t50\t\t1,00\tDKK\t-501,00\tDKK\t500,00\t\t10\t499,00\t1',
      '3\t2021-02-05\t2021-02-03\t2021-02-05\t123\tSOLGT\tNovo Nordisk B\tAktier\tDK0062498333\t4\t60\t\t1,00\tDKK\t239,00\tDKK\t200,00\t39,00\t6\t738,00\t1',
      '4\t2021-03-22\t2021-03-22\t2021-03-22\t123\tUDB.\tNovo Nordisk B\tAktier\tDK0062498333\t6\t1\t\t\t\t6,00\tDKK\t\t\t6\t744,00\t',
      '5\t2021-03-22\t2021-03-22\t2021-03-22\t123\tUDBYTTESKAT\tNovo Nordisk B\tAktier\tDK0062498333\t6\t\t\t\t\t-1,62\tDKK\t\t\t6\t742,38\t',
    ),
    holdings: ['DK0062498333 DKK 6'],
    cash: { DKK: '742.38' },
  },
  'nordnet-no': {
    text: lines(
      'Id\tBokføringsdag\tHandelsdag\tOppgjørsdag\tPortefølje\tTransaksjonstype\tVerdipapir\tISIN\tAntall\tKurs\tRente\tTotale Avgifter\tValuta\tBeløp\tValuta\tVekslingskurs',
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINNSKUDD\t\t\t\t\t\t\tNOK\t1 000,00\tNOK\t',
      '2\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKJØPT\tEquinor\tNO0010096985\t10\t50\t\t1\tNOK\t-501,00\tNOK\t1',
      '3\t2024-02-05\t2024-02-03\t2024-02-05\t123\tSOLGT\tEquinor\tNO0010096985\t4\t60\t\t1\tNOK\t239,00\tNOK\t1',
      '4\t2024-03-22\t2024-03-22\t2024-03-22\t123\tUTBYTTE\tEquinor\tNO0010096985\t6\t1\t\t\tNOK\t6,00\tNOK\t',
      '5\t2024-03-31\t2024-03-31\t2024-03-31\t123\tUTTAK\t\t\t\t\t\t\tNOK\t-100,00\tNOK\t',
      '6\t2024-03-31\t2024-03-31\t2024-03-31\t123\tGEBYR\t\t\t\t\t\t\tNOK\t-2,00\tNOK\t',
    ),
    holdings: ['NO0010096985 NOK 6'],
    cash: { NOK: '642' },
  },
  'nordnet-fi': {
    text: lines(
      'Id\tKirjauspäivä\tKauppapäivä\tMaksupäivä\tSalkku\tTapahtumatyyppi\tArvopaperi\tISIN\tMäärä\tKurssi\tKorko\tKokonaiskulut\tValuutta\tSumma\tValuutta\tHankinta-arvo\tValuutta\tTulos\tValuutta\tKokonaismäärä\tSaldo\tVaihtokurssi\tTapahtumateksti\tMitätöintipäivä\tLaskelma\tVahvistusnumero\tVälityspalkkio\tValuutta\tViitevaluuttakurssi\tAlkuperäinen korko',
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tTALLETUS\t\t\t\t\t\t\t\t1 000\tEUR\t\t\t\t\t\t1 000\t\tTALLETUS\t\t\t111\t\t\t\t',
      '2\t2024-01-03\t2024-01-03\t2024-01-05\t123\tOSTO\tNokia Oyj\tFI0009000681\t10\t50\t0\t1\tEUR\t-501\tEUR\t501\tEUR\t0\tEUR\t10\t499\t\t\t\t222\t222\t1\tEUR\t\t',
      '3\t2024-02-03\t2024-02-03\t2024-02-05\t123\tMYYNTI\tNokia Oyj\tFI0009000681\t4\t60\t0\t1\tEUR\t239\tEUR\t\tEUR\t38,6\tEUR\t6\t738\t\t\t\t333\t333\t1\tEUR\t\t',
      '4\t2024-03-03\t2024-03-03\t2024-03-03\t123\tOSINKO\tNokia Oyj\tFI0009000681\t6\t1\t\t\t\t6\tEUR\t\t\t\t\t6\t744\t\tDIV\t\t\t444\t\t\t\t',
      '5\t2024-03-03\t2024-03-03\t2024-03-03\t123\tENNAKKOPIDÄTYS\tNokia Oyj\tFI0009000681\t6\t\t\t\t\t-1,5\tEUR\t\t\t\t\t6\t742,5\t\tDIV\t\t\t444\t\t\t\t',
      '6\t2024-04-01\t2024-04-01\t2024-04-01\t123\tLAINAKORKO\t\t\t\t\t\t\t\t-2\tEUR\t\t\t\t\t\t740,5\t\tLAINAKORKO\t\t\t555\t\t\t\t',
      '7\t2024-04-02\t2024-04-02\t2024-04-02\t123\tNOSTO\t\t\t\t\t\t\t\t-100\tEUR\t\t\t\t\t\t640,5\t\tNOSTO\t\t\t666\t\t\t\t',
    ),
    holdings: ['FI0009000681 EUR 6'],
    // 1000 − 501 + 239 + 6 − 1.5 (withholding) − 2 (loan interest) − 100
    cash: { EUR: '640.5' },
  },
  rabobank: {
    text: lines(
      'Portefeuille;Naam;Datum;Type mutatie;Valuta mutatie;Volume;Koers;Valuta koers;Valuta kosten €;Waarde;Bedrag;Isin code;Tijd;Beurs',
      '12345678;;02-01-2024;Storting / opname;EUR;0;0,00 ;EUR;0;0,00;1.000,00;;;',
      '12345678;1895 Wereld Aandelen Enh Indexfonds;03-01-2024;Koop Fondsen;EUR;10;50,00 ;EUR;1,00;500,00;-501,00;NL0014065450;10:00:00.000;Clearstream - Vestima',
      '12345678;1895 Wereld Aandelen Enh Indexfonds;05-02-2024;Verkoop Fondsen;EUR;-4;60,00 ;EUR;1,00;240,00;239,00;NL0014065450;10:00:00.000;Clearstream - Vestima',
      '12345678;1895 Wereld Aandelen Enh Indexfonds;28-03-2024;Contant dividend;EUR;6;1,00 ;EUR;0;6,00;5,10;NL0014065450;;',
      '12345678;;06-04-2024;Tarieven en services;EUR;0;0,00 ;EUR;0;0,00;-2,00;;;',
      '12345678;;03-05-2024;Rente beleggersrekening;EUR;0;0,00 ;EUR;0;0,00;0,50;;;',
      '12345678;;10-05-2024;Storting / opname;EUR;0;0,00 ;EUR;0;0,00;-100,00;;;',
    ),
    holdings: ['NL0014065450 EUR 6'],
    // 1000 − 501 + 239 + 5.10 (net of 15% dividend tax) − 2 + 0.50 − 100
    cash: { EUR: '641.6' },
  },
  // ING NL: the units side (buys, dividends) and the cash side (transfers, fees) are two files
  // the 19-column Mutatieoverzicht: rows in the shapes of its source's test rows; the dividend's
  // Transactie bedrag is the cash after Dividendbelasting (the source: costs and taxes are in it)
  'rabobank-2026': {
    text: lines(
      'Portefeuille;Naam;Datum;Type mutatie;Transactie Eenheid/Valuta;Volume;Koers valuta;Prijs;Transactie valuta;Waarde in valuta;Bedrag in valuta;Transactie bedrag;Valuta kosten €;Opgelopen rente;Dividendbelasting;Transactiebelasting;Isin code;Beurs;Tijd',
      '12345678;-;02-01-2024;Storting / opname;;0;;0;;0;EUR;1.000;-;-;-;-;;;09:00:00',
      '12345678;1895 Wereld Aandelen Enh Indexfonds;03-01-2024;Koop fondsen;st;10;EUR;50;EUR;501;EUR;-501;1,00;;-;-;NL0014065450;Clearstream - Vestima;10:00:00',
      '12345678;1895 Wereld Aandelen Enh Indexfonds;05-02-2024;Verkoop fondsen;st;4;EUR;60;EUR;239;EUR;239;1,00;;-;-;NL0014065450;Clearstream - Vestima;10:00:00',
      '12345678;1895 Wereld Aandelen Enh Indexfonds;28-03-2024;Dividend;st;6;EUR;1;EUR;6;EUR;5,10;-;;0,90;-;NL0014065450;;',
      '12345678;-;06-04-2024;Servicekosten;;0;;0;;0;EUR;-2,00;-;-;-;-;;;',
      '12345678;-;10-05-2024;Storting / opname;;0;;0;;0;EUR;-100;-;-;-;-;;;08:00:00',
    ),
    holdings: ['NL0014065450 EUR 6'],
    // 1000 − 501 + 239 + 5.10 − 2 − 100
    cash: { EUR: '641.1' },
  },
  'ing-nl-portfolio': {
    text: lines(
      'Datum\tNaam\tAantal\tType\tWaarde valuta\tWaarde\tGerealiseerd rendement valuta\tGerealiseerd rendement\tKoers valuta\tKoers\tWisselkoers\tNummer\tVia\tTransactiedatum\tValutadatum\tBoekdatum\tAfwikkelingsdatum\tOrderbedrag valuta\tOrderbedrag\tING kosten valuta\tING kosten\tBelasting valuta\tBelasting\tNotabedrag valuta\tNotabedrag\tRente methode\tRentedagen\tOpgelopen rente valuta\tOpgelopen rente',
      '03-01-2024\tNorthern Trust World Custom Index Fund\t10\tK\t€\t-500,00\t€\t0,00\t€\t50,00\t\t1001\tInternet\t03-01-2024\t04-01-2024\t03-01-2024\t04-01-2024\t€\t500,00\t¤\t1,00\t¤\t0,00\t€\t501,00\t\t\t\t',
      '04-03-2024\tNorthern Trust World Custom Index Fund\t2\tK\t€\t-110,00\t€\t0,00\t€\t55,00\t\t1002\tInternet\t04-03-2024\t05-03-2024\t04-03-2024\t05-03-2024\t€\t110,00\t¤\t0,00\t¤\t0,00\t€\t110,00\t\t\t\t',
      '28-03-2024\tNorthern Trust World Custom Index Fund\t12\tUITK\t€\t8,50\t€\t0,00\t€\t0,00\t\t1003\tRegulier\t28-03-2024\t28-03-2024\t28-03-2024\t28-03-2024\t€\t10,00\t¤\t0,00\t€\t1,50\t€\t8,50\t\t\t\t',
    ),
    holdings: ['Northern Trust World Custom Index Fund EUR 12'],
    // −501 − 110 + (8.50 net = 10 gross − 1.50 dividend tax): the money came in through the cash file
    cash: { EUR: '-602.5' },
    types: ['buy', 'dividend', 'fee'],
  },
  'ing-nl-cash': {
    text: lines(
      'Datum\tOmschrijving\tRekeningtype\tValuta\tBedrag\tTegenrekening\tTransactienummer\tWaarderingsdatum\tING kosten valuta\tING kosten\tBelasting valuta\tBelasting',
      '02-01-2024\tOverschrijving beleggingsrekening\tGelddeel\t€\t1.000,00\t\t2001\t02-01-2024\t¤\t0,00\t¤\t0,00',
      '03-01-2024\tKoop Northern Trust World Custom Index Fund\tGelddeel\t€\t-501,00\t\t2002\t04-01-2024\t¤\t0,00\t¤\t0,00',
      '30-04-2024\tBasisfee en/of Servicefee rekening 12345678 01/01/2024 - 31/03/2024 (nadere specificatie zie afschrift).\tGelddeel\t€\t-3,27\t\t2003\t30-04-2024\t¤\t0,00\t€\t3,27',
      '30-04-2024\tKosten beleggen 12345678, 01/01/2024 - 31/03/2024\tGelddeel\t€\t3,27\t\t2004\t30-04-2024\t¤\t0,00\t¤\t0,00',
      '10-05-2024\tOverschrijving beleggingsrekening\tGelddeel\t€\t-100,00\t\t2005\t10-05-2024\t¤\t0,00\t¤\t0,00',
    ),
    holdings: [],
    // 1000 − 3.27 fee + 3.27 top-up − 100; the purchase is in the portfolio file
    cash: { EUR: '900' },
    types: ['deposit', 'withdrawal', 'fee'],
  },
  // Consorsbank's order overview holds executed orders only (no costs, dividends or cash)
  consorsbank: {
    text: lines(
      'Depot;Inhaber;Exportdatum;;;;;;;',
      '123456789;Max Mustermann;02.04.24 10:00;;;;;;;',
      ';;;;;;;;;',
      'Orderart;Orderdatum;Name;WKN;Stück/Nominal;Gültigkeit;Ordertyp;Handelsplatz;Status;Ausführungskurs',
      'Verkauf;05.03.24;SIEMENS AG NA O.N.;723610;4;05.03.24;Limit;Tradegate;Ausgeführt;160,00',
      'Kauf;04.03.24;SIEMENS AG NA O.N.;723610;3;04.03.24;Limit;Tradegate;Gestrichen;150,00',
      'Kauf;01.03.24;X(IE)-MSCI EM.MKTS 1CDL;A12GVR;2,5;;Market;Sparplan;Ausgeführt;40,00',
      'Kauf;15.01.24;SIEMENS AG NA O.N.;723610;10;15.01.24;Limit;Tradegate;Ausgeführt;150,00',
    ),
    holdings: ['723610 EUR 6', 'A12GVR EUR 2.5'],
    // −1500 − 100 + 640: the money is on the Verrechnungskonto, not in this file
    cash: { EUR: '-960' },
    types: ['buy', 'sell'],
  },
  // the same rows in the layout with Instrumenttityyppi and a named costs' currency
  'nordnet-fi-2021': {
    text: lines(
      'Id\tKirjauspäivä\tKauppapäivä\tMaksupäivä\tSalkku\tTapahtumatyyppi\tArvopaperi\tInstrumenttityyppi\tISIN\tMäärä\tKurssi\tKorko\tKokonaiskulut\tKokonaiskulut Valuutta\tSumma\tValuutta\tHankinta-arvo\tTulos\tKokonaismäärä\tSaldo\tVaihtokurssi\tTapahtumateksti\tMitätöintipäivä\tLaskelma\tVahvistusnumero\tVälityspalkkio\tVälityspalkkio Valuutta',
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tTALLETUS\t\t\t\t\t\t\t\t\t1 000\tEUR\t\t\t\t1 000\t\tTALLETUS\t\t\t111\t\t',
      '2\t2024-01-03\t2024-01-03\t2024-01-05\t123\tOSTO\tNokia Oyj\tOsakkeet\tFI0009000681\t10\t50\t0\t1\tEUR\t-501\tEUR\t501\t0\t10\t499\t\t\t\t222\t222\t1\tEUR',
      '3\t2024-02-03\t2024-02-03\t2024-02-05\t123\tMYYNTI\tNokia Oyj\tOsakkeet\tFI0009000681\t4\t60\t0\t1\tEUR\t239\tEUR\t\t38,6\t6\t738\t\t\t\t333\t333\t1\tEUR',
      '4\t2024-03-03\t2024-03-03\t2024-03-03\t123\tOSINKO\tNokia Oyj\tOsakkeet\tFI0009000681\t6\t1\t\t\t\t6\tEUR\t\t\t6\t744\t\tDIV\t\t\t444\t\t',
      '5\t2024-03-03\t2024-03-03\t2024-03-03\t123\tENNAKKOPIDÄTYS\tNokia Oyj\tOsakkeet\tFI0009000681\t6\t\t\t\t\t-1,5\tEUR\t\t\t6\t742,5\t\tDIV\t\t\t444\t\t',
      '6\t2024-04-01\t2024-04-01\t2024-04-01\t123\tLAINAKORKO\t\t\t\t\t\t\t\t\t-2\tEUR\t\t\t\t740,5\t\tLAINAKORKO\t\t\t555\t\t',
      '7\t2024-04-02\t2024-04-02\t2024-04-02\t123\tNOSTO\t\t\t\t\t\t\t\t\t-100\tEUR\t\t\t\t640,5\t\tNOSTO\t\t\t666\t\t',
    ),
    holdings: ['FI0009000681 EUR 6'],
    cash: { EUR: '640.5' },
  },
  ...MORE_FIXTURES,
};
