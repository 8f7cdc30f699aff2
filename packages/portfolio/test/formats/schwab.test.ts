import { describe, expect, it } from 'vitest';
import { atLine, importSample, quantitiesOf } from './sample.js';

describe('Charles Schwab history', () => {
  it('reads reinvestments, "as of" dates, quoted actions; swaps of securities are skipped', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/schwab-export.csv');
    expect(parsed.format).toBe('schwab');
    // line 13: "1,259.59" shares at $1.00
    expect(atLine(parsed, 13)[0]).toMatchObject({ type: 'buy', quantity: '1259.59', price: '1' });
    // line 108: "07/15/2024 as of 07/12/2024", Stock Split AVGO +9 shares at zero cost
    expect(atLine(parsed, 108)).toEqual([
      expect.objectContaining({ type: 'buy', symbol: 'AVGO', quantity: '9', price: '0' }),
    ]);
    expect(atLine(parsed, 108)[0]?.executedAt).toBe('2024-07-15T00:00:00.000Z');
    expect(parsed.skipped.find((s) => s.line === 121)?.message).toMatch(/total/);
    expect(quantitiesOf(plan)).toMatchObject({ 'AVGO USD': '10' });
  });
});
