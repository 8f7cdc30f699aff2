import { type Fundamentals, METRIC_KEYS } from '@svc/schemas';

/** A filing behind the figures of an evaluation: enough to find it on EDGAR. */
export interface FilingReference {
  /** SEC form type, e.g. `10-K`. */
  readonly form: string;
  /** SEC accession number, e.g. `0000320193-25-000079`. */
  readonly accession: string;
  /** Filing date, YYYY-MM-DD. */
  readonly filed: string;
  /** Fiscal years (of the evaluation window) with at least one figure from this filing. */
  readonly fiscalYears: number[];
}

/**
 * The distinct filings that reported the figures of `fiscalYears`, newest filing first. Derived
 * values and vendor data without an accession number are left out.
 */
export function filingsBehind(
  fundamentals: Fundamentals,
  fiscalYears: readonly number[],
): FilingReference[] {
  const wanted = new Set(fiscalYears);
  const byAccession = new Map<string, { form: string; filed: string; years: Set<number> }>();
  for (const year of fundamentals.years) {
    if (!wanted.has(year.fiscalYear)) continue;
    for (const key of METRIC_KEYS) {
      const source = year[key]?.source;
      if (!source?.accession || source.derived) continue;
      const entry = byAccession.get(source.accession) ?? {
        form: source.form ?? 'unknown',
        filed: source.filed ?? '',
        years: new Set<number>(),
      };
      entry.years.add(year.fiscalYear);
      byAccession.set(source.accession, entry);
    }
  }
  return [...byAccession.entries()]
    .map(([accession, e]) => ({
      form: e.form,
      accession,
      filed: e.filed,
      fiscalYears: [...e.years].sort((a, b) => a - b),
    }))
    .sort((a, b) => (a.filed < b.filed ? 1 : a.filed > b.filed ? -1 : 0));
}
