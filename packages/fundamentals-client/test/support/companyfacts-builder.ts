/**
 * Builds small hand-made companyfacts documents for tests, in SEC's exact shape
 * (`{ cik, entityName, facts: { taxonomy: { concept: { units: { unit: [fact] } } } } }`).
 */
export interface FactInput {
  start?: string;
  end: string;
  val: number;
  accn?: string;
  form?: string;
  filed?: string;
  fy?: number | null;
  fp?: string | null;
  frame?: string;
  unit?: string;
}

export type FactsByConcept = Record<string, FactInput[]>;

/** A companyfacts document from `{ 'us-gaap:NetIncomeLoss': [facts] }`. */
export function companyFacts(
  facts: FactsByConcept,
  meta: { cik?: number | string; entityName?: string } = {},
): Record<string, unknown> {
  const out: Record<
    string,
    Record<string, { label: string; units: Record<string, unknown[]> }>
  > = {};
  for (const [qname, list] of Object.entries(facts)) {
    const [taxonomy = 'us-gaap', concept = qname] = qname.includes(':')
      ? qname.split(':')
      : ['us-gaap', qname];
    const concepts = out[taxonomy] ?? {};
    out[taxonomy] = concepts;
    const entry = concepts[concept] ?? { label: concept, units: {} };
    concepts[concept] = entry;
    for (const f of list) {
      const unit = f.unit ?? defaultUnit(concept);
      const { unit: _u, ...rest } = f;
      const bucket = entry.units[unit] ?? [];
      entry.units[unit] = bucket;
      bucket.push({
        accn: accnFor(rest.filed ?? '2000-01-01'),
        fy: Number((rest.filed ?? '2000').slice(0, 4)),
        fp: 'FY',
        form: '10-K',
        filed: '2000-01-01',
        ...rest,
      });
    }
  }
  return { cik: meta.cik ?? 1234, entityName: meta.entityName ?? 'Test Corp', facts: out };
}

function defaultUnit(concept: string): string {
  if (concept.startsWith('EarningsPerShare')) return 'USD/shares';
  if (/Shares|SharesOutstanding/.test(concept) && !concept.startsWith('Payments')) return 'shares';
  return 'USD';
}

/** A calendar fiscal year (Jan 1 – Dec 31) duration fact filed in the next year's 10-K. */
export function cy(year: number, val: number, extra: Partial<FactInput> = {}): FactInput {
  const filed = extra.filed ?? `${year + 1}-02-15`;
  return {
    start: `${year}-01-01`,
    end: `${year}-12-31`,
    val,
    filed,
    accn: accnFor(filed),
    ...extra,
  };
}

/** One accession number per filing date (one filing per day in these fixtures). */
function accnFor(filed: string): string {
  return `0000000000-${filed.slice(2, 4)}-00${filed.slice(5, 7)}${filed.slice(8, 10)}`;
}

/** A balance-sheet instant at 31 December, filed in the next year's 10-K. */
export function dec31(year: number, val: number, extra: Partial<FactInput> = {}): FactInput {
  const filed = extra.filed ?? `${year + 1}-02-15`;
  return { end: `${year}-12-31`, val, filed, accn: accnFor(filed), ...extra };
}

/** Net income for each calendar year of `years` (defines the fiscal years). */
export function netIncomeYears(years: readonly number[], val = 100e6): FactInput[] {
  return years.map((y) => cy(y, val));
}
