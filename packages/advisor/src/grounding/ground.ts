import type { GroundingReport, UngroundedFigure } from '../frames.js';
import { type Claim, findClaims } from './claims.js';
import type { Fact, FactSet } from './facts.js';

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

function valueMatches(claim: Claim, fact: Fact, scale: number): boolean {
  if (fact.value === null) return false;
  const target = fact.value * scale;
  // The printed figure stands for [v − half, v + half), the fact for its own rounding interval:
  // they must overlap, not merely touch ("17.0%" is not "16.9%").
  const allowance = claim.figure.halfUnit + fact.halfUnit * scale;
  const epsilon = 1e-9 * Math.max(1, target);
  return claim.figure.values.some((v) => {
    const gap = Math.abs(Math.abs(v) - target);
    return fact.halfUnit > 0 ? gap < allowance - epsilon : gap <= allowance + epsilon;
  });
}

function subjectFits(claim: Claim, fact: Fact): boolean {
  return (
    claim.subject === null ||
    fact.subject === claim.subject ||
    fact.subject === '' ||
    fact.subject === 'portfolio'
  );
}

function roleFits(claim: Claim, fact: Fact): boolean {
  return claim.role === 'total' ? true : fact.role !== 'total';
}

function periodFits(claim: Claim, fact: Fact): boolean {
  return claim.period === undefined || fact.period === claim.period;
}

/** The outcome of one claim: grounded, or why not and the closest fact compared to. */
interface Verdict {
  readonly reason?: Reason;
  readonly metric?: string;
  readonly fact?: Fact;
}

function closest(claim: Claim, facts: readonly Fact[]): Fact | undefined {
  const value = Math.abs(claim.figure.values[0] ?? 0);
  const distance = (f: Fact) =>
    f.value === null
      ? Number.POSITIVE_INFINITY
      : Math.abs(f.value * (scaleFor(claim, f) ?? 1) - value);
  return [...facts].sort((a, b) => distance(a) - distance(b))[0];
}

function judgeTyped(claim: Claim, candidates: readonly Fact[], metric: string): Verdict {
  const inPeriod = candidates.filter((f) => periodFits(claim, f) && roleFits(claim, f));
  if (inPeriod.length === 0)
    return { reason: 'no_fact', metric, ...(candidates[0] ? { fact: candidates[0] } : {}) };
  const available = inPeriod.filter((f) => f.value !== null);
  if (available.length === 0) return { reason: 'not_available', metric, fact: inPeriod[0] as Fact };
  const typed = available.filter((f) => scaleFor(claim, f) !== null);
  if (typed.length === 0) return { reason: 'wrong_unit', metric, fact: available[0] as Fact };
  if (typed.some((f) => valueMatches(claim, f, scaleFor(claim, f) ?? 1))) return {};
  if (claim.threshold) return { reason: 'mismatch', metric };
  return {
    reason: 'mismatch',
    metric,
    ...(closest(claim, typed) ? { fact: closest(claim, typed) as Fact } : {}),
  };
}

function judge(claim: Claim, facts: readonly Fact[]): Verdict {
  const own = facts.filter((f) => subjectFits(claim, f));
  if (claim.subject?.startsWith('?')) return { reason: 'no_fact' };
  const matchesAny = (list: readonly Fact[]) =>
    list.some(
      (f) =>
        roleFits(claim, f) &&
        periodFits(claim, f) &&
        scaleFor(claim, f) !== null &&
        valueMatches(claim, f, scaleFor(claim, f) ?? 1),
    );
  if (claim.threshold && matchesAny(own.filter((f) => f.metrics.length === 0))) return {};
  for (const metric of claim.metrics) {
    const candidates = own.filter((f) => f.metrics.includes(metric));
    if (candidates.length > 0) return judgeTyped(claim, candidates, metric);
  }
  // No fact of the metrics named: only a figure of the user's own (or a threshold) may match.
  if (claim.metrics.length > 0) {
    if (matchesAny(own.filter((f) => f.metrics.length === 0))) return {};
    return { reason: 'no_fact', metric: claim.metrics[0] as string };
  }
  return matchesAny(own) ? {} : { reason: 'unsupported' };
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
 * rounding; a fact that is null (N/A) grounds nothing. Without a metric named: by any fact of its
 * subject in a compatible unit. A ticker that is not a subject of the facts grounds nothing.
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
  const claims = findClaims(text, set.subjects);
  const failed = claims
    .map((claim) => ({ claim, verdict: judge(claim, set.facts) }))
    .filter(({ verdict }) => verdict.reason !== undefined)
    .map(({ claim, verdict }) => describe(claim, verdict));
  const offset = options.offset ?? 0;
  const max = options.maxReported ?? MAX_REPORTED_FIGURES;
  const listed = failed.slice(0, max).map((u) => ({ ...u, index: u.index + offset }));
  return {
    total: claims.length,
    grounded: claims.length - failed.length,
    ungrounded: listed,
    ...(failed.length > max ? { omitted: failed.length - max } : {}),
  };
}
