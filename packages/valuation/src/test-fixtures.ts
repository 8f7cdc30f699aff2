import type { Figure, FiscalYearFigures, Fundamentals } from '@svc/schemas';
import { METRIC_KEYS } from '@svc/schemas';

/** Per-year figures a test cares about; everything else is `null` (not reported). */
export type YearSpec = { fiscalYear: number } & Partial<
  Record<(typeof METRIC_KEYS)[number], number | null>
>;

const figure = (value: number, tag: string): Figure => ({
  value,
  source: { tag: `test:${tag}`, form: '10-K', accession: null, filed: null, derived: false },
});

/** Builds one schema-valid fiscal year from a sparse spec (test helper). */
export function makeYear(spec: YearSpec): FiscalYearFigures {
  const year: Record<string, unknown> = {
    fiscalYear: spec.fiscalYear,
    periodStart: `${spec.fiscalYear}-01-01`,
    periodEnd: `${spec.fiscalYear}-12-31`,
  };
  for (const key of METRIC_KEYS) {
    const value = spec[key];
    year[key] = value === undefined || value === null ? null : figure(value, key);
  }
  return year as FiscalYearFigures;
}

/** Builds schema-valid `Fundamentals` from sparse year specs (test helper). */
export function makeFundamentals(years: YearSpec[], currency = 'USD'): Fundamentals {
  return {
    company: {
      ticker: 'TEST',
      cik: null,
      name: 'Test Corp',
      sicCode: null,
      sicDescription: null,
      sector: null,
      industry: null,
      fiscalYearEnd: '12-31',
      currency,
    },
    years: years.map(makeYear),
    provider: 'test',
    retrievedAt: null,
    issues: [],
  };
}

/** Six fiscal years FY2019…FY2024 with the given diluted EPS (and optional extras on FY2024). */
export function epsHistory(eps: number[], latestExtras: Partial<YearSpec> = {}): YearSpec[] {
  return eps.map((dilutedEps, i) => ({
    fiscalYear: 2019 + i,
    dilutedEps,
    ...(i === eps.length - 1 ? latestExtras : {}),
  }));
}

/** A USD price on 2025-03-03 (test helper). */
export function usd(value: number) {
  return { value, currency: 'USD', asOf: '2025-03-03', source: 'test' } as const;
}
