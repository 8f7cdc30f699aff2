import {
  type CompanyProfile,
  type DataIssue,
  type FiscalYearFigures,
  type Fundamentals,
  METRIC_KEYS,
} from '@svc/schemas';
import { sicToSector } from '../profile/sic-to-sector.js';
import { normaliseSymbol } from '../symbol.js';
import { detectCurrency } from './currency.js';
import { deriveMissing, type YearPicks } from './derive.js';
import { type CompanyFactsDocument, readCompanyFactsDocument } from './document.js';
import { FactReader } from './fact-history.js';
import { type FiscalPeriod, findFiscalYears } from './fiscal-years.js';
import { METRIC_SPECS } from './metric-specs.js';
import { deriveUnusualItems, dropRepeatedOneOffs, ONE_OFF_SPECS } from './one-offs.js';
import { type Series, selectSeries } from './select-series.js';
import { fixShareScaleErrors } from './share-scale.js';
import { detectStockSplits, type SplitEvent, splitDate } from './stock-splits.js';

/** Options of {@link parseCompanyFacts}. */
export interface ParseCompanyFactsOptions {
  /** Ticker the document was requested for; normalised with `normaliseSymbol`. */
  readonly ticker: string;
  /**
   * Profile fields known from elsewhere (SEC submissions: `sicCode`, `sicDescription`,
   * `fiscalYearEnd`); they override what the document implies. Sector and industry are filled
   * from `sicCode` with `sicToSector` unless given.
   */
  readonly profile?: Partial<CompanyProfile>;
  /** Provider name recorded in the result. Default `sec-edgar`. */
  readonly provider?: string;
  /** When the document was retrieved (ISO 8601). Default `null`. */
  readonly retrievedAt?: string | null;
  /** Keep only the latest N fiscal years. Default: all years found. */
  readonly maxYears?: number;
  /**
   * Point in time, `YYYY-MM-DD`: read the document as it stood at the end of that day — only
   * facts filed on or before it, for periods ending before it, and of a value filed again later
   * (a restatement, a comparative) the first-filed copy. Recorded as `Fundamentals.asOf`.
   * Default: everything, restatements included (latest-filed copy).
   */
  readonly asOf?: string;
}

/**
 * Parses an SEC XBRL companyfacts document into normalised annual {@link Fundamentals}. Pure: no
 * I/O, no clock.
 *
 * Rules (research notes `shared/research/fundamentals-data.md`): fiscal years are the annual
 * (350–380 day) net-income periods of 10-K/10-K/A/10-KT filings, selected by dates, never by
 * `fy`/`fp`/`frame`, labelled by period end (January–May ends count to the year before);
 * balance-sheet values are instants at those year ends; each metric merges its candidate tags per
 * period; restated periods take the latest-filed value (`restated` issue when it changed by more
 * than 1%) — with `options.asOf`, only what was filed by that date, first-filed value first; EPS is read from every unit (`USD/shares` and `pure`); outflows are made positive
 * (`sign_normalised`); share counts and per-share values are put on the latest split basis
 * (`split_adjusted`); share counts off by ≥50× are rescaled by a power of 1000 or dropped
 * (`rescaled`/`dropped_outlier`); missing metrics are derived where a formula exists
 * (`derived: true`, tag `derived:<formula>`) and otherwise stay `null`; gaps between years are
 * `missing_year` issues; `unusualItems` (one-off items, a charge negative) comes from the
 * impairment, restructuring and disposal concepts of `ONE_OFF_TREE`, a total winning over its
 * components. Amounts are in the reporting currency's whole units (USD, not millions),
 * EPS in currency per share, share counts in shares.
 *
 * @param json - the parsed JSON document (`JSON.parse` of a companyfacts response).
 * @throws {FundamentalsError} `parse_failed` when the document is not a companyfacts document;
 *   `invalid_symbol` when `options.ticker` is malformed.
 * @example
 * ```ts
 * const json = JSON.parse(await readFile('CIK0000320193.json', 'utf8'));
 * const f = parseCompanyFacts(json, { ticker: 'AAPL' });
 * f.years.at(-1)?.revenue?.value; // 416161000000 (FY2025)
 * ```
 */
export function parseCompanyFacts(json: unknown, options: ParseCompanyFactsOptions): Fundamentals {
  const ticker = normaliseSymbol(options.ticker);
  const doc = readCompanyFactsDocument(json);
  const currency = detectCurrency(doc);
  const reader = new FactReader(doc, currency, options.asOf);
  const issues: DataIssue[] = [];
  const allYears = findFiscalYears(reader, issues);
  const splits = detectStockSplits(reader);
  const ctx = { reader, years: allYears, splits, issues };
  const series = new Map<string, Series>();
  for (const spec of [...METRIC_SPECS, ...ONE_OFF_SPECS]) {
    series.set(spec.key, selectSeries(spec, ctx));
  }
  for (const key of ['dilutedShares', 'sharesOutstanding']) {
    const s = series.get(key);
    if (s) fixShareScaleErrors(key, s, issues);
  }
  dropRepeatedOneOffs(series, issues);
  reportSplits(splits, allYears, series, issues);
  if (reader.malformedFacts > 0) {
    issues.push({
      fiscalYear: null,
      metric: null,
      kind: 'other',
      message: `${reader.malformedFacts} malformed facts skipped (missing or mistyped end/val/accn/form/filed)`,
    });
  }
  const kept = options.maxYears ? allYears.slice(-options.maxYears) : allYears;
  const financeArm = hasFinanceArm(series);
  return {
    company: buildProfile(doc, ticker, currency, allYears, options.profile),
    years: kept.map((year) => buildYear(year, series, financeArm, issues)),
    provider: options.provider ?? 'sec-edgar',
    retrievedAt: options.retrievedAt ?? null,
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
    issues,
  };
}

/**
 * Financial-services revenue at or above this share of total revenue in some year marks a captive
 * finance arm (Ford Credit: 6–10% of F's revenue; GM Financial: 4–9% of GM's, 6% in FY2016).
 * Judgement: below it, a cost-of-sales line that leaves the financing business out barely moves
 * the margin.
 */
export const FINANCE_ARM_SHARE = 0.05;

/** Whether the company's revenue includes a captive finance arm ({@link FINANCE_ARM_SHARE}). */
function hasFinanceArm(series: ReadonlyMap<string, Series>): boolean {
  const revenue = series.get('revenue');
  for (const [label, pick] of series.get('financialServicesRevenue') ?? []) {
    const total = revenue?.get(label)?.value;
    if (total && total > 0 && pick.value >= FINANCE_ARM_SHARE * total) return true;
  }
  return false;
}

/**
 * Cost of revenue on the scope of total revenue for a company with a finance arm: its tagged cost
 * of sales is the manufacturing segment's only (GM FY2018: automotive cost of sales 120,656 M
 * against total revenue 147,049 M including 14,004 M of GM Financial revenue), so total costs and
 * expenses less SG&A is used (GM FY2018: 142,604 − 9,650 = 132,954 M; the rest is GM Financial's
 * interest, operating and other expenses, the cost of its revenue). In every year, so that the
 * series keeps one scope; a year without both lines has no cost of revenue, with an issue.
 */
function financeArmCost(year: FiscalPeriod, picks: YearPicks, issues: DataIssue[]): void {
  const segment = picks.get('costOfRevenue');
  const total = picks.get('costsAndExpenses');
  const sga = picks.get('sellingGeneralAdministrative');
  if (!segment) return;
  picks.delete('costOfRevenue');
  if (!total || !sga) {
    issues.push({
      fiscalYear: year.label,
      metric: 'costOfRevenue',
      kind: 'other',
      message: `${segment.source.tag} ${segment.value} covers the manufacturing segment only while revenue includes the finance arm, and total costs and expenses or SG&A is not tagged to widen it; cost of revenue left empty`,
    });
    return;
  }
  const value = total.value - sga.value;
  picks.set('costOfRevenue', {
    value,
    history: [],
    source: {
      tag: 'derived:costsAndExpenses-sellingGeneralAdministrative',
      form: null,
      accession: null,
      filed: null,
      derived: true,
      note: [
        `company-wide cost of revenue: revenue includes the finance arm, and the tagged ${segment.source.tag} covers the manufacturing segment only`,
        `costsAndExpenses = ${total.value} (${total.source.tag}, ${total.source.accession})`,
        `sellingGeneralAdministrative = ${sga.value} (${sga.source.tag}, ${sga.source.accession})`,
        `segmentCostOfRevenue = ${segment.value} (${segment.source.tag}, ${segment.source.accession})`,
      ].join('; '),
    },
  });
}

function buildYear(
  year: FiscalPeriod,
  series: ReadonlyMap<string, Series>,
  financeArm: boolean,
  issues: DataIssue[],
): FiscalYearFigures {
  const picks: YearPicks = new Map();
  for (const [key, s] of series) {
    const pick = s.get(year.label);
    if (pick) picks.set(key, pick);
  }
  if (financeArm) financeArmCost(year, picks, issues);
  deriveMissing(picks);
  const unusual = deriveUnusualItems(picks);
  if (unusual) picks.set('unusualItems', unusual);
  const record: Record<string, unknown> = {
    fiscalYear: year.label,
    periodStart: year.start,
    periodEnd: year.end,
  };
  for (const key of METRIC_KEYS) {
    const pick = picks.get(key);
    record[key] = pick ? { value: pick.value, source: pick.source } : null;
  }
  return record as FiscalYearFigures;
}

function reportSplits(
  splits: readonly SplitEvent[],
  years: readonly FiscalPeriod[],
  series: ReadonlyMap<string, Series>,
  issues: DataIssue[],
): void {
  for (const split of splits) {
    const adjusted = new Set<number>();
    for (const key of ['dilutedEps', 'dilutedShares', 'sharesOutstanding']) {
      for (const [label, pick] of series.get(key) ?? []) {
        if (pick.splits?.includes(split)) adjusted.add(label);
      }
    }
    if (adjusted.size === 0) continue;
    const labels = [...adjusted].sort((a, b) => a - b);
    const date = splitDate(split);
    issues.push({
      fiscalYear: years.find((y) => y.end >= date)?.label ?? null,
      metric: null,
      kind: 'split_adjusted',
      message: `${split.evidence}. Diluted EPS and share counts of FY${labels[0]}–FY${labels[labels.length - 1]} filed before it were put on the latest basis (EPS ÷${split.ratio}, shares ×${split.ratio})`,
    });
  }
}

function buildProfile(
  doc: CompanyFactsDocument,
  ticker: string,
  currency: string,
  years: readonly FiscalPeriod[],
  given: Partial<CompanyProfile> | undefined,
): CompanyProfile {
  const lastEnd = years[years.length - 1]?.end;
  const sicCode = given?.sicCode ?? null;
  const sic = sicCode ? sicToSector(sicCode, given?.sicDescription) : null;
  return {
    ticker,
    cik: String(doc.cik).padStart(10, '0'),
    name: doc.entityName,
    sicCode,
    sicDescription: given?.sicDescription ?? null,
    sector: given?.sector ?? sic?.sector ?? null,
    industry: given?.industry ?? sic?.industry ?? null,
    fiscalYearEnd: given?.fiscalYearEnd ?? (lastEnd ? lastEnd.slice(5) : null),
    currency: given?.currency ?? currency,
    ...(given?.name ? { name: given.name } : {}),
    ...(given?.cik ? { cik: given.cik } : {}),
  };
}
