/** Helpers shared by the criterion unit tests. */
import { CRITERION_MAX_SCORE } from '@svc/schemas';
import { type Assessment, statusFor } from '../src/core/assessment.js';
import { roundScore } from '../src/criterion-result.js';

/** Score, status and display of an assessment as the evaluation would show them. */
export function outcome(assessment: Assessment) {
  if (assessment.kind === 'scored') {
    return {
      kind: assessment.kind,
      score: roundScore(CRITERION_MAX_SCORE * assessment.quality),
      status: statusFor(assessment.quality),
      value: assessment.value,
      numericValue: assessment.numericValue,
      trend: assessment.trend,
    };
  }
  return {
    kind: assessment.kind,
    score: 0,
    status: null,
    value: assessment.reason,
    numericValue: null,
    trend: null,
  };
}
