import { describe, expect, it } from 'vitest';
import { Instrument, InstrumentAssignment, isValidIsin } from './instruments.js';

describe('isValidIsin', () => {
  it('accepts ISINs whose Luhn check digit is right and refuses others', () => {
    // Apple, Cisco, iShares Global Clean Energy, Nestlé: published ISINs
    for (const isin of ['US0378331005', 'US17275R1023', 'IE00B1XNHC34', 'CH0038863350']) {
      expect(isValidIsin(isin)).toBe(true);
    }
    expect(isValidIsin('US0378331006')).toBe(false);
    expect(isValidIsin('US17275R1024')).toBe(false);
    expect(isValidIsin('AAPL')).toBe(false);
    expect(isValidIsin('us0378331005')).toBe(false);
  });
});

describe('Instrument', () => {
  it('takes the contract shape and refuses a malformed MIC or CIK', () => {
    const apple = {
      isin: 'US0378331005',
      ticker: 'AAPL',
      mic: 'XNAS',
      currency: 'USD',
      name: 'Apple Inc.',
      kind: 'share',
      cik: '0000320193',
      resolution: 'export',
    };
    expect(Instrument.parse(apple)).toEqual(apple);
    expect(Instrument.safeParse({ ...apple, mic: 'NASDAQ' }).success).toBe(false);
    expect(Instrument.safeParse({ ...apple, cik: '320193' }).success).toBe(false);
    expect(Instrument.safeParse({ ...apple, resolution: 'guess' }).success).toBe(false);
  });

  it('an assignment needs a ticker or an ISIN', () => {
    expect(InstrumentAssignment.safeParse({ kind: 'fund' }).success).toBe(false);
    expect(InstrumentAssignment.parse({ ticker: ' vwrl ', mic: 'xams' })).toEqual({
      ticker: 'VWRL',
      mic: 'XAMS',
    });
  });
});
