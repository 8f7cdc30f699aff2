import { describe, expect, it } from 'vitest';
import { InstrumentSymbol, normaliseTicker, QuoteSymbol, TickerSymbol } from './symbols.js';

describe('TickerSymbol and normaliseTicker', () => {
  it.each([
    [' brk.b ', 'BRK-B'],
    ['BF-B', 'BF-B'],
    ['aapl', 'AAPL'],
    ['0700', '0700'],
    ['ABCDEFGHIJ', 'ABCDEFGHIJ'],
  ])('normalises %j to %j', (raw, normalised) => {
    expect(TickerSymbol.safeParse(raw).success).toBe(true);
    expect(normaliseTicker(raw)).toBe(normalised);
  });

  it.each(['', '   ', '...', '-', 'ABCDEFGHIJK', '../etc', 'BRK/B'])(
    'refuses %j in the schema and in normaliseTicker alike',
    (raw) => {
      expect(TickerSymbol.safeParse(raw).success).toBe(false);
      expect(normaliseTicker(raw)).toBeUndefined();
    },
  );

  it('refuses what is not a string', () => {
    expect(normaliseTicker(42)).toBeUndefined();
    expect(normaliseTicker(null)).toBeUndefined();
  });
});

describe('InstrumentSymbol and QuoteSymbol', () => {
  it('keeps an instrument as given, ISINs and names included', () => {
    expect(InstrumentSymbol.parse(' US0378331005 ')).toBe('US0378331005');
    expect(InstrumentSymbol.parse('Gold bar 100 g')).toBe('Gold bar 100 g');
    expect(InstrumentSymbol.safeParse('x'.repeat(65)).success).toBe(false);
  });

  it('upper-cases a quote symbol and keeps its exchange suffix', () => {
    expect(QuoteSymbol.parse('novn.sw')).toBe('NOVN.SW');
    expect(QuoteSymbol.safeParse('.X').success).toBe(false);
    expect(QuoteSymbol.safeParse('A'.repeat(16)).success).toBe(false);
  });
});
