import { describe, expect, it } from 'vitest';
import { atLine, cashOf, importSample, quantitiesOf } from './sample.js';

describe('eToro account activity', () => {
  it('reads positions, dividends, fees; CFD rows are skipped', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/etoro-export.csv');
    expect(parsed.format).toBe('etoro');
    // line 13: Open Position AMD/USD 49.88 for 0.337209 units
    expect(atLine(parsed, 13)).toEqual([
      expect.objectContaining({ type: 'buy', symbol: 'AMD', quantity: '0.337209' }),
    ]);
    // line 29: SDRT "(6.97)" → a fee of 6.97
    expect(atLine(parsed, 29)).toEqual([expect.objectContaining({ type: 'fee', amount: '6.97' })]);
    expect(parsed.skipped.map((s) => s.line)).toEqual([6, 23, 24, 25, 26, 27, 28]);
    expect(quantitiesOf(plan)).toEqual({ 'SLAB USD': '0.219575', 'SWKS USD': '0.888488' });
    // interest 0.08 + dividends 1.71 − fees 1.36 + 6.97 − withdrawal 100.11 + closes 18.43 + 0.38
    // + 61.27 − opens 49.88 + 27.37 + 93.62 = −197.44
    expect(cashOf(plan)).toEqual({ USD: '-197.44' });
  });
});
