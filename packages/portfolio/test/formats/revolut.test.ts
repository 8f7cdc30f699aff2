import { describe, expect, it } from 'vitest';
import { importSample, quantitiesOf } from './sample.js';

describe('Revolut stocks statement', () => {
  it('imports its own sample: rows applied by time, the same symbol in two currencies', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/revolut-invest-export.csv');
    expect(parsed.format).toBe('revolut');
    expect(parsed.skipped.map((s) => s.line)).toEqual([8, 11]);
    // line 5 sells MA, which the file never buys: imported as cash, reported with what was held
    expect(plan.warnings).toEqual([
      {
        line: 5,
        message: expect.stringContaining(
          'sells 0.1998348 MA (USD) on 2023-07-14 but 0 are held then',
        ),
      },
    ]);
    expect(quantitiesOf(plan)).toEqual({
      'MSFT EUR': '0.76672417',
      'O USD': '1.63453043',
      'TSLA EUR': '0.56217674',
      'TSLA USD': '0.16431924',
    });
  });
});
