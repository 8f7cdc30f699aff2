import { describe, expect, it } from 'vitest';
import { atLine, cashOf, importSample, quantitiesOf } from './sample.js';

describe('Interactive Brokers Flex Query trades', () => {
  it('imports the full ~80-column row of ok_vti-buy-on-ibkr.csv with its TransactionID', () => {
    const { parsed } = importSample('ghostfolio/ok_vti-buy-on-ibkr.csv');
    expect(parsed.format).toBe('ibkr-trades');
    // "USD","VTI","20230403;095853",…,"17","204.3473","BUY",…,"IBCommission" -1 USD
    expect(parsed.rows).toEqual([
      expect.objectContaining({
        line: 2,
        externalId: expect.stringMatching(/^\d+$/),
        transaction: {
          type: 'buy',
          symbol: 'VTI',
          quantity: '17',
          price: '204.3473',
          fee: '1',
          currency: 'USD',
          executedAt: '2023-04-03T09:58:53.000Z',
        },
      }),
    ]);
  });

  it('imports ibkr-trades-export.csv with its currency conversions', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/ibkr-trades-export.csv');
    // line 10: "SELL","20230522","","-8000","1.1173","-8938.4","USD","-1.79924","CHF":
    // 8000 CHF sold for 8938.4 USD, commission 1.79924 CHF
    expect(atLine(parsed, 10)).toEqual([
      expect.objectContaining({ type: 'withdrawal', amount: '8000', currency: 'CHF' }),
      expect.objectContaining({ type: 'deposit', amount: '8938.4', currency: 'USD' }),
      expect.objectContaining({ type: 'fee', amount: '1.79924', currency: 'CHF' }),
    ]);
    expect(quantitiesOf(plan)).toEqual({ 'CH0111762537 CHF': '7', 'US9220427424 USD': '323' });
    // USD: −(Σ TradeMoney 31576.55 + commissions 6.979) + 8938.4 + 11085.787 + 11560.074 = 0.732
    // CHF: −(1978.9 + 5) − (8000 + 10012 + 10020) − (1.79924 + 1.79802 + 1.73416) = −30021.23142
    expect(cashOf(plan)).toEqual({ CHF: '-30021.23142', USD: '0.732' });
  });
});

describe('Interactive Brokers Flex Query cash transactions', () => {
  it('imports dividends gross and withholding tax as fees, per currency', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/ibkr-dividends-export.csv');
    expect(parsed.format).toBe('ibkr-cash');
    expect(atLine(parsed, 3)).toEqual([
      expect.objectContaining({ type: 'fee', symbol: 'CH0111762537', amount: '14.68' }),
    ]);
    expect(parsed.rows.find((r) => r.line === 2)?.name).toBe('VT');
    // USD: 137.23 + 85.97 + 169.77 + 0.59 − 20.58 − 12.9 − 25.47 = 334.61
    // CHF: 4.83 + 41.93 − 14.68 = 32.08; JPY: 455 (payment in lieu)
    expect(cashOf(plan)).toEqual({ CHF: '32.08', JPY: '455', USD: '334.61' });
    expect(plan.after.holdings).toEqual([]);
  });
});
