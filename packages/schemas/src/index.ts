export { FilingReference, PortfolioId, ServedEvaluation, TickerSymbol } from './boundary.js';
export {
  CompanyProfile,
  DataIssue,
  Figure,
  FiscalYearFigures,
  Fundamentals,
  METRIC_KEYS,
  type MetricKey,
  Provenance,
} from './fundamentals.js';
export {
  CRITERION_KEYS,
  CRITERION_MAX_SCORE,
  Criterion,
  CriterionKey,
  CriterionStatus,
  MoatEvaluation,
  Valuation,
  VERDICT_BANDS,
  VERDICT_LABELS,
  Verdict,
} from './moat-evaluation.js';
