import {
  CRITERION_MAX_SCORE,
  type Criterion,
  type CriterionKey,
  type MoatEvaluation,
  VERDICT_BANDS,
} from '@svc/schemas';
import {
  type Fact,
  type FactSet,
  type FactUnit,
  signOf,
  subjectNames,
  textFacts,
} from './facts.js';
import type { Metric } from './metrics.js';

const STATUS: Metric[] = ['criteria_passed', 'criteria_warning', 'criteria_failed'];

/** What a criterion's headline value (`numericValue`) and its yearly `trend` are. */
const CRITERION_FACTS: Record<
  CriterionKey,
  {
    metrics: Metric[];
    /** The headline value; `aggregate` says what kind of figure it is (see {@link Fact.aggregate}). */
    value?: { unit: FactUnit; label: string; aggregate?: 'median' | 'change'; max?: number };
    trend: { metrics: Metric[]; unit: FactUnit; currency?: string; halfUnit?: number };
  }
> = {
  earnings_consistency: {
    metrics: ['eps_growth'],
    value: { unit: 'percent', label: 'EPS growth per year', aggregate: 'change' },
    trend: { metrics: ['eps'], unit: 'currency', currency: 'USD' },
  },
  gross_margin: {
    metrics: ['gross_margin'],
    value: { unit: 'percent', label: 'median gross margin', aggregate: 'median' },
    trend: { metrics: ['gross_margin'], unit: 'percent' },
  },
  net_margin: {
    metrics: ['net_margin'],
    value: { unit: 'percent', label: 'median net margin', aggregate: 'median' },
    trend: { metrics: ['net_margin'], unit: 'percent' },
  },
  retained_earnings: {
    metrics: ['retained_earnings', 'buybacks'],
    trend: { metrics: ['retained_earnings'], unit: 'currency', currency: 'USD' },
  },
  return_on_invested_capital: {
    metrics: ['roic'],
    value: { unit: 'percent', label: 'median ROIC', aggregate: 'median' },
    trend: { metrics: ['roic'], unit: 'percent' },
  },
  debt_sustainability: {
    metrics: ['debt'],
    value: { unit: 'years', label: 'debt in years of net income' },
    trend: { metrics: ['debt'], unit: 'years' },
  },
  capex_efficiency: {
    metrics: ['capex'],
    value: { unit: 'percent', label: 'capex in percent of net income' },
    trend: { metrics: ['capex'], unit: 'percent' },
  },
  product_durability: {
    metrics: ['steadiness'],
    value: { unit: 'points', label: 'steadiness score (of 100)', max: 100 },
    trend: { metrics: ['revenue'], unit: 'currency', currency: 'USD' },
  },
};

function criterionFacts(symbol: string, c: Criterion): Fact[] {
  const spec = CRITERION_FACTS[c.key];
  const key = `${symbol}.${c.key}`;
  const facts: Fact[] = [
    {
      key: `${key}.score`,
      metrics: [...spec.metrics, 'score'],
      subject: symbol,
      unit: 'points',
      value: c.maxScore > 0 ? c.score : null,
      halfUnit: 0.005,
      label: `${symbol} ${c.name} score = ${c.maxScore > 0 ? c.score : 'not scored'}`,
    },
    {
      key: `${key}.maxScore`,
      metrics: [...spec.metrics, 'score'],
      subject: symbol,
      unit: 'points',
      value: c.maxScore > 0 ? c.maxScore : CRITERION_MAX_SCORE,
      halfUnit: 0,
      role: 'total',
      label: `${symbol} ${c.name} maximum = ${CRITERION_MAX_SCORE}`,
    },
  ];
  if (spec.value) {
    const value = c.numericValue ?? null;
    facts.push({
      key: `${key}.value`,
      metrics: spec.metrics,
      subject: symbol,
      unit: spec.value.unit,
      value: value === null ? null : Math.abs(value),
      ...signOf(value),
      ...(spec.value.aggregate ? { aggregate: spec.value.aggregate } : {}),
      halfUnit: 0,
      label: `${symbol} ${spec.value.label} = ${value === null ? 'N/A' : Number(value.toFixed(4))}`,
    });
    // The scale of a score ("58.4 of 100"), as the scoring defines it.
    if (spec.value.max !== undefined) {
      facts.push({
        key: `${key}.value.max`,
        metrics: spec.metrics,
        subject: symbol,
        unit: spec.value.unit,
        value: spec.value.max,
        halfUnit: 0,
        role: 'total',
        label: `${symbol} ${spec.value.label} maximum = ${spec.value.max}`,
      });
    }
  }
  (c.trend ?? []).forEach((point, i) => {
    const year = c._trendYears?.[i];
    const { trend } = spec;
    facts.push({
      key: `${key}.trend[${i}]`,
      metrics: trend.metrics,
      subject: symbol,
      unit: trend.unit,
      ...(trend.currency ? { currency: trend.currency } : {}),
      ...(year === undefined ? {} : { period: `FY${year}` }),
      value: Math.abs(point),
      ...signOf(point),
      halfUnit: trend.halfUnit ?? 0,
      label: `${symbol} ${trend.metrics[0]} ${year === undefined ? `#${i}` : `FY${year}`} = ${Number(point.toFixed(4))}`,
    });
  });
  const fallback = spec.metrics;
  facts.push(...textFacts(c.value, { subject: symbol, fallback, key: `${key}.display` }));
  facts.push(
    ...textFacts(c.benchmark ?? '', { subject: symbol, fallback: [], key: `${key}.benchmark` }),
  );
  return facts;
}

function valuationFacts(e: MoatEvaluation): Fact[] {
  const v = e.valuation;
  if (v === undefined) return [];
  const s = e.symbol;
  const ratio = (field: string, metric: Metric, unit: FactUnit, value: number | null): Fact => ({
    key: `${s}.valuation.${field}`,
    metrics: [metric],
    subject: s,
    unit,
    value: value === null ? null : Math.abs(value),
    ...signOf(value),
    halfUnit: 0,
    label: `${s} ${field} = ${value === null ? 'N/A' : Number(value.toFixed(4))}`,
  });
  const notes = (v as { _notes?: unknown })._notes;
  return [
    ratio('peRatio', 'pe', 'multiple', v.peRatio),
    ratio('forwardPE', 'forward_pe', 'multiple', v.forwardPE),
    ratio('pegRatio', 'peg', 'multiple', v.pegRatio),
    ratio('augmentedPayoutRatio', 'payout', 'percent', v.augmentedPayoutRatio),
    {
      ...ratio('sellTriggerPE', 'pe', 'multiple', 40),
      metrics: [],
      label: 'P/E sell trigger = 40',
    },
    ...(Array.isArray(notes) ? notes : [])
      .filter((n): n is string => typeof n === 'string')
      .flatMap((n, i) => textFacts(n, { subject: s, key: `${s}.valuation.notes[${i}]` })),
  ];
}

function summaryFacts(e: MoatEvaluation): Fact[] {
  const s = e.symbol;
  const scored = e.criteria.filter((c) => c.maxScore > 0);
  const count = (status: string) => scored.filter((c) => c.status === status).length;
  const fact = (field: string, metrics: Metric[], unit: FactUnit, value: number | null) =>
    ({
      key: `${s}.${field}`,
      metrics,
      subject: s,
      unit,
      value,
      halfUnit: 0,
      label: `${s} ${field} = ${value}`,
    }) satisfies Fact;
  const percent = e.maxScore > 0 ? (e.totalScore / e.maxScore) * 100 : null;
  return [
    fact('totalScore', ['score'], 'points', e.totalScore),
    { ...fact('maxScore', ['score'], 'points', e.maxScore), role: 'total' },
    fact('scorePercent', ['score'], 'percent', percent),
    fact('passed', ['criteria_passed'], 'count', count('pass')),
    fact('warnings', ['criteria_warning'], 'count', count('warning')),
    fact('failed', ['criteria_failed'], 'count', count('fail')),
    fact('scoredCriteria', ['criteria'], 'count', scored.length),
    fact('criteriaCount', ['criteria'], 'count', e.criteria.length),
    { ...fact('scoredCriteria', [...STATUS, 'criteria'], 'count', scored.length), role: 'total' },
    ...VERDICT_BANDS.filter((b) => b.minPercent > 0).map((b) =>
      fact(`verdictBand${b.minPercent}`, [], 'percent', b.minPercent),
    ),
    fact('pointsPerCriterion', [], 'points', CRITERION_MAX_SCORE),
  ];
}

/**
 * The typed facts of a moat evaluation, subject its symbol: the total score and maximum (points)
 * and the score in percent; the counts of passed, warning and failed criteria and of scored
 * criteria (the denominator of "4 of 7 criteria pass"); per criterion its points, its headline
 * value in its unit (`numericValue`: a null one is an N/A fact), its yearly trend (each point a
 * fact of its fiscal year) and the figures of its display text; the valuation ratios (a null P/E
 * is an N/A fact) and the figures of the valuation notes.
 */
export function evaluationFacts(evaluation: MoatEvaluation): FactSet {
  const symbol = evaluation.symbol;
  return {
    facts: [
      ...summaryFacts(evaluation),
      ...evaluation.criteria.flatMap((c) => criterionFacts(symbol, c)),
      ...valuationFacts(evaluation),
    ],
    subjects: new Map([[symbol, subjectNames(symbol, evaluation.companyName)]]),
  };
}
