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
