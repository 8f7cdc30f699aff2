import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brentRoot } from './brent.js';
import { toEpochDay } from './calendar.js';
import { xirr } from './xirr.js';

const flow = (day: string, amount: number) => ({ day: toEpochDay(day) as number, amount });

describe('xirr', () => {
  it("gives Excel's documented XIRR example: 0.373362535", () => {
    // Microsoft Support, "XIRR function", example: -10,000 on 2008-01-01, 2,750 on 2008-03-01,
    // 4,250 on 2008-10-30, 3,250 on 2009-02-15, 2,750 on 2009-04-01 → 0.373362535 (37.34 %).
    const result = xirr([
      flow('2008-01-01', -10_000),
      flow('2008-03-01', 2_750),
      flow('2008-10-30', 4_250),
      flow('2009-02-15', 3_250),
      flow('2009-04-01', 2_750),
    ]);
    // Excel iterates to 0.000001 %; the root to 1e-12 is 0.37336253352 (9 decimals: 0.373362534)
    expect(result.ok && result.rate).toBeCloseTo(0.373362535, 8);
  });

  it('gives the CFA Institute money-weighted return example: 13.86 %', () => {
    // CFA Institute, Level I curriculum, "Discounted Cash Flow Applications" (money-weighted
    // return example): buy a share at 100, a year later receive a 2 dividend and buy a second
    // share at 120, a year after that receive 4 of dividends and sell both at 130.
    // Flows −100, −118, +264; the IRR solves 100x² + 118x − 264 = 0.
    const result = xirr([
      flow('2021-01-01', -100),
      flow('2022-01-01', -118),
      flow('2023-01-01', 264),
    ]);
    const exact = (-118 + Math.sqrt(118 ** 2 + 4 * 100 * 264)) / 200 - 1;
    expect(result.ok && result.rate).toBeCloseTo(exact, 10);
    expect(result.ok && result.rate).toBeCloseTo(0.1386, 4);
  });

  it('says "no solution" when every flow has the same sign, instead of a number', () => {
    expect(xirr([flow('2020-01-01', -100), flow('2021-01-01', -5)])).toEqual({
      ok: false,
      reason: 'no_solution',
    });
    expect(xirr([flow('2020-01-01', -100)])).toEqual({ ok: false, reason: 'no_solution' });
  });

  it('says "multiple solutions" for flows with two IRRs (10 % and 20 %)', () => {
    // −100 now, +230 in a year, −132 in two: NPV = 0 at r = 0.1 and r = 0.2
    const result = xirr([
      flow('2021-01-01', -100),
      flow('2022-01-01', 230),
      flow('2023-01-01', -132),
    ]);
    expect(result).toEqual({ ok: false, reason: 'multiple_solutions' });
  });

  it('property: a single buy and a single sale give the annualised price return', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e4, noNaN: true }),
        fc.double({ min: 0.05, max: 20, noNaN: true }),
        fc.integer({ min: 1, max: 3650 }),
        (price, growth, days) => {
          const result = xirr([
            { day: 0, amount: -price },
            { day: days, amount: price * growth },
          ]);
          const expected = growth ** (365 / days) - 1;
          if (expected > 1e4 || expected < -0.9999) return; // beyond the scanned grid
          expect(result.ok).toBe(true);
          if (result.ok) expect(result.rate).toBeCloseTo(expected, 6);
        },
      ),
    );
  });
});

describe('brentRoot', () => {
  it('finds √2 inside the bracket and refuses an unbracketed interval', () => {
    const root = brentRoot((x) => x * x - 2, 0, 2);
    expect(root.ok && root.root).toBeCloseTo(Math.SQRT2, 12);
    expect(brentRoot((x) => x * x + 1, -1, 1)).toEqual({ ok: false, reason: 'not_bracketed' });
  });
});
