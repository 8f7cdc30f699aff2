import type { CompanyFactsDocument } from './document.js';

const CURRENCY_PROBES = [
  'us-gaap:NetIncomeLoss',
  'us-gaap:ProfitLoss',
  'us-gaap:Revenues',
  'us-gaap:Assets',
  'us-gaap:StockholdersEquity',
];

/**
 * The reporting currency: the ISO 4217 unit key (`USD`, `EUR`, …) carrying the most facts of a
 * few always-present money concepts. Defaults to `USD` when none is found.
 */
export function detectCurrency(doc: CompanyFactsDocument): string {
  const counts = new Map<string, number>();
  for (const qname of CURRENCY_PROBES) {
    const [taxonomy = '', name = ''] = qname.split(':');
    const entry = doc.facts[taxonomy]?.[name] as { units?: unknown } | undefined;
    const units = entry?.units;
    if (typeof units !== 'object' || units === null) continue;
    for (const [unit, list] of Object.entries(units)) {
      if (/^[A-Z]{3}$/.test(unit) && Array.isArray(list)) {
        counts.set(unit, (counts.get(unit) ?? 0) + list.length);
      }
    }
  }
  let best = 'USD';
  let bestCount = 0;
  for (const [unit, count] of counts) {
    if (count > bestCount) {
      best = unit;
      bestCount = count;
    }
  }
  return best;
}
