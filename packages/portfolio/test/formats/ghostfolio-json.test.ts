import { describe, expect, it } from 'vitest';
import { cashOf, importSample, quantitiesOf } from './sample.js';

describe('Ghostfolio JSON export', () => {
  it('imports ok_novn-buy-and-sell-partially.json, applying the buy before the sell', () => {
    const { parsed, plan } = importSample('ghostfolio/ok_novn-buy-and-sell-partially.json');
    expect(parsed.format).toBe('ghostfolio-json');
    // the SELL (line 7) is listed before the BUY (line 17)
    expect(parsed.rows.map((r) => [r.line, r.transaction.type])).toEqual([
      [7, 'sell'],
      [17, 'buy'],
    ]);
    expect(quantitiesOf(plan)).toEqual({ 'NOVN.SW CHF': '1' });
    // −(2 × 75.8 + 2.95) + (85.73 − 1.3) = −70.12
    expect(cashOf(plan)).toEqual({ CHF: '-70.12' });
  });

  it('imports ok_sample.json with manual assets named by their profile', () => {
    const { parsed } = importSample('ghostfolio/ok_sample.json');
    expect(parsed.rows.map((r) => r.transaction.type)).toEqual(['fee', 'buy', 'dividend', 'buy']);
    expect(parsed.rows[3]?.name).toBe('Penthouse Apartment');
  });
});
