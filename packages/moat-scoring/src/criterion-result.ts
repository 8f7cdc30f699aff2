import { CRITERION_MAX_SCORE, type Criterion, type CriterionKey } from '@svc/schemas';
import { type Assessment, statusFor } from './core/assessment.js';
import type { DataQualityFlag } from './core/data-quality.js';
import { CRITERIA, type CriterionDefinition } from './criteria-catalog.js';

/** Rounds to 2 decimals (scores are shown and summed at this precision). */
export function roundScore(points: number): number {
  return Math.round(points * 100) / 100;
}

/**
 * A `Criterion` (interface spec 2.2) with the data-quality flags of the series it rests on
 * (issue 39; `[]` when none).
 */
export type CriterionResult = Criterion & { dataQuality: DataQualityFlag[] };

const DEFINITIONS = new Map<CriterionKey, CriterionDefinition>(CRITERIA.map((c) => [c.key, c]));

/**
 * Maps an internal assessment to the `Criterion` of interface spec 2.2: score = 12.5 × quality
 * rounded to 2 decimals; not applicable → warning, "N/A — why", 0 of 0 points; insufficient data
 * → fail, "Insufficient data — why", 0 of 12.5 points. `dataQuality` is the assessment's flags
 * (an empty list when it has none).
 */
export function toCriterion(
  key: CriterionKey,
  assessment: Assessment,
  dataQuality: readonly DataQualityFlag[] = [],
): CriterionResult {
  const { name, benchmark } = DEFINITIONS.get(key) as CriterionDefinition;
  switch (assessment.kind) {
    case 'not_applicable':
      return {
        key,
        name,
        benchmark,
        status: 'warning',
        value: `N/A — ${assessment.reason}`,
        numericValue: null,
        score: 0,
        maxScore: 0,
        trend: [],
        _trendYears: [],
        dataQuality: [...dataQuality, ...(assessment.dataQuality ?? [])],
      };
    case 'insufficient':
      return {
        key,
        name,
        benchmark,
        status: 'fail',
        value: `Insufficient data — ${assessment.reason}`,
        numericValue: null,
        score: 0,
        maxScore: CRITERION_MAX_SCORE,
        trend: assessment.trend.values,
        _trendYears: assessment.trend.years,
        dataQuality: [...dataQuality, ...(assessment.dataQuality ?? [])],
      };
    case 'scored':
      return {
        key,
        name,
        benchmark,
        status: statusFor(assessment.quality),
        value: assessment.value,
        numericValue: assessment.numericValue,
        score: roundScore(CRITERION_MAX_SCORE * assessment.quality),
        maxScore: CRITERION_MAX_SCORE,
        trend: assessment.trend.values,
        _trendYears: assessment.trend.years,
        dataQuality: [...dataQuality, ...(assessment.dataQuality ?? [])],
      };
  }
}
