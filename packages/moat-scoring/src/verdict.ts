import { VERDICT_BANDS, type Verdict } from '@svc/schemas';
import { MoatScoringError } from './errors.js';

/** Tolerance for floating-point error at a band edge (61.25 / 87.5 must reach 70%). */
const EPSILON = 1e-9;

/**
 * The verdict label for a score (interface spec 2.4): the label of the highest `VERDICT_BANDS`
 * minimum that `totalScore / maxScore × 100` reaches (70 / 50 / 35 / 0). A `maxScore` of 0 (no
 * criterion applies) gives the lowest label.
 *
 * @param totalScore - points earned, 0 to `maxScore`.
 * @param maxScore - points available (100 when all 8 criteria apply).
 * @throws {@link MoatScoringError} `invalid_argument` when either is negative or not finite.
 * @example
 * ```ts
 * verdictFor(72.5, 100); // 'Strong Durable Competitive Advantage'
 * verdictFor(35, 87.5);  // 40% → 'Narrow Moat — Proceed with Caution'
 * ```
 */
export function verdictFor(totalScore: number, maxScore: number): Verdict {
  if (
    !Number.isFinite(totalScore) ||
    !Number.isFinite(maxScore) ||
    totalScore < 0 ||
    maxScore < 0
  ) {
    throw new MoatScoringError(
      'invalid_argument',
      `verdictFor needs finite, non-negative scores (got ${totalScore} of ${maxScore})`,
    );
  }
  const percent = maxScore === 0 ? 0 : (totalScore / maxScore) * 100;
  for (const band of VERDICT_BANDS) {
    if (percent + EPSILON >= band.minPercent) return band.label;
  }
  return 'No Clear Moat Detected';
}
