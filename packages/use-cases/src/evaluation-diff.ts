import type {
  EvaluationRecord,
  EvaluationRecordSummary,
  HistoryFiling,
} from '@svc/portfolio-store';
import type { Criterion } from '@svc/schemas';
import type {
  CriterionChange,
  EvaluationDiff,
  EvaluationHistoryItem,
} from './evaluation-history-schemas.js';

/** Differences below this are float noise of the same figure (e.g. 0.1 + 0.2). */
const round = (x: number) => Math.round(x * 1e6) / 1e6;

function change(from: number | null | undefined, to: number | null | undefined) {
  const a = from ?? null;
  const b = to ?? null;
  return { from: a, to: b, change: a === null || b === null ? null : round(b - a) };
}

/** A history row as the API shows it. */
export function historyItem(record: EvaluationRecordSummary): EvaluationHistoryItem {
  return {
    id: record.id,
    symbol: record.symbol,
    totalScore: record.totalScore,
    maxScore: record.maxScore,
    verdict: record.verdict,
    scoreChange: record.scoreChange,
    provider: record.provider,
    fiscalYears: record.fiscalYears,
    filings: record.filings,
    trigger: record.trigger,
    cause: record.cause ?? null,
    evaluatedAt: record.evaluatedAt,
  };
}

/** The criterion's series by fiscal year (`trend` with `_trendYears`; none without the years). */
function series(criterion: Criterion | undefined): Map<number, number> {
  const trend = criterion?.trend ?? [];
  const points = new Map<number, number>();
  for (const [i, year] of (criterion?._trendYears ?? []).entries()) {
    const value = trend[i];
    if (value !== undefined) points.set(year, value);
  }
  return points;
}

/** Yearly figures that are new, gone or different between two series, oldest year first. */
function figureChanges(from: Criterion | undefined, to: Criterion | undefined) {
  const a = series(from);
  const b = series(to);
  const years = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  return years
    .map((fiscalYear) => ({
      fiscalYear,
      from: a.get(fiscalYear) ?? null,
      to: b.get(fiscalYear) ?? null,
    }))
    .filter((f) => f.from === null || f.to === null || round(f.to - f.from) !== 0);
}

function criterionChange(
  from: Criterion | undefined,
  to: Criterion | undefined,
  sources: { filings: readonly HistoryFiling[]; older: readonly HistoryFiling[] },
): CriterionChange {
  const figures = figureChanges(from, to);
  const years = new Set(figures.map((f) => f.fiscalYear));
  const score = change(from?.score, to?.score);
  return {
    key: (to ?? from)?.key ?? 'unknown',
    name: (to ?? from)?.name ?? 'unknown',
    moved: score.change !== 0 || from?.value !== to?.value || from?.status !== to?.status,
    score,
    numericValue: change(from?.numericValue, to?.numericValue),
    value: { from: from?.value ?? null, to: to?.value ?? null },
    status: { from: from?.status ?? null, to: to?.status ?? null },
    figures,
    filings: sources.filings
      .filter((filing) => filing.fiscalYears.some((year) => years.has(year)))
      .map(({ form, accession, filed }) => ({
        form,
        accession,
        filed,
        new: !sources.older.some((f) => f.accession === accession),
      })),
  };
}

const minus = (a: readonly number[], b: readonly number[]) => a.filter((x) => !b.includes(x));
const filingsMinus = (a: readonly HistoryFiling[], b: readonly HistoryFiling[]) =>
  a.filter((f) => !b.some((g) => g.accession === f.accession));

const signed = (x: number | null) => (x !== null && x > 0 ? `+${x}` : `${x}`);

/** "net_margin +1.25 (FY2025; 10-K 0000320193-25-000079)". */
function movedText(c: CriterionChange): string {
  const years = c.figures.map((f) => `FY${f.fiscalYear}`);
  const filings = c.filings.map((f) => `${f.form} ${f.accession}`);
  const why = [...years, ...filings];
  const moved =
    c.score.to === null
      ? 'no longer scored'
      : c.score.from === null
        ? 'newly scored'
        : signed(c.score.change);
  return `${c.key} ${moved}${why.length > 0 ? ` (${why.join('; ')})` : ''}`;
}

function summarise(diff: Omit<EvaluationDiff, 'summary'>): string {
  const { totalScore, verdict } = diff;
  const total =
    totalScore.change === 0
      ? `Total unchanged at ${totalScore.to}`
      : `Total ${totalScore.from} → ${totalScore.to} (${signed(totalScore.change)})`;
  const label = verdict.changed ? `; verdict ${verdict.from} → ${verdict.to}` : '';
  const moved = diff.criteria.filter((c) => c.moved);
  const criteria =
    moved.length === 0 ? 'No criterion moved.' : `Moved: ${moved.map(movedText).join(', ')}.`;
  const sources = [
    ...diff.newFilings.map((f) => `${f.form} ${f.accession} filed ${f.filed}`),
    ...diff.newFiscalYears.map((y) => `fiscal year ${y}`),
  ];
  const why = sources.length === 0 ? '' : ` New since the older evaluation: ${sources.join(', ')}.`;
  return `${total}${label}. ${criteria}${why}`;
}

/**
 * What moved from one kept evaluation of a symbol to another: the total and the verdict, each
 * criterion's score, display value, headline metric and status, the yearly figures of its series
 * that are new, gone or different (by fiscal year, from `_trendYears`), and the filings behind
 * the newer evaluation that reported one of those years (each marked `new` when it was not behind
 * the older one); plus the filings and fiscal years that came and went, and a one-line summary. Pure.
 *
 * @example
 * const diff = diffEvaluations(previous, latest);
 * diff.moved; // e.g. ['return_on_invested_capital']
 * diff.criteria.find((c) => c.key === 'net_margin')?.filings[0]?.accession; // '0000320193-25-000079'
 */
export function diffEvaluations(from: EvaluationRecord, to: EvaluationRecord): EvaluationDiff {
  const newFilings = filingsMinus(to.filings, from.filings);
  const keys = [
    ...new Set([...from.evaluation.criteria, ...to.evaluation.criteria].map((c) => c.key)),
  ];
  const byKey = (criteria: readonly Criterion[], key: string) =>
    criteria.find((c) => c.key === key);
  const criteria = keys.map((key) =>
    criterionChange(byKey(from.evaluation.criteria, key), byKey(to.evaluation.criteria, key), {
      filings: to.filings,
      older: from.filings,
    }),
  );
  const diff = {
    symbol: to.symbol,
    from: historyItem(from),
    to: historyItem(to),
    totalScore: change(from.totalScore, to.totalScore),
    verdict: { from: from.verdict, to: to.verdict, changed: from.verdict !== to.verdict },
    criteria,
    moved: criteria.filter((c) => c.moved).map((c) => c.key),
    newFilings,
    droppedFilings: filingsMinus(from.filings, to.filings),
    newFiscalYears: minus(to.fiscalYears, from.fiscalYears),
    droppedFiscalYears: minus(from.fiscalYears, to.fiscalYears),
  };
  return { ...diff, summary: summarise(diff) };
}
