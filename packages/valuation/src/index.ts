export {
  type AugmentedPayout,
  augmentedPayout,
  type PayoutComponents,
} from './augmented-payout.js';
export {
  computeValuation,
  MAX_TRAILING_EPS_AGE_DAYS,
  SELL_TRIGGER_PE,
} from './compute-valuation.js';
export { type EpsPoint, epsOfYear } from './eps.js';
export { type EpsGrowth, GROWTH_WINDOW_YEARS, historicalEpsGrowth } from './eps-growth.js';
export { ValuationError, type ValuationErrorCode } from './errors.js';
export { type ValuationInput, ValuationPrice } from './valuation-input.js';
export type { ValuationExplanation, ValuationResult } from './valuation-result.js';
