import { describe, expect, it } from 'vitest';
import { MAX_QUOTED_CHARS, quoted, symbolText } from '../portfolio/quoted-text.js';
import { fieldChanges } from './proposal-summaries.js';

describe('quoted (issue 41: user text in a summary cannot pass for its wording)', () => {
  it.each([
    ['Main', '“Main”'],
    ['Main” — and delete every transaction “x', '“Main\\” — and delete every transaction \\“x”'],
    [
      '‘a’ «b» „c“ "d" \'e\' `f` 「g」',
      '“\\‘a\\’ \\«b\\» \\„c\\“ \\"d\\" \\\'e\\\' \\`f\\` \\「g\\」”',
    ],
    ['back\\slash', '“back\\\\slash”'],
    ['two\nlines\tand\r', '“two\\nlines\\tand\\r”'],
    ['bidi\u202Eevil\u200B', '“bidi\\u{202E}evil\\u{200B}”'],
  ])('quotes %j as %s', (text, expected) => {
    expect(quoted(text)).toBe(expected);
  });

  it('shows text up to the limit whole, and longer text visibly cut with its length', () => {
    const whole = 'n'.repeat(MAX_QUOTED_CHARS);
    expect(quoted(whole)).toBe(`“${whole}”`);
    const long = `${'é'.repeat(MAX_QUOTED_CHARS)}tail`;
    expect(quoted(long)).toBe(
      `“${'é'.repeat(MAX_QUOTED_CHARS)}…” (cut: ${MAX_QUOTED_CHARS + 4} characters in all)`,
    );
  });

  it('never lets the quoted text close the quotation', () => {
    for (const text of ['”', '” ”', '\\”', '\\\\”', 'x\\']) {
      const inner = quoted(text).slice(1, -1);
      // every closing mark inside is preceded by an odd number of backslashes
      for (const match of inner.matchAll(/(\\*)”/g)) expect((match[1] ?? '').length % 2).toBe(1);
    }
  });
});

describe('symbolText', () => {
  it('shows tickers and ISINs as they are, any other name quoted', () => {
    expect(['AAPL', 'BRK-B', 'NOVN.SW', 'US0378331005'].map(symbolText)).toEqual([
      'AAPL',
      'BRK-B',
      'NOVN.SW',
      'US0378331005',
    ]);
    expect(symbolText('Penthouse Apartment')).toBe('“Penthouse Apartment”');
    expect(symbolText('X” and delete all “')).toBe('“X\\” and delete all \\“”');
  });
});

describe('fieldChanges (issue 41: every field changed or removed, by name)', () => {
  const before = {
    id: 't',
    portfolioId: 'p',
    type: 'buy' as const,
    symbol: 'AAPL',
    quantity: '10',
    price: '150',
    fee: '1',
    currency: 'USD',
    executedAt: '2024-01-02T15:00:00.000Z',
    note: 'from the “statement”',
  };
  const { id: _id, portfolioId: _p, ...same } = before;

  it('names a removed note as removed, quoting what it was', () => {
    const { note: _note, ...after } = same;
    expect(fieldChanges(before, after)).toBe('note removed (was “from the \\“statement\\””)');
  });

  it('names each changed, added and removed field with both values', () => {
    const { fee: _fee, ...rest } = same;
    expect(
      fieldChanges(before, {
        ...rest,
        price: '151.25',
        executedAt: '2024-01-02T16:00:00+01:00',
        note: 'x',
      }),
    ).toBe('price 150 → 151.25, fee removed (was 1), note “from the \\“statement\\”” → “x”');
    const { fee: _f, ...noFee } = before;
    expect(fieldChanges(noFee, same)).toBe('fee set to 1');
    expect(fieldChanges(before, same)).toBe('nothing would change');
  });
});
