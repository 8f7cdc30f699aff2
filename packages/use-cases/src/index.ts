// The problem vocabulary is `@svc/schemas`'; re-exported for the apps that build bodies themselves.

// The domain shapes and errors the apps' boundaries need, passed on so that the apps import only
// `@svc/use-cases`, `@svc/service`, `@svc/mcp-server` and `@svc/schemas` (the rule of
// `scripts/dep-graph.mjs --check`): the advisor's stream frames, the providers' errors, the
// portfolio records and broker import limits of the REST routes.
export {
  type AdvisorFrame,
  AdvisorFrameSchema,
  type Attachment,
  GroundingReportSchema,
  type NarrativeEvent,
} from '@svc/advisor';
export {
  createSecFilingsClient,
  FundamentalsError,
  isListableProvider,
} from '@svc/fundamentals-client';
export { CRITERIA, type CriterionDefinition, MoatScoringError } from '@svc/moat-scoring';
export {
  BROKER_FORMAT_LABELS,
  BROKER_FORMATS,
  CashPosition,
  ColumnMapping,
  DEFAULT_IMPORT_LIMITS,
  decodeBrokerFile,
  FormatDefinition,
  Holding,
  NewTransaction,
  Portfolio,
  StoredMapping,
  Transaction,
} from '@svc/portfolio';
export { PROBLEM_CONTENT_TYPE, problemBody } from '@svc/schemas';
export {
  ACCOUNT_EXPORT_FORMAT,
  ACCOUNT_EXPORT_FORMATS,
  ACCOUNT_EXPORT_VERSION,
  type AccountDataDeps,
  type AccountDataService,
  AccountExport,
  type AccountExportFormat,
  type AccountExportOptions,
  type AccountImportDeps,
  AccountImportInput,
  AccountImportResult,
  createAccountDataService,
  ExportedImportMapping,
  ExportedPortfolio,
  ExportedReport,
  ExportedToken,
  ExportedTransaction,
  ExportedUser,
  exportAccount,
  GhostfolioExport,
  importAccount,
  MAX_IMPORTED_PORTFOLIOS,
  MAX_IMPORTED_REPORTS,
  MAX_IMPORTED_TRANSACTIONS,
  toGhostfolioExport,
} from './account-data/index.js';
export {
  ACTIVITY_PAGE_DEFAULT,
  ACTIVITY_PAGE_MAX,
  type AccountLifecycle,
  type AccountLifecycleDeps,
  type AccountRepositories,
  type AccountSession,
  type AccountToken,
  type AccountTokenActivity,
  type AccountUser,
  type Authenticated,
  type AuthService,
  type AuthServiceDeps,
  type BatchCounterOptions,
  type BatchedCounter,
  batchCounter,
  type ClientContext,
  counterKeyDigest,
  createAccountLifecycle,
  createAuthService,
  createLoginThrottle,
  createOidcClient,
  createPersonalAccessTokens,
  createRevocableMemo,
  createSessionCache,
  createSignedTokens,
  createTokenActivity,
  createTokenMemo,
  DEFAULT_AUDIT_RETENTION_DAYS,
  DEFAULT_COUNTER_SYNC_MS,
  DEFAULT_MEMO_ENTRIES,
  DEFAULT_TOKEN_LIFETIME_DAYS,
  guardQuotaSpending,
  insufficientScope,
  type ListedToken,
  type LoginThrottle,
  type LoginThrottleOptions,
  loginThrottleKey,
  type MemoIdentity,
  missingScopes,
  type OidcChecks,
  type OidcClient,
  type OidcConfig,
  type OidcIdentity,
  type OpenedSession,
  type OpenedSessionChangeFeed,
  openSessionChangeFeed,
  type PasswordChange,
  type PasswordHasher,
  type PersonalAccessTokens,
  type PersonalAccessTokenVerifier,
  type PlanName,
  publicUser,
  QUOTA_SCOPES,
  type QuotaUsageEntry,
  type QuotaUsageReader,
  READ_ONLY_TOKEN_SCOPES,
  REAUTHENTICATION_WINDOW_SECONDS,
  type RevocableMemo,
  type RevocableMemoOptions,
  runTokenCall,
  SCOPE_NEEDS,
  type SessionCache,
  type SessionCacheOptions,
  type SessionChangeFeed,
  type SessionChangeSubscriber,
  type SessionClaims,
  type SignedTokens,
  scheduleActivityPurge,
  TOKEN_SCOPES,
  TOKEN_TOUCH_INTERVAL_MS,
  type TokenActivity,
  type TokenActivityPage,
  type TokenCall,
  type TokenCallOutcome,
  type TokenCallRecord,
  type TokenCrypto,
  type TokenMemo,
  type TokenPrincipal,
  TokenScope,
  type VerifiedToken,
  withNeededScopes,
} from './accounts/index.js';
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
export {
  type FieldProblem,
  UseCaseError,
  type UseCaseErrorCode,
  type UseCaseErrorOptions,
} from './errors.js';
export { freezeAnswer } from './frozen.js';
export {
  DEFAULT_FILL_CONCURRENCY,
  type FillCacheFailure,
  type FillCacheOptions,
  type FillCacheProgress,
  type FillCacheSummary,
  fillEvaluationCache,
} from './jobs/fill-cache.js';
export {
  type RefreshDayReport,
  type RefreshFilingReport,
  type RefreshPassDeps,
  type RefreshPassOptions,
  type RefreshReport,
  refreshDepsFor,
  runRefreshPass,
  SEC_SHARED_INTERVAL_MS,
  sharedSecBudget,
} from './jobs/refresh.js';
export {
  type CompanyEvaluation,
  type EvaluateCompanyDeps,
  evaluateCompany,
  RECONCILE_UNAVAILABLE,
  type Reconciliation,
} from './moat/evaluate-company.js';
export {
  CHANGES_MAX_LIMIT,
  createEvaluationChangesFeed,
  EvaluationChangeEvent,
  EvaluationChangesPage,
  EvaluationChangesQuery,
} from './moat/evaluation-changes.js';
export { diffEvaluations } from './moat/evaluation-diff.js';
export {
  createEvaluationHistoryService,
  type EvaluationHistoryService,
  type EvaluationHistoryServiceDeps,
} from './moat/evaluation-history.js';
export {
  CriterionChange,
  EvaluationDiff,
  EvaluationDiffQuery,
  EvaluationHistoryItem,
  EvaluationHistoryPage,
  EvaluationHistoryQuery,
  HISTORY_MAX_LIMIT,
} from './moat/evaluation-history-schemas.js';
export {
  type Actor,
  createEvaluationService,
  type EvaluationRequest,
  type EvaluationService,
  type EvaluationServiceDeps,
  servedFromCache,
} from './moat/evaluation-service.js';
export { type FilingReference, filingsBehind } from './moat/filings.js';
export {
  type EvaluationKeeper,
  type KeepEvaluationInput,
  type KeptEvaluation,
  keepEvaluation,
} from './moat/keep-evaluation.js';
export {
  createReportService,
  MAX_EVALUATION_JSON_LENGTH,
  parseTagList,
  ReportDetail,
  type ReportService,
  ReportSummary,
  SaveReportInput,
} from './moat/reports.js';
export {
  createScreenerService,
  ScreenerMeta,
  ScreenerPage,
  ScreenerQuery,
  ScreenerRow,
  type ScreenerService,
} from './moat/screener.js';
export {
  type BrokerImportDeps,
  type ImportContext,
  importBrokerFile,
} from './portfolio/broker-import.js';
export {
  type BrokerImportPreviewDeps,
  previewBrokerImport,
} from './portfolio/broker-import-preview.js';
export type { LedgerUnit } from './portfolio/change-ledger.js';
export { describeTransaction, transactionTag } from './portfolio/change-summaries.js';
export type { ChangeContext, ChangeFlows } from './portfolio/changes.js';
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
  MAX_PORTFOLIOS_PER_ACCOUNT,
  type PortfolioService,
  type PortfolioServiceDeps,
  portfolioTag,
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
  ChangeListQuery,
  CreatePortfolioInput,
  ImportedHolding,
  ImportLine,
  ImportResult,
  MAX_PORTFOLIO_NAME_LENGTH,
  PortfolioChange,
  PortfolioChangePage,
  PortfolioValuation,
  QuoteResult,
  RenamePortfolioInput,
  RevaluationResult,
  TransactionListQuery,
  TransactionPage,
  TransactionPatch,
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
export { scopesPerTool, toolSignature } from './tools/describe.js';
export { TOOL_TRANSACTION_LIMIT } from './tools/portfolio-tools.js';
export { XRAY_REDACTION, XrayAnswer } from './tools/xray-tool.js';
export {
  createWebhookDispatcher,
  DEFAULT_RETRY_DELAYS_MS,
  type DispatchRound,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './webhooks/webhook-dispatcher.js';
export {
  CreatedWebhook,
  CreateWebhookBody,
  createWebhookService,
  MAX_WEBHOOK_ENDPOINTS,
  newWebhookSecret,
  WEBHOOK_EVENT_TYPES,
  WebhookDeliveriesPage,
  WebhookDeliveriesQuery,
  WebhookEndpointSchema,
  type WebhookPostResult,
  type WebhookService,
  type WebhookServiceDeps,
  type WebhookTransport,
} from './webhooks/webhooks.js';
export { instrumentOf } from './xray/instrument-of.js';
export {
  createXrayService,
  type EvaluationFills,
  type FillState,
  type XrayService,
  type XrayServiceDeps,
} from './xray/xray-service.js';
