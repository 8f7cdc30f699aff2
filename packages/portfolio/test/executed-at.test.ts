import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExecutedAt } from '../src/fields.js';

/**
 * Issue 41: the years 1900–2999 hold for the UTC instant that is stored, not only for the text,
 * so that a stored time always reads back as an `ExecutedAt` (edits and the account export's
 * import take it again).
 */
const FIRST = Date.UTC(1900, 0, 1);
const PAST_LAST = Date.UTC(3000, 0, 1);
const two = (n: number) => String(n).padStart(2, '0');

describe('ExecutedAt', () => {
  it('refuses the texts whose instant leaves the years 1900–2999, takes the rest of the edge days', () => {
    for (const text of [
      '2999-12-31T23:59:59-23:59',
      '2999-12-31T00:00:00-00:01',
      '1900-01-01T00:00:00+23:59',
      '1900-01-01T23:59:59+00:01',
      '3000-01-01T00:00:00Z',
      '1899-12-31T23:59:59Z',
      '1900-02-29T00:00:00Z',
    ]) {
      expect(ExecutedAt.safeParse(text).success, text).toBe(false);
    }
    for (const text of [
      '2999-12-31T23:59:59Z',
      '2999-12-31T23:59:59+23:59',
      '2999-12-31T23:59:59-00:00',
      '2999-12-30T23:59:59-23:59',
      '1900-01-01T00:00:00Z',
      '1900-01-01T00:00:00-23:59',
      '1900-01-02T00:00:00+23:59',
      '2000-02-29T12:00:00.5+05:30',
      '2024-03-01T14:30:00+23:59',
    ]) {
      expect(ExecutedAt.safeParse(text).success, text).toBe(true);
    }
  });

  it('every text it takes is an instant in the years 1900–2999', () => {
    const text = fc
      .record({
        year: fc.oneof(fc.integer({ min: 1899, max: 3000 }), fc.constantFrom(1900, 2999)),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
        hour: fc.integer({ min: 0, max: 23 }),
        minute: fc.integer({ min: 0, max: 59 }),
        sign: fc.constantFrom('+', '-'),
        offH: fc.integer({ min: 0, max: 23 }),
        offM: fc.integer({ min: 0, max: 59 }),
      })
      .map(
        (t) =>
          `${t.year}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}:00${t.sign}${two(t.offH)}:${two(t.offM)}`,
      );
    fc.assert(
      fc.property(text, (t) => {
        if (!ExecutedAt.safeParse(t).success) return;
        const instant = Date.parse(t);
        expect(instant).toBeGreaterThanOrEqual(FIRST);
        expect(instant).toBeLessThan(PAST_LAST);
      }),
      { numRuns: 2000 },
    );
  });
});
