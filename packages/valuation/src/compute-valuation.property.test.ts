import { Valuation } from '@svc/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeValuation, SELL_TRIGGER_PE } from './compute-valuation.js';
import { makeFundamentals, type YearSpec } from './test-fixtures.js';

const amount = fc.option(fc.double({ min: -1e12, max: 1e12, noNaN: true }), { nil: null });
const eps = fc.option(fc.double({ min: -100, max: 100, noNaN: true }), { nil: null });
const outflow = fc.option(fc.double({ min: 0, max: 1e12, noNaN: true }), { nil: null });

const yearSpecs = fc
  .array(
    fc.record({
      dilutedEps: eps,
      netIncome: amount,
      dividendsPaid: outflow,
      shareRepurchases: outflow,
    }),
    {
      maxLength: 9,
    },
  )
  // The latest fiscal year is FY2024 (ends 2024-12-31), 62 days before the price of 2025-03-03, so
  // the 18-month EPS age limit never applies here; it has its own table-driven test.
  .map((rows): YearSpec[] =>
    rows.map((row, i) => ({ fiscalYear: 2024 - rows.length + 1 + i, ...row })),
  );

const price = fc.option(
  fc.record({
    value: fc.double({ min: 0.01, max: 1e6, noNaN: true }),
    currency: fc.constantFrom('USD', 'EUR'),
    asOf: fc.constant('2025-03-03'),
    source: fc.constant('prop'),
  }),
  { nil: null },
);

const inputs = fc.record({
  years: yearSpecs,
  price,
  forwardEps: fc.option(fc.double({ min: -50, max: 50, noNaN: true }), { nil: null }),
});

const RATIO_KEYS = ['peRatio', 'forwardPE', 'pegRatio', 'augmentedPayoutRatio'] as const;

describe('computeValuation properties', () => {
  it('returns finite numbers or null, and parses as the Valuation schema', () => {
    fc.assert(
      fc.property(inputs, ({ years, price, forwardEps }) => {
        const result = computeValuation({
          fundamentals: makeFundamentals(years),
          price,
          forwardEps,
        });
        for (const key of RATIO_KEYS) {
          const value = result[key];
          expect(value === null || Number.isFinite(value)).toBe(true);
        }
        expect(Valuation.safeParse(result).success).toBe(true);
      }),
    );
  });

  it('P/E is null exactly when it is not meaningful, and equals price / EPS otherwise', () => {
    fc.assert(
      fc.property(inputs, ({ years, price, forwardEps }) => {
        const result = computeValuation({
          fundamentals: makeFundamentals(years),
          price,
          forwardEps,
        });
        const latestEps = years.at(-1)?.dilutedEps ?? null;
        const oracle =
          price !== null && price.currency === 'USD' && latestEps !== null && latestEps > 0
            ? price.value / latestEps
            : null;
        if (oracle === null || !Number.isFinite(oracle)) expect(result.peRatio).toBeNull();
        else expect(result.peRatio).toBeCloseTo(oracle, 6);
      }),
    );
  });

  it('the sell trigger is P/E ≥ 40, false without a P/E', () => {
    fc.assert(
      fc.property(inputs, ({ years, price }) => {
        const result = computeValuation({ fundamentals: makeFundamentals(years), price });
        expect(result.sellTrigger).toBe(
          result.peRatio !== null && result.peRatio >= SELL_TRIGGER_PE,
        );
      }),
    );
  });

  it('PEG exists only with a P/E and positive growth, and equals their quotient', () => {
    fc.assert(
      fc.property(inputs, ({ years, price }) => {
        const result = computeValuation({ fundamentals: makeFundamentals(years), price });
        if (result.pegRatio === null) return;
        expect(result.peRatio).not.toBeNull();
        expect(result._epsGrowthPercent).toBeGreaterThan(0);
        expect(result.pegRatio).toBeCloseTo(
          (result.peRatio as number) / (result._epsGrowthPercent as number),
          6,
        );
      }),
    );
  });

  it('augmented payout exists only with positive net income and a reported component, and is ≥ 0', () => {
    fc.assert(
      fc.property(inputs, ({ years }) => {
        const result = computeValuation({ fundamentals: makeFundamentals(years), price: null });
        const latest = years.at(-1);
        const meaningful =
          latest !== undefined &&
          latest.netIncome != null &&
          latest.netIncome > 0 &&
          (latest.dividendsPaid != null || latest.shareRepurchases != null);
        // A finite ratio can still overflow (payouts over a denormal net income): null, not ∞.
        const oracle = meaningful
          ? (((latest.dividendsPaid ?? 0) + (latest.shareRepurchases ?? 0)) /
              (latest.netIncome as number)) *
            100
          : null;
        if (oracle === null || !Number.isFinite(oracle)) {
          expect(result.augmentedPayoutRatio).toBeNull();
        } else {
          expect(result.augmentedPayoutRatio).toBeCloseTo(oracle, 6);
        }
      }),
    );
  });

  it('every null ratio comes with at least one note', () => {
    fc.assert(
      fc.property(inputs, ({ years, price, forwardEps }) => {
        const result = computeValuation({
          fundamentals: makeFundamentals(years),
          price,
          forwardEps,
        });
        if (RATIO_KEYS.some((key) => result[key] === null)) {
          expect(result._notes.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});
