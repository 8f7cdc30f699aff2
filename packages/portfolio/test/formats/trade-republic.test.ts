import { describe, expect, it } from 'vitest';
import { atLine, cashOf, importSample, quantitiesOf } from './sample.js';

describe('Trade Republic (pytr export)', () => {
  it('reads Dutch headers and both number styles in one file', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/traderepublic-export.csv');
    expect(parsed.format).toBe('trade-republic');
    // line 5: Verkoop 10,799 EUR for 0,104341 shares; bought 0,052361 + 0,05198 before
    expect(atLine(parsed, 5)[0]).toMatchObject({ type: 'sell', quantity: '0.104341' });
    // line 10: Buy -690.25 incl. cost 1 for 5 → 137.85 each
    expect(atLine(parsed, 10)[0]).toMatchObject({ price: '137.85', fee: '1' });
    expect(quantitiesOf(plan)).toEqual({ 'LU1829221024 EUR': '0.2989', 'SI0031102120 EUR': '5' });
    // −10.84 + 0.01 − 5 + 10.799 − 5 + 0.03 − 24.999996 + 86.714375 − 690.25 = −638.536621
    expect(cashOf(plan)).toEqual({ EUR: '-638.536621' });
  });
});
