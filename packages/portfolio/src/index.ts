export {
  DECIMAL_PATTERN,
  DecimalString,
  NonNegativeDecimalString,
  OUTPUT_SCALE,
  PositiveDecimalString,
} from './decimal.js';
export {
  type DerivedCash,
  type DerivedHolding,
  type DerivedPortfolio,
  type DeriveOptions,
  deriveHoldings,
  type LedgerTransaction,
  TYPE_RANK,
} from './derive-holdings.js';
export { PortfolioError, type PortfolioErrorCode, type PortfolioErrorOptions } from './errors.js';
export { CurrencyCode, ExecutedAt, IsoDateTime } from './fields.js';
export { decodeBrokerFile } from './import/decode.js';
export {
  DefinitionSource,
  definitionMapping,
  draftDefinition,
  FormatDefinition,
  fold,
  Recognition as FormatRecognition,
  StoredMapping,
} from './import/definitions/definition.js';
export { type ProposeOptions, proposeMapping } from './import/generic/propose.js';
export { checkMapping, type MappingVerdict } from './import/generic/verify.js';
export { mappedFormat } from './import/mapped-row.js';
export {
  CONFIDENCE_THRESHOLD,
  ColumnMapping,
  type FieldConfidence,
  MAPPED_FIELDS,
  MAPPED_KINDS,
  type MappedField,
  type MappedKind,
  type MappingCheck,
  type MappingProposal,
  type MappingQuestion,
} from './import/mapping.js';
export {
  BROKER_CATALOGUE,
  BROKER_FORMAT_LABELS,
  BROKER_FORMATS,
  type BrokerCsvResult,
  type BrokerFormat,
  catalogueDefinition,
  DEFAULT_IMPORT_LIMITS,
  headerSet,
  headerSetKey,
  type ImportedRow,
  type ImportIssue,
  type ImportLimits,
  type ParseBrokerCsvOptions,
  parseBrokerCsv,
} from './import/parse-broker-csv.js';
export {
  type FingerprintedRow,
  fingerprintRows,
  type ImportPlan,
  type ImportPlanInput,
  type OversellPolicy,
  type PlannedTransaction,
  planImport,
} from './import/plan-import.js';
export { type BrentOptions, brentRoot, type RootResult } from './performance/brent.js';
export {
  measurePeriod,
  type PeriodPerformance,
  type ReturnFigure,
  type ReturnUnavailable,
  type ReturnValue,
  type StaleSummary,
} from './performance/measure.js';
export {
  PERFORMANCE_PERIODS,
  type PerformancePeriod,
  type PeriodRequest,
  type ResolvedPeriod,
  resolvePeriod,
} from './performance/periods.js';
export {
  SERIES_INTERVALS,
  type SeriesInterval,
  type ValuePoint,
  valueSeries,
} from './performance/series.js';
export { buildTimeline, extendTimeline, resumeDataFrom } from './performance/timeline.js';
export {
  type CashFlowBasis,
  type DailySeries,
  type HoldingTrack,
  MAX_PRICE_AGE_DAYS,
  RESUME_WINDOW_DAYS,
  type Timeline,
  type TimelineCheckpoint,
  type TimelineInputs,
  type Track,
  type UnavailableCode,
} from './performance/types.js';
export { type DatedFlow, type XirrResult, xirr } from './performance/xirr.js';
export { CashPosition, Holding, Portfolio } from './records.js';
export {
  NewTransaction,
  TRANSACTION_TYPES,
  Transaction,
  TransactionType,
} from './transaction.js';
export {
  type CashValues,
  type HoldingValues,
  MAX_FX_AGE_DAYS,
  MAX_QUOTE_AGE_DAYS,
  type Quote,
  type ValuationInputs,
  type ValuationIssue,
  type ValuedPortfolio,
  valueHoldings,
} from './value-holdings.js';
