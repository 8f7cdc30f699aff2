import type { CatalogueFixture } from './fixtures.js';

// Hand-made files in the layouts of catalogue/more-layouts.ts, the DEGIRO transactions report
// (degiro.ts) and Trading 212's named-currency layouts (trading212.ts) (see each definition's
// `source`), and what each holds, worked out by hand. Instruments, quantities and prices are
// invented.

const lines = (...rows: string[]) => rows.join('\n');

const T212_EUR_2022 =
  'Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Total (EUR),Withholding tax,Currency (Withholding tax),Charge amount (EUR),Notes,ID,Currency conversion fee (EUR)';

export const MORE_FIXTURES: Record<string, CatalogueFixture> = {
  'degiro-transactions': {
    // newest first, as DEGIRO writes it; the USD trade's costs are in EUR (booked apart)
    text: lines(
      'Date,Time,Product,ISIN,Reference,Venue,Quantity,Price,,Local value,,Value,,Exchange rate,Transaction and/or third,,Total,,Order ID',
      '05-02-2024,15:31,APPLE INC. - COMMON ST,US0378331005,NDQ,XNAS,2,100.0000,USD,-200.00,USD,-182.00,EUR,1.0990,-0.50,EUR,-182.50,EUR,o-3',
      '03-02-2024,10:00,ISHARES CORE MSCI WORLD,IE00B4L5Y983,EAM,XAMS,-4,60.0000,EUR,240.00,EUR,240.00,EUR,,-1.00,EUR,239.00,EUR,o-2',
      '03-01-2024,10:00,ISHARES CORE MSCI WORLD,IE00B4L5Y983,EAM,XAMS,10,50.0000,EUR,-500.00,EUR,-500.00,EUR,,-1.00,EUR,-501.00,EUR,o-1',
    ),
    holdings: ['IE00B4L5Y983 EUR 6', 'US0378331005 USD 2'],
    // EUR: −(500 + 1) + (240 − 1) − 0.50 (the USD trade's costs); USD: −2 × 100
    cash: { EUR: '-262.5', USD: '-200' },
    // the report lists trades only (their costs on the trade, or a fee apart in another currency)
    types: ['buy', 'sell', 'fee'],
  },
  'degiro-transactions-2024': {
    text: lines(
      'Date,Time,Product,ISIN,Reference exchange,Venue,Quantity,Price,,Local value,,Value EUR,Exchange rate,AutoFX Fee,Transaction and/or third party fees EUR,Total EUR,Order ID,',
      '05-02-2024,15:31,APPLE INC. - COMMON ST,US0378331005,NDQ,XNAS,2,100.0000,USD,-200.00,USD,-182.00,1.0990,-0.46,-0.50,-182.96,o-3,',
      '03-02-2024,10:00,ISHARES CORE MSCI WORLD,IE00B4L5Y983,EAM,XAMS,-4,60.0000,EUR,240.00,EUR,240.00,,0.00,-1.00,239.00,o-2,',
      '03-01-2024,10:00,ISHARES CORE MSCI WORLD,IE00B4L5Y983,EAM,XAMS,10,50.0000,EUR,-500.00,EUR,-500.00,,0.00,-1.00,-501.00,o-1,',
    ),
    holdings: ['IE00B4L5Y983 EUR 6', 'US0378331005 USD 2'],
    // EUR: −501 + 239 − 182.96 (AAPL through AutoFX, fees included); USD: +200 − 200 (none left)
    cash: { EUR: '-444.96' },
    types: ['buy', 'sell', 'deposit', 'withdrawal'],
  },
  'scalable-capital-baader': {
    text: lines(
      'XXX-BUDAT;XXX-BUZEIT;XXX-WPKURS;XXX-WHGAB;XXX-NW;XXX-WPNR;XXX-WPGART;XXX-EXTORDID;XXX-BELEGU',
      '20240103;10000000;50,00;EUR;10;IE00B4L5Y983;Kauf;r-1;',
      '20240203;10000000;60,00;EUR;-4;IE00B4L5Y983;Verkauf;r-2;',
      '20240303;10000000;52,50;EUR;2;IE00B4L5Y983;Kauf;r-3;SP-1',
    ),
    holdings: ['IE00B4L5Y983 EUR 8'],
    // trades only, fees are in the cash account file: −500 + 240 − 105
    cash: { EUR: '-365' },
    types: ['buy', 'sell'],
  },
  'trading212-eur': {
    text: lines(
      T212_EUR_2022,
      'Deposit,2024-01-02 09:00:00,,,,,,,,1000.00,,,,,d-1,',
      'Market buy,2024-01-03 10:00:00,IE00B4L5Y983,EUNL,iShares Core MSCI World,10,50.00,EUR,1.00,500.00,,,,,EOF1,',
      'Limit sell,2024-02-03 10:00:00,IE00B4L5Y983,EUNL,iShares Core MSCI World,4,60.00,EUR,1.00,240.00,,,,,EOF2,',
      'Market buy,2024-02-05 15:31:00,US0378331005,AAPL,Apple Inc.,2,100.00,USD,1.10,182.00,,,,,EOF3,0.18',
      'Dividend (Ordinary),2024-03-03 10:00:00,IE00B4L5Y983,EUNL,iShares Core MSCI World,6,0.85,EUR,1.00,5.00,0.75,EUR,,,,',
      'Interest on cash,2024-03-04 00:00:00,,,,,,,,0.40,,,,,i-1,',
      'Withdrawal,2024-03-05 09:00:00,,,,,,,,-100.00,,,,,w-1,',
    ),
    holdings: ['IE00B4L5Y983 EUR 6', 'US0378331005 USD 2'],
    // EUR: 1000 − 500 + 240 − 182 (AAPL bought through a conversion) + 5 + 0.40 − 100;
    // USD: +200 converted − 200 paid (0: no USD cash)
    cash: { EUR: '463.4' },
    types: ['buy', 'sell', 'dividend', 'deposit', 'withdrawal'],
  },
  'trading212-gbp': {
    text: lines(
      'Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result (GBP),Total (GBP),Withholding tax,Currency (Withholding tax),Stamp duty reserve tax,Currency conversion fee,French transaction tax,Notes,ID,Currency conversion from,Currency conversion to,Currency conversion fee (GBP)',
      'Deposit,2024-01-02 09:00:00,,,,,,,,,1000.00,,,,,,,d-1,,,',
      'Market buy,2024-01-03 10:00:00,GB00B03MLX29,RDSA,Shell plc,10,2500.00,GBX,1.00,,250.00,,,,,,,EOF1,,,',
      'Market sell,2024-02-03 10:00:00,GB00B03MLX29,RDSA,Shell plc,4,2600.00,GBX,1.00,4.00,104.00,,,,,,,EOF2,,,',
      'Dividend (Ordinary),2024-03-03 10:00:00,GB00B03MLX29,RDSA,Shell plc,6,0.20,GBP,,,1.20,,,,,,,,,,',
      'Withdrawal,2024-03-05 09:00:00,,,,,,,,,-50.00,,,,,,,w-1,,,',
    ),
    holdings: ['GB00B03MLX29 GBP 6'],
    // GBX prices as pence: 10 × 25.00 = 250, 4 × 26.00 = 104; 1000 − 250 + 104 + 1.20 − 50
    cash: { GBP: '805.2' },
    types: ['buy', 'sell', 'dividend', 'deposit', 'withdrawal'],
  },
  'trading212-usd': {
    text: lines(
      'Action,Time,ISIN,Ticker,Name,No. of shares,Price / share,Currency (Price / share),Exchange rate,Result (USD),Total (USD),Charge amount (USD),Notes,ID',
      'Deposit,2024-01-02 09:00:00,,,,,,,,,1000.00,,,d-1',
      'Market buy,2024-01-03 10:00:00,US0378331005,AAPL,Apple Inc.,3,100.00,USD,1.00,,300.00,,,EOF1',
      'Market sell,2024-02-03 10:00:00,US0378331005,AAPL,Apple Inc.,1,120.00,USD,1.00,20.00,120.00,,,EOF2',
      'Dividend (Ordinary),2024-03-03 10:00:00,US0378331005,AAPL,Apple Inc.,2,0.25,USD,1.00,,0.50,,,',
      'Withdrawal,2024-03-05 09:00:00,,,,,,,,,-100.00,,,w-1',
    ),
    holdings: ['US0378331005 USD 2'],
    // 1000 − 300 + 120 + 0.50 − 100
    cash: { USD: '720.5' },
    types: ['buy', 'sell', 'dividend', 'deposit', 'withdrawal'],
  },
};
