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
export { CurrencyCode, IsoDateTime } from './fields.js';
export {
  ColumnMapping,
  MAPPED_FIELDS,
  MAPPED_KINDS,
  type MappingProposal,
  mappedFormat,
  proposeMapping,
} from './import/mapping.js';
export {
  BROKER_FORMATS,
  type BrokerCsvResult,
  type BrokerFormat,
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
