import { describe, expect, it } from 'vitest';
import { atLine, importSample, quantitiesOf } from './sample.js';

describe('DEGIRO account statement', () => {
  it('rejoins wrapped order ids, reads Dutch trades, FX legs, dividends and their tax', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/degiro-export.csv');
    expect(parsed.format).toBe('degiro');
    // lines 18–19: the order id wraps onto a line of its own
    expect(parsed.rows.find((r) => r.line === 18)?.externalId).toBe(
      '5925d76b-eb36-46e3-b017-a61a6d03c3e7:fx-credit',
    );
    // line 22: "Koop 1 @ 33,9 USD"
    expect(atLine(parsed, 22)).toEqual([
      expect.objectContaining({
        type: 'buy',
        symbol: 'US9256521090',
        price: '33.9',
        currency: 'USD',
      }),
    ]);
    expect(parsed.rows.find((r) => r.line === 22)?.name).toBe('VICI PROPERTIES INC. C');
    // lines 10–11: Dividend 0,44 USD and Dividendbelasting -0,07 USD
    expect([...atLine(parsed, 10), ...atLine(parsed, 11)]).toEqual([
      expect.objectContaining({ type: 'dividend', amount: '0.44', currency: 'USD' }),
      expect.objectContaining({ type: 'fee', amount: '0.07', note: 'withholding tax' }),
    ]);
    // line 42 (Spanish): "Compra 6 ISHARES MSCI WOR A@49,785 EUR"; line 56: 496 GBX = 4.96 GBP
    expect(atLine(parsed, 42)[0]).toMatchObject({ quantity: '6', price: '49.785' });
    expect(atLine(parsed, 56)[0]).toMatchObject({ price: '4.96', currency: 'GBP' });
    // sweeps between DEGIRO and flatex are both the user's: skipped with the reason
    expect(parsed.skipped.find((s) => s.line === 3)?.message).toMatch(/flatex/);
    expect(quantitiesOf(plan)).toMatchObject({ 'IE00B3RBWM25 EUR': '2', 'IE00B4L5Y983 EUR': '7' });
  });
});
