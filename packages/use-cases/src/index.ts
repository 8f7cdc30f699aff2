export { type FieldProblem, UseCaseError, type UseCaseErrorCode } from './errors.js';
export {
  type CompanyEvaluation,
  type EvaluateCompanyDeps,
  evaluateCompany,
} from './evaluate-company.js';
export {
  type Actor,
  createEvaluationService,
  type EvaluationRequest,
  type EvaluationService,
  type EvaluationServiceDeps,
  type ServedEvaluation,
} from './evaluation-service.js';
export { type FilingReference, filingsBehind } from './filings.js';
export {
  DEFAULT_FILL_CONCURRENCY,
  type FillCacheFailure,
  type FillCacheOptions,
  type FillCacheProgress,
  type FillCacheSummary,
  fillEvaluationCache,
} from './fill-cache.js';
export {
  type BrokerImportDeps,
  type BrokerImportPreviewDeps,
  importBrokerFile,
  previewBrokerImport,
} from './portfolio/broker-import.js';
export { MAX_CACHED_MARKET_DATA_AGE_DAYS } from './portfolio/market-inputs.js';
export {
  createPortfolioService,
  type ImportBrokerCsvOptions,
  type PortfolioService,
  type PortfolioServiceDeps,
} from './portfolio/portfolio-service.js';
export {
  createQuoteService,
  DEFAULT_QUOTE_CACHE_ENTRIES,
  DEFAULT_QUOTE_TTL_MS,
  type QuoteService,
  type QuoteServiceDeps,
} from './portfolio/quote-service.js';
export {
  BrokerFormatOption,
  BrokerImportOptions,
  CreatePortfolioInput,
  ImportedHolding,
  ImportLine,
  ImportResult,
  MAX_PORTFOLIO_NAME_LENGTH,
  PortfolioValuation,
  QuoteResult,
  RenamePortfolioInput,
  RevaluationResult,
  TransactionListQuery,
  TransactionPage,
  ValuationIssue,
} from './portfolio/schemas.js';
export {
  createFundamentalsProvider,
  createQuoteSource,
  FUNDAMENTALS_PROVIDER_NAMES,
  type FundamentalsSettings,
  type QuoteSettings,
  type QuoteSource,
} from './providers.js';
export {
  createReportService,
  MAX_EVALUATION_JSON_LENGTH,
  parseTagList,
  ReportDetail,
  type ReportService,
  ReportSummary,
  SaveReportInput,
} from './reports.js';
export {
  createScreenerService,
  ScreenerMeta,
  ScreenerPage,
  ScreenerQuery,
  ScreenerRow,
  type ScreenerService,
} from './screener.js';
