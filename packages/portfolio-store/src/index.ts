export {
  createDatabase,
  type Database,
  type DatabaseOptions,
  DEFAULT_POOL_OPTIONS,
  type PoolOptions,
} from './database.js';
export type {
  AdvisorProposalsTable,
  CashPositionsTable,
  ChangeKind,
  ChangeSource,
  DB,
  EvaluationCacheTable,
  EvaluationHistoryTable,
  EvaluationTrigger,
  FxRatesTable,
  HoldingsTable,
  MoatReportsTable,
  PersonalAccessTokensTable,
  Plan,
  PortfolioChangeRowsTable,
  PortfolioChangesTable,
  PortfoliosTable,
  ProposalStatus,
  QuotaUsageTable,
  QuotesTable,
  SessionsTable,
  TokenActivityTable,
  TransactionsTable,
  TransactionType,
  UsersTable,
} from './db-types.js';
export { isDatabaseUnavailable, StoreError, type StoreErrorCode } from './errors.js';
export { type MigrationReport, migrateToLatest, pendingMigrations } from './migrate.js';
export { SESSION_CHANGES_CHANNEL } from './migrations/0006-shared-limits-and-session-notify.js';
export { MIGRATIONS, staticMigrationProvider } from './migrations/index.js';
export type {
  AdvisorProposal,
  AdvisorProposalsRepository,
  NewAdvisorProposal,
  ProposalDecision,
} from './repositories/advisor-proposals.js';
export {
  type CachedEvaluation,
  type CurrentScoring,
  type EvaluationCacheRepository,
  type UpsertEvaluationOptions,
  upsertCachedEvaluation,
} from './repositories/evaluation-cache.js';
export {
  type EvaluationEventsRepository,
  type EventFeedPage,
  type EventFeedQuery,
  insertEvaluationEvent,
  type NewEvaluationEvent,
  type StoredEvent,
} from './repositories/evaluation-events.js';
export {
  type CauseFiling,
  type EvaluationHistoryPage,
  type EvaluationHistoryRepository,
  type EvaluationRecord,
  type EvaluationRecordSummary,
  type HistoryEvaluation,
  type HistoryFiling,
  insertKeptEvaluation,
  latestKeptEvaluation,
  lockEvaluationSymbol,
  type NewKeptEvaluation,
} from './repositories/evaluation-history.js';
export { insertOutboxEvent, type OutboxEvent } from './repositories/event-outbox.js';
export type {
  ImportMappingsRepository,
  SavedImportMapping,
} from './repositories/import-mappings.js';
export { createRepositories, type Repositories } from './repositories/index.js';
export type {
  ChangeOptions,
  PortfolioChange,
  PortfolioChangePage,
  RevertOutcome,
} from './repositories/journal.js';
export {
  createLedgerWrites,
  type InsertOptions,
  type LedgerWrites,
  type UnitOfWork,
} from './repositories/ledger-writes.js';
export type {
  FxRate,
  MarketDataRepository,
  NewFxRate,
  NewQuote,
  Quote,
} from './repositories/market-data.js';
export {
  type MoatReport,
  type MoatReportSummary,
  type MoatReportsRepository,
  type NewMoatReport,
  normalizeTags,
} from './repositories/moat-reports.js';
export type {
  NewPersonalAccessToken,
  PersonalAccessToken,
  PersonalAccessTokensRepository,
} from './repositories/personal-access-tokens.js';
export type {
  NewPortfolio,
  Portfolio,
  PortfoliosRepository,
  PortfolioVersions,
} from './repositories/portfolios.js';
export type {
  CashPosition,
  Holding,
  NewCashPosition,
  NewHolding,
  PositionsRepository,
} from './repositories/positions.js';
export {
  createQuotaUsageRepository,
  type QuotaCounterKey,
  type QuotaUsageRepository,
} from './repositories/quota-usage.js';
export {
  SCREENER_MAX_LIMIT,
  type ScreenerMeta,
  type ScreenerPage,
  type ScreenerQuery,
  type ScreenerRepository,
  type ScreenerRow,
  type ScreenerSortBy,
} from './repositories/screener.js';
export type {
  FoundFiling,
  IndexDay,
  LeasedFiling,
  SecRefreshRepository,
} from './repositories/sec-refresh.js';
export type { NewSession, Session, SessionsRepository } from './repositories/sessions.js';
export { type Executor, inTransaction } from './repositories/shared.js';
export type { NewTokenActivity, TokenActivity } from './repositories/token-activity.js';
export type {
  NewTransaction,
  Transaction,
  TransactionPage,
  TransactionQuery,
  TransactionsRepository,
} from './repositories/transactions.js';
export {
  type NewUser,
  normalizeEmail,
  type OidcIdentity,
  type User,
  type UsersRepository,
} from './repositories/users.js';
export type {
  ClaimedWebhookMessage,
  NewWebhookEndpoint,
  WebhookAttemptOutcome,
  WebhookDelivery,
  WebhookEndpoint,
  WebhooksRepository,
} from './repositories/webhooks.js';
export { hashPassword, PASSWORD_HASH_PARAMETERS, verifyPassword } from './security/passwords.js';
export {
  hashToken,
  looksLikePersonalAccessToken,
  type MintedToken,
  mintPersonalAccessToken,
  PAT_PREFIX,
  safeEqual,
} from './security/tokens.js';
export {
  listenForSessionChanges,
  parseSessionChange,
  type SessionChange,
  type SessionChangesListener,
  type SessionChangesOptions,
} from './shared-state/session-changes.js';
export {
  type CounterState,
  createSharedCounter,
  type SharedCounter,
  type SharedCounterOptions,
} from './shared-state/shared-counter.js';
