import { describe, expect, it } from 'vitest';
import { atLine, cashOf, importSample, quantitiesOf } from './sample.js';

describe('Saxo Bank transactions', () => {
  it('reads trades from the event text and decimal-comma amounts', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/saxo-export.csv');
    expect(parsed.format).toBe('saxo');
    // line 10: NVDA:xnas, "Buy 3 @ 134.85 USD", "-405,55" → 404.55 + commission 1
    expect(atLine(parsed, 10)).toEqual([
      expect.objectContaining({
        type: 'buy',
        symbol: 'NVDA',
        quantity: '3',
        price: '134.85',
        fee: '1',
      }),
    ]);
    // line 30: Dutch "Transactie", "16-jan-2025", "Koop 1.5 @ 110.01 EUR"
    expect(atLine(parsed, 30)).toEqual([
      expect.objectContaining({
        type: 'buy',
        symbol: 'VUSA',
        executedAt: '2025-01-16T00:00:00.000Z',
      }),
    ]);
    // VWRA: bought 3+3+17+3 (30-Dec) + 2+2+2 (16-Dec) = 32, sold 3 on 02-Jan → 29
    expect(quantitiesOf(plan)).toMatchObject({
      'VWRA USD': '29',
      'NVDA USD': '3',
      'VUSA EUR': '1.5',
    });
    // USD: deposits 6339 − withdrawal 280 − buys 5951.91 + sale 419.22 − custody fees 12.58
    //      = 513.73
    // EUR: dividends 1.83 + 0.46 − VUSA 1.5 × 110.01 = −162.725
    expect(cashOf(plan)).toEqual({ EUR: '-162.725', USD: '513.73' });
  });
});
