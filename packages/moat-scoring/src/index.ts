export type { DataQualityFlag } from './core/data-quality.js';
export {
  type IndustryFields,
  isRegulatedUtility,
  REGULATED_UTILITY_SIC_RANGES,
} from './core/industry.js';
export {
  mismatchFlags,
  type ProviderDisagreement,
  RECONCILE_TOLERANCE,
  RECONCILED_SERIES,
  type ReconcileOptions,
  reconcileProviders,
  withSecondaryFigures,
} from './core/reconcile.js';
export { CRITERIA, type CriterionDefinition } from './criteria-catalog.js';
export type { CriterionResult } from './criterion-result.js';
export { MoatScoringError, type MoatScoringErrorCode } from './errors.js';
export {
  DEFAULT_WINDOW_YEARS,
  type EvaluateMoatOptions,
  evaluateMoat,
  type MoatEvaluationResult,
} from './evaluate-moat.js';
export { METHODOLOGY_VERSION } from './methodology.js';
export { verdictFor } from './verdict.js';
