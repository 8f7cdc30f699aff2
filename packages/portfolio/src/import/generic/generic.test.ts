import { describe, expect, it } from 'vitest';
import { meaningOf, sideOf } from './action-words.js';
import { currencyInCell, decimalOf, isIsin, isinIn, readCell } from './cells.js';
import { findTableStart } from './sniff.js';
import { readTradeText } from './trade-text.js';

describe('value tests', () => {
  it('checks ISINs by their check digit', () => {
    expect(isIsin('US0378331005')).toBe(true);
    expect(isIsin('US0378331006')).toBe(false);
    expect(isIsin('NLFLATEXACNT')).toBe(false);
    expect(isinIn('AIR LIQUIDE (FR0000120073)')).toBe('FR0000120073');
    expect(isinIn('ORDER US0378331006 x')).toBeUndefined();
  });

  it('reads the decimal mark of a column from its cells, and cells with currencies', () => {
    expect(decimalOf(['1.234,56', '12'])).toBe(',');
    expect(decimalOf(['1,234', '5,5'])).toBe(',');
    expect(decimalOf(['1,234,567', '2'])).toBe('.');
    expect(decimalOf(['1,234'])).toBeUndefined();
    expect(readCell('-1 658,00 €', ',')).toBe('-1658');
    expect(readCell('1.234,56 EUR', ',')).toBe('1234.56');
    expect(readCell('10 000,00 zł', ',')).toBe('10000');
    expect(readCell('Apple', '.')).toBeUndefined();
    expect(currencyInCell('-$5.00')).toBe('USD');
    expect(currencyInCell('1.234,56 EUR')).toBe('EUR');
    expect(currencyInCell('12,50')).toBeUndefined();
  });

  it('reads a trade written as text, with its side', () => {
    expect(readTradeText('Sell 3 @ 139.74 USD', '.')).toEqual({
      side: 'sell',
      quantity: '3',
      price: '139.74',
      currency: 'USD',
    });
    expect(readTradeText('OPEN BUY 34/42.5658 @ 11.7480', '.')).toEqual({
      side: 'buy',
      quantity: '34',
      price: '11.748',
    });
    expect(readTradeText('CLOSE BUY 1 @ 26.28', '.')?.side).toBe('sell');
    expect(readTradeText('Koop 1 @ 33,9 USD', ',')).toMatchObject({ side: 'buy', price: '33.9' });
    expect(readTradeText('Dividend', '.')).toBeUndefined();
  });
});

describe('action words', () => {
  it.each([
    ['KÖPT', 'buy'],
    ['Sälj', 'sell'],
    ['Utländsk källskatt', 'fee'],
    ['Sprzedaż', 'sell'],
    ['Wypłata', 'withdrawal'],
    ['Dividendbelasting', 'fee'],
    ['Reinvest Dividend', 'dividend'],
    ['Interest on cash', 'interest'],
    ['Stacco cedole', 'interest'],
    ['Compravendita titoli', 'trade'],
    ['Currency conversion', 'cash'],
    ['Stock Split', 'shares'],
    ['Reverse Split', 'unsupported'],
    ['Hævning', 'withdrawal'],
    ['Levantamento', 'withdrawal'],
  ])('%s is %s', (word, meaning) => {
    expect(meaningOf(word)?.meaning).toBe(meaning);
  });

  it('places no meaning on words it does not know', () => {
    expect(meaningOf('Sonderfall')).toBeUndefined();
    expect(sideOf('A')).toBe('buy');
    expect(sideOf('V')).toBe('sell');
    expect(sideOf('X')).toBeUndefined();
  });
});

describe('header row', () => {
  it('is found below a preamble, with its delimiter', () => {
    const text = [
      'Conto: 1234567',
      'Periodo: dal 01/01/2024 al 31/03/2024',
      '',
      'Operazione;Descrizione;Titolo;Quantita;Prezzo',
      '12/01/2024;Compravendita titoli;ENI SPA;100;14,52',
      '13/01/2024;Compravendita titoli;ENI SPA;10;14,60',
    ].join('\n');
    expect(findTableStart(text)).toMatchObject({ delimiter: ';', headerLine: 4 });
  });

  it('is the first line of a plain file', () => {
    const text = 'Date,Ticker,Quantity,Price\n2024-01-02,AAPL,1,150\n2024-01-03,MSFT,2,300';
    expect(findTableStart(text)).toMatchObject({ delimiter: ',', headerLine: 1 });
  });
});
