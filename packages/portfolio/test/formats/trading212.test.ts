import { describe, expect, it } from 'vitest';
import { atLine, cashOf, importSample, quantitiesOf } from './sample.js';

describe('Trading 212 history', () => {
  it('books USD trades with their EUR conversion, shifted corporate-action rows, and the split', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/trading212-export.csv');
    expect(parsed.format).toBe('trading212');
    // line 3: CSCO 0.029053 @ 49.96 USD, Total 1.33 EUR: buy in USD, USD in from EUR
    expect(atLine(parsed, 3)).toEqual([
      expect.objectContaining({
        type: 'buy',
        symbol: 'US17275R1023',
        price: '49.96',
        currency: 'USD',
      }),
      expect.objectContaining({ type: 'deposit', amount: '1.45148788', currency: 'USD' }),
      expect.objectContaining({ type: 'withdrawal', amount: '1.33', currency: 'EUR' }),
    ]);
    expect(parsed.rows.find((r) => r.line === 3)).toMatchObject({
      externalId: 'EOF7504196256',
      name: 'Cisco Systems',
      isin: 'US17275R1023',
      ticker: 'CSCO',
    });
    // the dividend rows (no ID) and the shifted corporate-action rows keep ISIN and ticker too
    expect(parsed.rows.find((r) => r.line === 7)).toMatchObject({
      isin: 'US56035L1044',
      ticker: 'MAIN',
    });
    expect(parsed.rows.find((r) => r.line === 11)).toMatchObject({
      isin: 'US9078181081',
      ticker: 'PALAF',
    });
    // line 14: split 29.80478 → 7.451195 shares, ratio 0.25
    expect(atLine(parsed, 14)).toEqual([expect.objectContaining({ type: 'split', ratio: '0.25' })]);
    expect(parsed.skipped.map((s) => s.line)).toEqual([12, 13]);
    // line 6: ASTR sold, never bought here: cash only
    expect(plan.warnings.map((w) => w.line)).toEqual([6]);
    expect(quantitiesOf(plan)).toMatchObject({ 'US9078181081 USD': '11.0563304' });
    // EUR: 31 − 1.33 − 1.20 − 1.47 + 0.70 + dividends 0.03 + 0.03 + 17.67 + interest 0.01 = 45.44
    // USD: each conversion leg equals its trade's gross, so nothing is left in USD
    expect(cashOf(plan)).toEqual({ EUR: '45.44' });
  });
});
