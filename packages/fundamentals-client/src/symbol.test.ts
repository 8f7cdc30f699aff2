import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseSymbol } from './symbol.js';

describe('normaliseSymbol', () => {
  it.each([
    ['aapl', 'AAPL'],
    [' msft ', 'MSFT'],
    ['BF.B', 'BF-B'],
    ['bf-b', 'BF-B'],
    ['BRK.A', 'BRK-A'],
    ['X', 'X'],
    ['ABCDEFGHIJ', 'ABCDEFGHIJ'],
  ])('%j → %s', (input, expected) => {
    expect(normaliseSymbol(input)).toBe(expected);
  });

  it.each(['', '   ', 'ABCDEFGHIJK', 'AA PL', 'AAPL$', '...', '-', 'ÄPFEL'])(
    'rejects %j with invalid_symbol',
    (input) => {
      expect(() => normaliseSymbol(input)).toThrowError(
        expect.objectContaining({ code: 'invalid_symbol' }),
      );
    },
  );

  it('is idempotent and never yields a dot', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9.-]{1,10}$/), (s) => {
        fc.pre(/[A-Za-z0-9]/.test(s));
        const once = normaliseSymbol(s);
        expect(normaliseSymbol(once)).toBe(once);
        expect(once).not.toContain('.');
        expect(once).toBe(once.toUpperCase());
      }),
    );
  });
});
