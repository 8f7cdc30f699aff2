import type { GroundingReport, UngroundedFigure } from '../frames.js';
import { type Claim, ClaimReader } from './claims.js';
import { FactIndex } from './fact-index.js';
import type { Fact, FactSet } from './facts.js';
import { countsNoun } from './text.js';

/** Most ungrounded figures listed in a report (the rest are counted in `omitted`). */
export const MAX_REPORTED_FIGURES = 20;

type Reason = UngroundedFigure['reason'];

/** Whether a figure printed as `claim` can state a fact of `fact.unit`, and the factor to apply. */
function scaleFor(claim: Claim, fact: Fact): number | null {
  const { unit, currency } = claim.figure;
  switch (unit) {
    case 'percent':
    case 'pp':
      return fact.unit === 'percent' ? 1 : fact.unit === 'fraction' ? 100 : null;
    case 'currency':
      return fact.unit === 'currency' && (!fact.currency || fact.currency === currency) ? 1 : null;
    case 'multiple':
      return fact.unit === 'multiple' || fact.unit === 'years' ? 1 : null;
    case 'plain':
      return fact.unit === 'percent' ? null : 1;
  }
}

/** Half the rounding of the claim plus the fact's own, in the claim's unit. */
function allowanceOf(claim: Claim, fact: Fact, scale: number): number {
  return claim.figure.halfUnit + fact.halfUnit * scale;
}

function valueMatches(claim: Claim, fact: Fact, scale: number): boolean {
  if (fact.value === null) return false;
  const target = fact.value * scale;
  // The printed figure stands for [v − half, v + half), the fact for its own rounding interval:
  // they must overlap, not merely touch ("17.0%" is not "16.9%").
  const allowance = allowanceOf(claim, fact, scale);
  const epsilon = 1e-9 * Math.max(1, target);
  return claim.figure.values.some((v) => {
    const gap = Math.abs(Math.abs(v) - target);
    return fact.halfUnit > 0 ? gap < allowance - epsilon : gap <= allowance + epsilon;
  });
}

/** Whether the fact is on the claimed side of a threshold ("above 50 %": the fact is ≥ 50 %). */
function comparisonHolds(claim: Claim, fact: Fact, scale: number): boolean {
  if (fact.value === null) return false;
  const value = (fact.sign ?? 1) * fact.value * scale;
  const threshold = claim.figure.values[0] ?? 0;
  const allowance = allowanceOf(claim, fact, scale);
  return claim.comparison === '>' ? value + allowance >= threshold : value - allowance <= threshold;
}

function subjectFits(claim: Claim, fact: Fact): boolean {
  return (
    claim.subject === null ||
    fact.subject === claim.subject ||
    fact.subject === '' ||
    fact.subject === 'portfolio'
  );
}

/**
 * What the claim says beyond its value, held against the fact: a denominator only by a total;
 * the year it names; a median only by a multi-year figure (never a single year or a change); a
 * change ("declined 9.5%") only by a change of that direction; a negative figure of a change only
 * by a negative change; a count of a thing only by a count of that thing.
 */
function kindFits(claim: Claim, fact: Fact): boolean {
  if (claim.role !== 'total' && fact.role === 'total') return false;
  if (claim.period !== undefined && fact.period !== claim.period) return false;
  if (claim.aggregate === 'median' && (fact.period !== undefined || fact.aggregate === 'change')) {
    return false;
  }
  if (claim.direction !== undefined) {
    if (fact.aggregate !== 'change') return false;
    if (fact.value !== 0 && (fact.sign === -1) !== (claim.direction === 'down')) return false;
  } else if (fact.aggregate === 'change') {
    if ((claim.figure.values[0] ?? 0) < 0 && fact.sign !== -1) return false;
    // A percentage that names no change and no growth metric is a level, not a shift in points.
    const level =
      claim.figure.unit === 'percent' &&
      claim.metrics.length > 0 &&
      claim.rate !== true &&
      !claim.metrics.includes('eps_growth');
    if (level && fact.unit === 'percent') return false;
  }
  if (claim.counted !== undefined && claim.metrics.length === 0) {
    if (fact.noun === undefined || !countsNoun(claim.counted, fact.noun)) return false;
  }
  return true;
}

/** The outcome of one claim: grounded, or why not and the closest fact compared to. */
interface Verdict {
  readonly reason?: Reason;
  readonly metric?: string;
  readonly fact?: Fact;
}

function closest(claim: Claim, facts: readonly Fact[]): Fact | undefined {
  const value = Math.abs(claim.figure.values[0] ?? 0);
  let best: Fact | undefined;
  let distance = Number.POSITIVE_INFINITY;
  for (const f of facts) {
    const d =
      f.value === null
        ? Number.POSITIVE_INFINITY
        : Math.abs(f.value * (scaleFor(claim, f) ?? 1) - value);
    if (best === undefined || d < distance) {
      best = f;
      distance = d;
    }
  }
  return best;
}

/** Whether a fact of `facts` states the claim's value (or a rule's threshold it compares to). */
function statesValue(claim: Claim, facts: readonly Fact[]): boolean {
  return facts.some((f) => {
    if (!subjectFits(claim, f) || !kindFits(claim, f)) return false;
    const scale = scaleFor(claim, f);
    return scale !== null && valueMatches(claim, f, scale);
  });
}

function judgeTyped(
  claim: Claim,
  candidates: readonly Fact[],
  metric: string,
  index: FactIndex,
): Verdict {
  const threshold = () =>
    claim.reference === true && statesValue(claim, index.untyped(claim.subject));
  const fitting = candidates.filter((f) => kindFits(claim, f));
  if (fitting.length === 0) {
    if (claim.comparison && threshold()) return {};
    return { reason: 'no_fact', metric, ...(candidates[0] ? { fact: candidates[0] } : {}) };
  }
  const available = fitting.filter((f) => f.value !== null);
  if (available.length === 0) {
    if (claim.comparison && threshold()) return {};
    return { reason: 'not_available', metric, fact: fitting[0] as Fact };
  }
  const typed = available.filter((f) => scaleFor(claim, f) !== null);
  if (typed.length === 0) return { reason: 'wrong_unit', metric, fact: available[0] as Fact };
  if (claim.comparison) {
    if (typed.some((f) => comparisonHolds(claim, f, scaleFor(claim, f) ?? 1))) return {};
    if (threshold()) return {};
  } else if (typed.some((f) => valueMatches(claim, f, scaleFor(claim, f) ?? 1))) {
    return {};
  }
  const near = closest(claim, typed);
  return { reason: 'mismatch', metric, ...(near ? { fact: near } : {}) };
}

/** Whether a fact (of `metric`; any for `null`) states the claim's value: a search by value. */
function statesValueNear(claim: Claim, metric: string | null, index: FactIndex): boolean {
  const test = (fact: Fact, scale: number) =>
    subjectFits(claim, fact) &&
    kindFits(claim, fact) &&
    scaleFor(claim, fact) === scale &&
    valueMatches(claim, fact, scale);
  return claim.figure.values.some((v) =>
    index.anyNear(metric, Math.abs(v), claim.figure.halfUnit, test),
  );
}

/** Whether a comparison repeats a threshold of a trusted text word for word (it states the rule). */
function repeatsRule(claim: Claim, index: FactIndex): boolean {
  const quote = claim.quote;
  if (quote === undefined) return false;
  return index
    .quoted(claim.subject)
    .some(
      (f) =>
        f.quote !== undefined &&
        quote.endsWith(f.quote) &&
        subjectFits(claim, f) &&
        scaleFor(claim, f) !== null &&
        valueMatches(claim, f, scaleFor(claim, f) ?? 1),
    );
}

/** The verdict on one claim against the indexed facts. */
function judge(read: Claim, index: FactIndex): Verdict {
  if (read.subject?.startsWith('?')) return { reason: 'no_fact' };
  // A claim naming no subject is about the one company of the facts; with several it is about
  // none of them (only anyone's and the portfolio's facts fit): the subject cannot be told.
  const claim: Claim = read.subject === null ? { ...read, subject: index.onlyCompany ?? '' } : read;
  if (claim.comparison && repeatsRule(claim, index)) return {};
  for (const metric of claim.metrics) {
    if (!index.hasFor(metric, claim.subject)) continue;
    if (!claim.comparison && statesValueNear(claim, metric, index)) return {};
    return judgeTyped(claim, index.ofMetric(metric, claim.subject), metric, index);
  }
  // No fact of the metrics named: only a comparison may repeat a threshold (a figure of no
  // metric); another field's value does not state this metric (issue 41).
  if (claim.metrics.length > 0) {
    if (claim.comparison && statesValue(claim, index.untyped(claim.subject))) return {};
    return { reason: 'no_fact', metric: claim.metrics[0] as string };
  }
  return statesValueNear(claim, null, index) ? {} : { reason: 'unsupported' };
}

function describe(claim: Claim, verdict: Verdict): UngroundedFigure {
  const { figure } = claim;
  return {
    text: figure.text.slice(0, 40),
    value: figure.values[0] ?? 0,
    index: figure.index,
    reason: verdict.reason ?? 'unsupported',
    ...(verdict.metric ? { metric: verdict.metric } : {}),
    ...(claim.subject ? { subject: claim.subject.replace(/^\?/, '').slice(0, 16) } : {}),
    ...(verdict.fact
      ? {
          fact: {
            key: verdict.fact.key.slice(0, 120),
            label: verdict.fact.label.slice(0, 160),
            value: verdict.fact.value,
          },
        }
      : {}),
  };
}

/** One index per fact set, kept while the set lives (it follows facts appended later). */
const INDEXES = new WeakMap<FactSet, FactIndex>();

function indexOf(set: FactSet): FactIndex {
  let index = INDEXES.get(set);
  if (!index) {
    index = new FactIndex(set);
    INDEXES.set(set, index);
  }
  return index;
}

/**
 * Grounds a text as it grows, each figure once: {@link Grounder.push} takes a piece and answers
 * the figures it completed that no fact grounds; {@link Grounder.end} the rest;
 * {@link Grounder.report} the counts and the first ungrounded figures. The facts may grow between
 * pieces (a tool result): later figures are judged against them too. The work is linear in the
 * text (each figure reads a bounded neighbourhood and at most {@link MAX_CANDIDATES} facts).
 */
export class Grounder {
  readonly #reader: ClaimReader;
  readonly #index: FactIndex;
  #facts = -1;
  #total = 0;
  readonly #failed: UngroundedFigure[] = [];
  #omitted = 0;
  readonly #comparedBefore: number;

  constructor(
    private readonly set: FactSet,
    private readonly maxReported: number = MAX_REPORTED_FIGURES,
  ) {
    this.#reader = new ClaimReader(set.subjects);
    this.#index = indexOf(set);
    this.#comparedBefore = this.#index.compared;
  }

  /** The text so far. */
  get text(): string {
    return this.#reader.text;
  }

  /**
   * The work done so far: characters read ({@link ClaimReader.work}) plus facts compared. It
   * grows linearly with the text (and the facts a figure may be compared to are bounded).
   */
  get work(): number {
    return this.#reader.work + this.#index.compared - this.#comparedBefore;
  }

  /** Offset before which every figure was judged (see {@link ClaimReader.settled}). */
  get settled(): number {
    return this.#reader.settled;
  }

  /** Adds text; answers the ungrounded figures it completed. */
  push(piece: string): UngroundedFigure[] {
    this.#sync();
    return this.#judge(this.#reader.push(piece));
  }

  /** Ends the text; answers the ungrounded figures left. */
  end(): UngroundedFigure[] {
    this.#sync();
    return this.#judge(this.#reader.end());
  }

  /** Counts and the first ungrounded figures (at most `maxReported`; `omitted` counts the rest). */
  report(): GroundingReport {
    const failed = this.#failed.length + this.#omitted;
    return {
      total: this.#total,
      grounded: this.#total - failed,
      ungrounded: [...this.#failed],
      ...(this.#omitted > 0 ? { omitted: this.#omitted } : {}),
    };
  }

  #sync(): void {
    if (this.set.facts.length === this.#facts) return;
    this.#facts = this.set.facts.length;
    this.#index.sync();
    this.#reader.setSubjects(this.set.subjects);
  }

  #judge(claims: readonly Claim[]): UngroundedFigure[] {
    const out: UngroundedFigure[] = [];
    for (const claim of claims) {
      this.#total += 1;
      const verdict = judge(claim, this.#index);
      if (verdict.reason === undefined) continue;
      const figure = describe(claim, verdict);
      out.push(figure);
      if (this.#failed.length < this.maxReported) this.#failed.push(figure);
      else this.#omitted += 1;
    }
    return out;
  }
}

/** Options of {@link groundText}. */
export interface GroundOptions {
  /** Added to every reported index (the text's offset in the whole answer). */
  readonly offset?: number;
  /** Most figures listed; default {@link MAX_REPORTED_FIGURES}. */
  readonly maxReported?: number;
}

/**
 * Checks every figure of a generated text against typed facts (see the package README, "How a
 * figure becomes grounded"). A figure is a claim about the metric named nearest to it in its
 * clause (or its table column), of the subject mentioned last before it, for the fiscal year its
 * clause names. With a metric named: it is grounded only by a fact of that metric and subject,
 * in a unit it can be printed in (percent vs fraction ×100 vs currency of the same code vs points,
 * counts, ×), whose value it states within half a unit of its own last digit plus the fact's own
 * rounding; a fact that is null (N/A) grounds nothing. What the words say is held against the
 * fact too: a median is not a single year, a change ("declined 9.5%") needs a change of that
 * direction, a comparison ("above 50 %") must hold for the fact, a count of a thing ("10
 * brands") needs a count of that thing. Without a metric named: by any fact of its subject in a
 * compatible unit. A company that is not a subject of the facts grounds nothing. Linear in the
 * text (see {@link Grounder}).
 *
 * @returns Counts and the ungrounded figures (at most `maxReported`, the rest in `omitted`),
 *   each with why (`mismatch`, `not_available`, `wrong_unit`, `no_fact`, `unsupported`) and the
 *   fact it was compared to.
 * @example
 * groundText('ROIC of 99%', evaluationFacts(mcd)).ungrounded[0];
 * // { text: '99%', value: 99, index: 8, reason: 'mismatch', metric: 'roic', fact: { key: 'MCD.return_on_invested_capital.value', label: 'MCD median ROIC = 26.5004', value: 26.5004… } }
 */
export function groundText(
  text: string,
  set: FactSet,
  options: GroundOptions = {},
): GroundingReport {
  const grounder = new Grounder(set, options.maxReported ?? MAX_REPORTED_FIGURES);
  grounder.push(text);
  grounder.end();
  const report = grounder.report();
  const offset = options.offset ?? 0;
  return {
    ...report,
    ungrounded: report.ungrounded.map((u) => ({ ...u, index: u.index + offset })),
  };
}
