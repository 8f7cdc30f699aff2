import type { DataIssue } from '@svc/schemas';
import { addDays, fiscalYearLabel } from './dates.js';
import type { FactReader } from './fact-history.js';
import { FISCAL_YEAR_CONCEPTS } from './metric-specs.js';

/** One fiscal year of a company: its label and the dates of its annual period. */
export interface FiscalPeriod {
  readonly label: number;
  readonly start: string;
  readonly end: string;
}

/**
 * A later quarter reported this many days past an expected fiscal-year end means the annual
 * report for that year should exist: a 10-K is due 60–90 days after year end, before the next
 * quarter's 10-Q (SEC Form 10-K general instructions).
 */
const TRAILING_GAP_GRACE_DAYS = 30;

/**
 * The fiscal years a company reported: the end dates of annual (350–380 day) net-income facts
 * in 10-K/10-KT filings (`NetIncomeLoss`, `ProfitLoss`, `NetIncomeLossAvailableToCommon…`).
 * Labels follow {@link fiscalYearLabel}; if two periods get one label (a changed year end), the
 * later one is kept. Gaps between years, and years missing after the last annual report while
 * later quarters were filed (SPGI FY2024), are appended to `issues` as `missing_year`.
 */
export function findFiscalYears(reader: FactReader, issues: DataIssue[]): FiscalPeriod[] {
  const byEnd = new Map<string, string>();
  for (const concept of FISCAL_YEAR_CONCEPTS) {
    for (const [end, history] of reader.histories(concept, 'money', 'duration')) {
      const start = reader.chosen(history)?.start;
      if (start && !byEnd.has(end)) byEnd.set(end, start);
    }
  }
  const byLabel = new Map<number, FiscalPeriod>();
  for (const end of [...byEnd.keys()].sort()) {
    const label = fiscalYearLabel(end);
    const previous = byLabel.get(label);
    if (previous) {
      issues.push({
        fiscalYear: label,
        metric: null,
        kind: 'other',
        message: `Two annual periods share the label FY${label} (ending ${previous.end} and ${end}); kept the later one`,
      });
    }
    byLabel.set(label, { label, start: byEnd.get(end) ?? end, end });
  }
  const years = [...byLabel.values()].sort((a, b) => a.label - b.label);
  reportGaps(years, issues);
  reportTrailingGap(reader, years, issues);
  return years;
}

function reportGaps(years: readonly FiscalPeriod[], issues: DataIssue[]): void {
  for (let i = 1; i < years.length; i++) {
    const prev = years[i - 1];
    const cur = years[i];
    if (!prev || !cur) continue;
    for (let label = prev.label + 1; label < cur.label; label++) {
      issues.push({
        fiscalYear: label,
        metric: null,
        kind: 'missing_year',
        message: `No annual (350–380 day) figures for FY${label} between the periods ending ${prev.end} and ${cur.end} (missing filing or a transition period)`,
      });
    }
  }
}

function reportTrailingGap(
  reader: FactReader,
  years: readonly FiscalPeriod[],
  issues: DataIssue[],
) {
  const last = years[years.length - 1];
  if (!last) return;
  let latestReported = '';
  for (const concept of FISCAL_YEAR_CONCEPTS) {
    for (const fact of reader.allFacts(concept, 'money')) {
      if (fact.end > latestReported) latestReported = fact.end;
    }
  }
  for (let k = 1; k < 50; k++) {
    const expectedEnd = addDays(last.end, Math.round(365.25 * k));
    if (latestReported <= addDays(expectedEnd, TRAILING_GAP_GRACE_DAYS)) break;
    issues.push({
      fiscalYear: last.label + k,
      metric: null,
      kind: 'missing_year',
      message: `No annual report figures for FY${last.label + k} (expected to end near ${expectedEnd}) although the filer reported a later period ending ${latestReported}`,
    });
  }
}
