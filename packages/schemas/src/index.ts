export {
  EmailAddress,
  PLAN_NAMES,
  Plan,
  QUOTA_NAMES,
  QuotaName,
  QuotaUsage,
  Tag,
  Tags,
} from './account.js';
export { AsOfDate } from './as-of.js';
export { FilingReference, NOT_BLANK, PortfolioId, ServedEvaluation } from './boundary.js';
export { DataQualityFlag, DataQualityFlags } from './data-quality.js';
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
  INSTRUMENT_KINDS,
  INSTRUMENT_RESOLUTIONS,
  Instrument,
  InstrumentAssignment,
  InstrumentAssignmentResult,
  InstrumentKind,
  InstrumentResolution,
  ISIN_PATTERN,
  Isin,
  isValidIsin,
} from './instruments.js';
export {
  CRITERION_KEYS,
  CRITERION_MAX_SCORE,
  Criterion,
  CriterionKey,
  CriterionStatus,
  MAX_TOTAL_SCORE,
  MoatEvaluation,
  Valuation,
  VERDICT_BANDS,
  VERDICT_LABELS,
  Verdict,
} from './moat-evaluation.js';
export { numberFromText } from './numbers.js';
export {
  PortfolioXray,
  XRAY_REASONS,
  XrayConcentration,
  XrayHolding,
  XrayInstrument,
  XrayReason,
} from './portfolio-xray.js';
export {
  codeForStatus,
  FieldError,
  PROBLEM_CODES,
  PROBLEM_CONTENT_TYPE,
  PROBLEMS,
  type ProblemCode,
  ProblemDetails,
  type ProblemKind,
  problemBody,
} from './problems.js';
export {
  InstrumentSymbol,
  normaliseTicker,
  QuoteSymbol,
  TICKER_SYMBOL_RULE,
  TickerSymbol,
} from './symbols.js';
