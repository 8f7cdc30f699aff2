import { METRIC_KEYS } from '@svc/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateMoat, MoatScoringError } from '../src/index.js';
import { fundamentalsArb } from './arbitraries.js';
import { compounderColumns, makeFundamentals } from './fixtures.js';

const valid = () => makeFundamentals({ startYear: 2015, columns: compounderColumns() });

/** The error `evaluateMoat` throws for these arguments (fails the test when it returns). */
function thrown(...args: Parameters<typeof evaluateMoat>): MoatScoringError {
  try {
    evaluateMoat(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(MoatScoringError);
    return error as MoatScoringError;
  }
  throw new Error('evaluateMoat accepted malformed input');
}

type Mangle = (f: Record<string, unknown> & ReturnType<typeof valid>) => unknown;

const CASES: [string, Mangle, string][] = [
  ['years is a string', (f) => ({ ...f, years: 'many' }), 'fundamentals.years'],
  ['years is missing', ({ years: _y, ...f }) => f, 'fundamentals.years'],
  ['company is missing', ({ company: _c, ...f }) => f, 'fundamentals.company'],
  ['fundamentals is null', () => null, 'fundamentals'],
  ['fundamentals is a number', () => 42, 'fundamentals'],
  [
    'a currency of two letters',
    (f) => ({ ...f, company: { ...f.company, currency: 'US' } }),
    'fundamentals.company.currency',
  ],
  [
    'a revenue that is NaN',
    (f) => ({
      ...f,
      years: f.years.map((y, i) =>
        i === 3 && y.revenue ? { ...y, revenue: { ...y.revenue, value: Number.NaN } } : y,
      ),
    }),
    'fundamentals.years.3.revenue.value',
  ],
  [
    'a net income given as a bare number',
    (f) => ({ ...f, years: f.years.map((y, i) => (i === 0 ? { ...y, netIncome: 12 } : y)) }),
    'fundamentals.years.0.netIncome',
  ],
  [
    'a fiscal year that is not an integer',
    (f) => ({ ...f, years: f.years.map((y, i) => (i === 9 ? { ...y, fiscalYear: 2024.5 } : y)) }),
    'fundamentals.years.9.fiscalYear',
  ],
];

describe('evaluateMoat validates its input at the public boundary', () => {
  it.each(CASES)('%s → invalid_argument at %s', (_name, mangle, path) => {
    const error = thrown(mangle(valid()) as ReturnType<typeof valid>);
    expect(error.code).toBe('invalid_argument');
    expect(error.path).toBe(path);
    expect(error.message.startsWith(`${path}: `)).toBe(true);
  });

  it('names a malformed valuation and a bad window by their option', () => {
    const valuation = { peRatio: 'high', forwardPE: null, pegRatio: null } as never;
    expect(thrown(valid(), { valuation })).toMatchObject({
      code: 'invalid_argument',
      path: 'options.valuation.peRatio',
    });
    expect(thrown(valid(), { windowYears: 2.5 })).toMatchObject({
      code: 'invalid_argument',
      path: 'options.windowYears',
    });
  });

  it('names the year and metric of any single corrupted figure', () => {
    fc.assert(
      fc.property(
        fundamentalsArb.filter((f) => f.years.length > 0),
        fc.nat(),
        fc.constantFrom(...METRIC_KEYS),
        fc.constantFrom<unknown>('12', true, [], Number.POSITIVE_INFINITY),
        (f, n, key, bad) => {
          const index = n % f.years.length;
          const years = f.years.map((y, i) => (i === index ? { ...y, [key]: bad } : y));
          const error = thrown({ ...f, years } as typeof f);
          expect(error.code).toBe('invalid_argument');
          expect(error.path).toBe(`fundamentals.years.${index}.${key}`);
        },
      ),
      { numRuns: 100 },
    );
  });
});
