/** fast-check arbitraries of schema-valid `Fundamentals` with hostile numbers. */
import type { FiscalYearFigures, Fundamentals, MetricKey } from '@svc/schemas';
import { METRIC_KEYS } from '@svc/schemas';
import fc from 'fast-check';
import { figure } from './fixtures.js';

/** Finite numbers: realistic amounts, ratios, zeros, and extremes (huge, tiny, ±MAX_VALUE). */
export const amountArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: -1e4, max: 1e5, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: -1e12, max: 1e12, noNaN: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      0,
      -0,
      1,
      -1,
      1e-300,
      -1e-300,
      Number.MIN_VALUE,
      1e300,
      -1e300,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
    ),
  },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

const metricArb = fc.option(
  amountArb.map((v) => figure(v)),
  { nil: null, freq: 4 },
);

/**
 * `incomeFromContinuingOperations` is optional in the schema (records written before it existed
 * lack the key): the arbitraries leave it out, set it to null, or fill it.
 */
const OPTIONAL_KEYS: readonly MetricKey[] = [
  'incomeFromContinuingOperations',
  'acquisitions',
  'shareBasedCompensation',
  'amortizationOfIntangibles',
  'unusualItems',
];
const REQUIRED_KEYS = METRIC_KEYS.filter((k) => !OPTIONAL_KEYS.includes(k));

function yearArb(fiscalYear: number): fc.Arbitrary<FiscalYearFigures> {
  const metrics = Object.fromEntries(METRIC_KEYS.map((k) => [k, metricArb])) as Record<
    MetricKey,
    typeof metricArb
  >;
  return fc.record(metrics, { requiredKeys: REQUIRED_KEYS }).map(
    (values) =>
      ({
        fiscalYear,
        periodStart: `${fiscalYear}-01-01`,
        periodEnd: `${fiscalYear}-12-31`,
        ...values,
      }) as FiscalYearFigures,
  );
}

/** Valid `Fundamentals` with 0–15 fiscal years (gaps possible), random nulls and hostile values. */
export const fundamentalsArb: fc.Arbitrary<Fundamentals> = fc
  .record({
    fiscalYears: fc.uniqueArray(fc.integer({ min: 2000, max: 2026 }), { maxLength: 15 }),
    sicCode: fc.option(fc.constantFrom('6021', '6331', '2080', '4512', '7372', '6798', 'x'), {
      nil: null,
    }),
  })
  .chain(({ fiscalYears, sicCode }) =>
    fc.tuple(...[...fiscalYears].sort((a, b) => a - b).map(yearArb)).map((years) => ({
      company: {
        ticker: 'PROP',
        cik: null,
        name: 'Property Inc.',
        sicCode,
        sicDescription: null,
        sector: null,
        industry: null,
        fiscalYearEnd: '12-31',
        currency: 'USD',
      },
      years,
      provider: 'test',
      retrievedAt: null,
      issues: [],
    })),
  );

/**
 * Mostly-complete `Fundamentals` (revenue and net income always present, other nulls rare, values
 * realistic) so that the scored paths, not just the error path, are exercised by the properties.
 */
export const denseFundamentalsArb: fc.Arbitrary<Fundamentals> = fc
  .integer({ min: 3, max: 15 })
  .chain((n) =>
    fc.array(
      fc.record(
        Object.fromEntries(
          METRIC_KEYS.map((k) => {
            const value = fc.double({ min: -500, max: 5000, noNaN: true }).map((v) => figure(v));
            const always = k === 'revenue' || k === 'netIncome';
            // Continuing operations: reported in a minority of years, like real filers.
            const freq = OPTIONAL_KEYS.includes(k) ? 2 : 12;
            return [k, always ? value : fc.option(value, { nil: null, freq })];
          }),
        ) as Record<MetricKey, fc.Arbitrary<ReturnType<typeof figure> | null>>,
        { requiredKeys: REQUIRED_KEYS },
      ),
      { minLength: n, maxLength: n },
    ),
  )
  .map((records) => ({
    company: {
      ticker: 'DENSE',
      cik: null,
      name: 'Dense Inc.',
      sicCode: '2080',
      sicDescription: null,
      sector: 'Manufacturing',
      industry: null,
      fiscalYearEnd: '12-31',
      currency: 'USD',
    },
    years: records.map((values, i) => ({
      fiscalYear: 2010 + i,
      periodStart: `${2010 + i}-01-01`,
      periodEnd: `${2010 + i}-12-31`,
      ...values,
    })) as FiscalYearFigures[],
    provider: 'test',
    retrievedAt: null,
    issues: [],
  }));
