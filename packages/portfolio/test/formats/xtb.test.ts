import { describe, expect, it } from 'vitest';
import { atLine, cashOf, importSample, quantitiesOf } from './sample.js';

describe('XTB cash operations', () => {
  it('reads fills from the comment, drops repeated ids, keeps withholding tax apart', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/xtb-export.csv');
    expect(parsed.format).toBe('xtb');
    // line 2: OPEN BUY 34/42.5658 @ 11.7480, -399.43 → 34 units for 399.43 EUR
    const [fill] = atLine(parsed, 2);
    expect(fill).toMatchObject({ type: 'buy', symbol: 'SPYL.DE', quantity: '34', currency: 'EUR' });
    // lines 37–39 repeat the ids of lines 23–25
    expect(plan.duplicates.map((d) => d.line)).toEqual([37, 38, 39]);
    // line 43: "010.09.2024" read as 10 September
    expect(atLine(parsed, 43)[0]).toMatchObject({ executedAt: '2024-09-10T20:49:02.000Z' });
    // SPYL.DE: 34 + 8 + 0.5658 + 85 + 35 + 26 + 26 = 214.5658
    expect(quantitiesOf(plan)).toEqual({
      'CSPX.UK EUR': '0.1799',
      'FLOA.UK EUR': '16.7399',
      'SPYL.DE EUR': '214.5658',
    });
    expect(cashOf(plan)).toEqual({ EUR: '201.94' });
  });

  it('uses the account currency it is given', () => {
    const { plan } = importSample('export-to-ghostfolio/xtb-export.csv', {
      accountCurrency: 'PLN',
    });
    expect(cashOf(plan)).toEqual({ PLN: '201.94' });
  });
});
