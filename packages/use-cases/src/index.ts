// The problem vocabulary is `@svc/schemas`'; re-exported for the apps that build bodies themselves.
export { PROBLEM_CONTENT_TYPE, problemBody } from '@svc/schemas';
export * from './accounts/index.js';
export {
  type AdviseInput,
  type AdvisorService,
  type AdvisorServiceDeps,
  createAdvisorService,
  MAX_PORTFOLIO_CONTEXT_CHARS,
} from './advisor/advise.js';
export { buildReadTools, type ToolScope, userAskedFor } from './advisor/advisor-tools.js';
export {
  createProposalService,
  type ProposalService,
  type ProposalServiceDeps,
} from './advisor/confirm-proposal.js';
export {
  createNarrationService,
  type NarrateInput,
  type Narration,
  type NarrationService,
  type NarrationServiceDeps,
  type NarrativeResult,
  type NarrativeSource,
} from './advisor/narrate.js';
export {
  describeBrokerExport,
  MAX_LINE_ERRORS_SHOWN,
  type ProposalToolDeps,
} from './advisor/proposal-tools.js';
export { ProposalPayloads } from './advisor/proposals.js';
export {
  AdvisorChatRequest,
  AiChatResponse,
  ChatMessageInput,
  ConfirmProposalRequest,
  ConfirmProposalResult,
  LanguageTag,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGES,
  MAX_REQUEST_CHARS,
  NarrativeRequest,
  PROPOSAL_TTL_MS,
} from './advisor/schemas.js';
export * from './domain.js';
export {
  type FieldProblem,
  UseCaseError,
  type UseCaseErrorCode,
  type UseCaseErrorOptions,
} from './errors.js';
export {
  type CompanyEvaluation,
  type EvaluateCompanyDeps,
  evaluateCompany,
} from './evaluate-company.js';
export {
  CHANGES_MAX_LIMIT,
  createEvaluationChangesFeed,
  EvaluationChangeEvent,
  EvaluationChangesPage,
  EvaluationChangesQuery,
} from './evaluation-changes.js';
export { diffEvaluations } from './evaluation-diff.js';
export {
  createEvaluationHistoryService,
  type EvaluationHistoryService,
  type EvaluationHistoryServiceDeps,
} from './evaluation-history.js';
export {
  CriterionChange,
  EvaluationDiff,
  EvaluationDiffQuery,
  EvaluationHistoryItem,
  EvaluationHistoryPage,
  EvaluationHistoryQuery,
  HISTORY_MAX_LIMIT,
} from './evaluation-history-schemas.js';
export {
  type Actor,
  createEvaluationService,
  type EvaluationRequest,
  type EvaluationService,
  type EvaluationServiceDeps,
  servedFromCache,
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
export {
  createIsinTable,
  ISIN_PATTERN,
  type IsinResolver,
  loadIsinTable,
} from './portfolio/isin-symbols.js';
export { MAX_CACHED_MARKET_DATA_AGE_DAYS } from './portfolio/market-inputs.js';
export {
  type AskModelForMapping,
  type CheckedMapping,
  type ModelMappingRequest,
  mappingToOffer,
} from './portfolio/model-mapping.js';
export {
  HoldingPerformance,
  HoldingPerformanceSummary,
  PerformanceQuery,
  PortfolioPerformance,
  ReturnFigure,
  ValuePoint,
} from './portfolio/performance-schemas.js';
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
  DATABASE_RETRY_AFTER_SECONDS,
  type ProblemAnswer,
  problemOf,
  toServiceError,
  withRetryAfter,
} from './problems.js';
export {
  createFundamentalsProvider,
  createQuoteSource,
  FUNDAMENTALS_PROVIDER_NAMES,
  type FundamentalsSettings,
  type QuoteSettings,
  type QuoteSource,
} from './providers.js';
export {
  type RefreshDayReport,
  type RefreshFilingReport,
  type RefreshPassDeps,
  type RefreshPassOptions,
  type RefreshReport,
  type RefreshUnit,
  refreshDepsFor,
  runRefreshPass,
  SEC_SHARED_INTERVAL_MS,
  sharedSecBudget,
} from './refresh.js';
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
export {
  type AnyToolDefinition,
  DEFAULT_TOKEN_SCOPES,
  SPEC_MCP_TOOLS,
  scopesToUse,
  TOOL_DEFINITIONS,
  type ToolNameOn,
  toolsOn,
} from './tools/catalog.js';
export {
  defineTool,
  type ScopeRedaction,
  type ToolAnnotations,
  type ToolDefinition,
  type ToolFlows,
  type ToolSurface,
} from './tools/definition.js';
export { TOOL_TRANSACTION_LIMIT } from './tools/portfolio-tools.js';
export {
  createWebhookDispatcher,
  DEFAULT_RETRY_DELAYS_MS,
  type DispatchRound,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './webhook-dispatcher.js';
export {
  CreatedWebhook,
  CreateWebhookBody,
  checkWebhookHost,
  createWebhookService,
  type HostLookup,
  MAX_WEBHOOK_ENDPOINTS,
  newWebhookSecret,
  refusedAddress,
  systemLookup,
  WEBHOOK_EVENT_TYPES,
  WebhookDeliveriesPage,
  WebhookDeliveriesQuery,
  WebhookEndpointSchema,
  type WebhookService,
  type WebhookServiceDeps,
} from './webhooks.js';
