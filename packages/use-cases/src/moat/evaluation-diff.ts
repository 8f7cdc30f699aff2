import type {
  EvaluationRecord,
  EvaluationRecordSummary,
  HistoryFiling,
} from '@svc/portfolio-store';
import type { Criterion } from '@svc/schemas';
import type { ChangeCause, EvaluationChangedData, EvaluationSide } from './evaluation-changes.js';
import type {
  CauseFiling,
  CriterionChange,
  EvaluationDiff,
  EvaluationHistoryItem,
} from './evaluation-history-schemas.js';

/**
 * The one rounding of score and figure differences: to 6 decimals, so that float noise of the
 * same figure (e.g. 0.1 + 0.2 − 0.3) is no difference. Used by the diff, the change rule and the
 * history's `scoreChange`.
 */
export const round = (x: number) => Math.round(x * 1e6) / 1e6;

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

/** The methodology version an evaluation was made with; evaluations made before it was stamped are `"1"`. */
export function methodologyOf(evaluation: object): string {
  const version = (evaluation as { methodologyVersion?: unknown }).methodologyVersion;
  return typeof version === 'string' ? version : '1';
}

/**
 * The second provider an evaluation was reconciled with (`_reconciliation.provider`, whether its
 * figures were `compared` or `unavailable`); `null` when none was configured (absent: made before
 * reconciliation was recorded).
 */
export function reconciledWith(evaluation: object): string | null {
  const stored = (evaluation as { _reconciliation?: unknown })._reconciliation;
  if (typeof stored !== 'object' || stored === null || !('provider' in stored)) return null;
  const { provider } = stored as { provider: unknown };
  return typeof provider === 'string' ? provider : null;
}

/** What {@link evaluationChange} compares: a kept evaluation with its headline fields. */
export interface ComparedEvaluation {
  readonly totalScore: number;
  readonly maxScore: number;
  readonly verdict: string;
  /** ISO-8601 (when it was kept). */
  readonly evaluatedAt: string;
  readonly fiscalYears: readonly number[];
  readonly evaluation: {
    readonly criteria?: readonly Criterion[];
    readonly methodologyVersion?: string;
    readonly _reconciliation?: unknown;
  };
}

const side = (e: ComparedEvaluation): EvaluationSide => ({
  totalScore: e.totalScore,
  maxScore: e.maxScore,
  verdict: e.verdict,
  evaluatedAt: e.evaluatedAt,
  fiscalYears: [...e.fiscalYears],
  methodologyVersion: methodologyOf(e.evaluation),
  reconciledWith: reconciledWith(e.evaluation),
});

/** The criteria whose status or score moved, in the newer one's order (then the ones it lost). */
function moves(previous: readonly Criterion[], current: readonly Criterion[]) {
  const keys = [...new Set([...current, ...previous].map((c) => c.key))];
  const out: EvaluationChangedData['changes'] = [];
  for (const key of keys) {
    const a = previous.find((c) => c.key === key);
    const b = current.find((c) => c.key === key);
    const status = { from: a?.status ?? null, to: b?.status ?? null };
    const score = change(a?.score, b?.score);
    const scoreMoved = score.change === null ? score.from !== score.to : score.change !== 0;
    if (status.from !== status.to || scoreMoved) {
      out.push({
        key,
        name: (b ?? a)?.name ?? key,
        status,
        score: { from: score.from, to: score.to },
      });
    }
  }
  return out;
}

/**
 * The `evaluation.changed` data of a kept evaluation against the symbol's previous one, or null
 * when they do not differ as CONTRACT §7 counts it: the verdict, the total score by at least 1
 * point (after {@link round}), or a criterion's status. `changes` lists every criterion whose
 * status or score moved. `cause` says why (issue 37): `methodology` when the two were made with
 * different methodology versions ({@link methodologyOf}) or reconciled with different second
 * providers ({@link reconciledWith}: `RECONCILE_PROVIDER` set, changed or turned off between
 * them) — the way the server scores changed, not the company — else `filing` when a new annual
 * filing caused the newer one (`filing` is then named), else `data`. Pure.
 *
 * @example
 * evaluationChange('AAPL', previous, current); // null, or { symbol, cause, previous, current, changes }
 */
export function evaluationChange(
  symbol: string,
  previous: ComparedEvaluation,
  current: ComparedEvaluation,
  filing?: CauseFiling,
): EvaluationChangedData | null {
  const changes = moves(previous.evaluation.criteria ?? [], current.evaluation.criteria ?? []);
  const differs =
    previous.verdict !== current.verdict ||
    Math.abs(round(current.totalScore - previous.totalScore)) >= 1 ||
    changes.some((c) => c.status.from !== c.status.to);
  if (!differs) return null;
  const before = side(previous);
  const after = side(current);
  const cause: ChangeCause =
    before.methodologyVersion !== after.methodologyVersion ||
    before.reconciledWith !== after.reconciledWith
      ? 'methodology'
      : filing
        ? 'filing'
        : 'data';
  return {
    symbol,
    cause,
    previous: before,
    current: after,
    changes,
    ...(filing ? { filing } : {}),
  };
}
