import type { DataIssue, Provenance } from '@svc/schemas';
import { daysBetween } from './dates.js';
import type { RawFact } from './document.js';
import { type FactHistory, type FactReader, latestOf } from './fact-history.js';
import type { FiscalPeriod } from './fiscal-years.js';
import { DEI_SHARES_OUTSTANDING, type MetricSpec } from './metric-specs.js';
import {
  filedBeforeSplit,
  formatRatio,
  type SplitEvent,
  splitDate,
  splitFactorSince,
} from './stock-splits.js';

/** A value picked for one metric and fiscal year, with its provenance (mutable while parsing). */
export interface Pick {
  value: number;
  readonly source: Provenance;
  /** Filing copies of the same period, oldest first (for restatement checks). */
  readonly history: FactHistory;
  /** Stock splits this value was adjusted for. */
  readonly splits?: readonly SplitEvent[];
}

/** Picks of one metric by fiscal-year label. */
export type Series = Map<number, Pick>;

/**
 * Relative change above which a later filing's value counts as a restatement worth reporting.
 * 1%: below it, differences are rounding (EPS in cents, shares in thousands).
 */
const MATERIAL_RESTATEMENT = 0.01;
/** Cover-page share counts are dated up to ~4 months after the fiscal year end. */
const COVER_DATE_MAX_DAYS = 120;

/**
 * Helper series read only to check or widen the scope of another metric; their restatements are
 * not worth an issue of their own.
 */
const QUIET_HELPERS: ReadonlySet<string> = new Set([
  'discontinuedOperations',
  'costsAndExpenses',
  'financialServicesRevenue',
  'exciseTaxes',
]);

/** Everything the selection needs besides the spec. */
export interface SelectContext {
  readonly reader: FactReader;
  readonly years: readonly FiscalPeriod[];
  readonly splits: readonly SplitEvent[];
  readonly issues: DataIssue[];
}

/**
 * Selects one value per fiscal year for a metric: for each year, the first candidate concept (in
 * priority order) with a fact for that period — tags merged per period, not per company — and,
 * of that concept, the latest-filed copy (restatements included; at a point in time, the
 * first-filed copy among those filed by then, see `FactReader.chosen`). Then puts per-share values and
 * share counts on the latest split basis, makes outflows positive, and reports material
 * restatements.
 */
export function selectSeries(spec: MetricSpec, ctx: SelectContext): Series {
  const series: Series = new Map();
  for (const year of ctx.years) {
    const found = findFact(spec, year, ctx.reader);
    if (!found) continue;
    const pick = toPick(found.concept, found.history, spec, ctx);
    if (pick) series.set(year.label, pick);
  }
  // One-off concepts (`oneOff:…`) are inputs of `unusualItems`, quiet like the helpers.
  if (!QUIET_HELPERS.has(spec.key) && !spec.key.startsWith('oneOff:')) {
    for (const [label, pick] of series) reportRestatement(spec, label, pick, ctx);
  }
  if (spec.choose === 'largest') checkScope(spec, series, ctx);
  return series;
}

/**
 * A value below this fraction of both neighbouring years' values, from a different concept than
 * theirs, measures a narrower scope (F FY2016 `Depreciation` 2,130 M between 7,993 M and 9,241 M
 * of `DepreciationDepletionAndAmortization`: 0.27 and 0.23). Judgement: half is far outside what
 * a total moves in a year.
 */
export const NARROWER_SCOPE_RATIO = 0.5;

/**
 * Drops the value of a year whose concept differs from that of both its nearest neighbours in the
 * series (which share one concept) when it is below {@link NARROWER_SCOPE_RATIO} of both: the
 * filer tagged only a component that year, and mixing it in would change what the series
 * measures. The year becomes missing (never filled) with a `dropped_outlier` issue saying why.
 */
function checkScope(spec: MetricSpec, series: Series, ctx: SelectContext): void {
  const labels = [...series.keys()].sort((a, b) => a - b);
  const drops: number[] = [];
  labels.forEach((label, i) => {
    const before = series.get(labels[i - 1] as number);
    const after = series.get(labels[i + 1] as number);
    const pick = series.get(label) as Pick;
    if (!before || !after || before.source.tag !== after.source.tag) return;
    if (pick.source.tag === before.source.tag) return;
    const limit = NARROWER_SCOPE_RATIO * Math.min(before.value, after.value);
    if (pick.value >= limit) return;
    drops.push(label);
    ctx.issues.push({
      fiscalYear: label,
      metric: spec.key,
      kind: 'dropped_outlier',
      message: `${pick.source.tag} ${pick.value} (${pick.source.accession}) is the only value tagged for FY${label} and measures a narrower scope than the ${before.source.tag} of the years around it (${before.value}, ${after.value}); left empty rather than mixed into the series`,
    });
  });
  for (const label of drops) series.delete(label);
}

function findFact(
  spec: MetricSpec,
  year: FiscalPeriod,
  reader: FactReader,
): { concept: string; history: FactHistory } | undefined {
  if (spec.choose === 'largest') return largestFact(spec, year, reader);
  for (const concept of spec.concepts) {
    const history = reader.histories(concept, spec.unit, spec.period).get(year.end);
    if (history && history.length > 0) return { concept, history };
  }
  if (spec.key === 'sharesOutstanding') return coverPageShares(year, reader);
  return undefined;
}

/**
 * A candidate this much larger than the first tagged one is a wider total rather than a rounding
 * of the same figure (TGT FY2018 tags `Depreciation` 2,500 M, rounded, beside 2,474 M of
 * `DepreciationDepletionAndAmortization`). Judgement.
 */
export const WIDER_SCOPE_MARGIN = 0.1;

/**
 * For a `largest` spec: the first candidate in priority order with a value for the period, unless
 * another candidate's latest-filed value exceeds it by more than {@link WIDER_SCOPE_MARGIN}; then
 * the largest (the total of which the first is a component).
 */
function largestFact(spec: MetricSpec, year: FiscalPeriod, reader: FactReader) {
  let first: { concept: string; history: FactHistory; value: number } | undefined;
  let best: typeof first;
  for (const concept of spec.concepts) {
    const history = reader.histories(concept, spec.unit, spec.period).get(year.end);
    const fact = history ? reader.chosen(history) : undefined;
    if (!history || !fact) continue;
    const candidate = { concept, history, value: Math.abs(fact.val) };
    first ??= candidate;
    if (!best || candidate.value > best.value) best = candidate;
  }
  if (!first || !best) return undefined;
  return best.value > first.value * (1 + WIDER_SCOPE_MARGIN) ? best : first;
}

/** Cover-page shares (`dei:EntityCommonStockSharesOutstanding`) dated shortly after year end. */
function coverPageShares(year: FiscalPeriod, reader: FactReader) {
  let best: FactHistory | undefined;
  let bestEnd = '';
  for (const [end, history] of reader.histories(DEI_SHARES_OUTSTANDING, 'shares', 'instant')) {
    const days = daysBetween(year.end, end);
    if (days < 0 || days > COVER_DATE_MAX_DAYS) continue;
    if (!best || end < bestEnd) {
      best = history;
      bestEnd = end;
    }
  }
  return best ? { concept: DEI_SHARES_OUTSTANDING, history: best } : undefined;
}

function toPick(concept: string, history: FactHistory, spec: MetricSpec, ctx: SelectContext) {
  const fact = ctx.reader.chosen(history);
  if (!fact) return undefined;
  const notes: string[] = [];
  const splits =
    spec.unit === 'money' ? [] : ctx.splits.filter((s) => filedBeforeSplit(s, fact.filed));
  let value = adjustForSplits(fact, spec, splits, notes);
  if (spec.outflow && value < 0) {
    value = Math.abs(value);
    notes.push(`sign normalised: filed as ${fact.val}`);
    ctx.issues.push({
      fiscalYear: labelOf(fact, ctx),
      metric: spec.key,
      kind: 'sign_normalised',
      message: `${concept} filed as ${fact.val} (${fact.accn}); outflows are positive amounts`,
    });
  }
  if (fact.unit === 'pure') notes.push('filed under the unit "pure" instead of currency/shares');
  const source: Provenance = {
    tag: concept,
    form: fact.form,
    accession: fact.accn,
    filed: fact.filed,
    derived: false,
  };
  if (notes.length > 0) source.note = notes.join('; ');
  return { value, source, history, splits };
}

function labelOf(fact: RawFact, ctx: SelectContext): number | null {
  return ctx.years.find((y) => y.end === fact.end)?.label ?? null;
}

/**
 * Share counts × split factor, per-share values ÷ split factor, for the splits after filing.
 * Results are rounded to 12 significant digits to drop binary noise (0.028000000000000004).
 */
function adjustForSplits(
  fact: RawFact,
  spec: MetricSpec,
  splits: readonly SplitEvent[],
  notes: string[],
): number {
  if (splits.length === 0) return fact.val;
  const factor = splits.reduce((f, s) => f * s.ratio, 1);
  const applied = splits.map((s) => `${formatRatio(s.ratio)} (${splitDate(s)})`).join(', ');
  notes.push(
    `split-adjusted ${spec.unit === 'shares' ? '×' : '÷'}${Number(factor.toPrecision(6))} for the split(s) ${applied} after filing; filed as ${fact.val}`,
  );
  const value = spec.unit === 'shares' ? fact.val * factor : fact.val / factor;
  return Number(value.toPrecision(12));
}

/** Value of an older copy on the basis of the latest one (split-adjusted, sign-normalised). */
function comparable(fact: RawFact, spec: MetricSpec, splits: readonly SplitEvent[]): number {
  const factor = spec.unit === 'money' ? 1 : splitFactorSince(splits, fact.filed);
  const value = spec.unit === 'perShare' ? fact.val / factor : fact.val * factor;
  return spec.outflow ? Math.abs(value) : value;
}

function reportRestatement(spec: MetricSpec, label: number, pick: Pick, ctx: SelectContext) {
  if (pick.history.length < 2) return;
  const asOf = ctx.reader.asOf;
  if (asOf !== undefined) {
    // At a point in time the first-filed copy is used; name a restatement filed by then.
    const first = pick.history[0] as RawFact;
    const then = comparable(first, spec, ctx.splits);
    const later = pick.history
      .slice(1)
      .filter((f) => isMaterial(comparable(f, spec, ctx.splits), then, spec));
    const restated = later[later.length - 1];
    if (!restated) return;
    ctx.issues.push({
      fiscalYear: label,
      metric: spec.key,
      kind: 'restated',
      message: `${pick.source.tag} for the period ending ${first.end} restated: ${first.val} (filed ${first.filed}, ${first.accn}) → ${restated.val} (filed ${restated.filed}, ${restated.accn}); as of ${asOf} the first filing is used`,
    });
    return;
  }
  const latest = latestOf(pick.history);
  if (!latest) return;
  const now = comparable(latest, spec, ctx.splits);
  const changed = pick.history
    .slice(0, -1)
    .filter((f) => isMaterial(comparable(f, spec, ctx.splits), now, spec));
  const previous = changed[changed.length - 1];
  if (!previous) return;
  ctx.issues.push({
    fiscalYear: label,
    metric: spec.key,
    kind: 'restated',
    message: `${pick.source.tag} for the period ending ${latest.end} restated: ${previous.val} (filed ${previous.filed}, ${previous.accn}) → ${latest.val} (filed ${latest.filed}, ${latest.accn}); the latest filing is used`,
  });
}

function isMaterial(before: number, after: number, spec: MetricSpec): boolean {
  const diff = Math.abs(after - before);
  const scale = Math.max(Math.abs(after), Math.abs(before));
  if (diff <= MATERIAL_RESTATEMENT * scale) return false;
  // EPS is rounded to cents on each basis; ignore differences within that rounding.
  return spec.unit !== 'perShare' || diff > 0.011;
}
