// The account flows (sign-up, password and OIDC sign-in, sessions, personal access tokens, the
// login throttle and the memos of verified credentials), free of any HTTP framework: they throw
// `UseCaseError` with a problem code, which each app maps (REST: problem+json; MCP: a tool error).
export {
  type AccountLifecycle,
  type AccountLifecycleDeps,
  createAccountLifecycle,
  type PasswordChange,
  REAUTHENTICATION_WINDOW_SECONDS,
} from './account-lifecycle.js';
export {
  type AuthService,
  type AuthServiceDeps,
  type ClientContext,
  createAuthService,
  type OpenedSession,
  publicUser,
} from './auth-service.js';
export {
  type BatchCounterOptions,
  type BatchedCounter,
  batchCounter,
  DEFAULT_COUNTER_SYNC_MS,
} from './batched-counter.js';
export {
  counterKeyDigest,
  createLoginThrottle,
  type LoginThrottle,
  type LoginThrottleOptions,
  loginThrottleKey,
} from './login-throttle.js';
export {
  createOidcClient,
  type OidcChecks,
  type OidcClient,
  type OidcConfig,
  type OidcIdentity,
} from './oidc.js';
export {
  createPersonalAccessTokens,
  createTokenMemo,
  DEFAULT_TOKEN_LIFETIME_DAYS,
  type ListedToken,
  type PersonalAccessTokens,
  type PersonalAccessTokenVerifier,
  TOKEN_TOUCH_INTERVAL_MS,
  type TokenCrypto,
  type TokenMemo,
  type TokenPrincipal,
  type VerifiedToken,
} from './personal-access-tokens.js';
export type {
  AccountRepositories,
  AccountSession,
  AccountToken,
  AccountTokenActivity,
  AccountUser,
  Authenticated,
  PasswordHasher,
  PlanName,
  QuotaUsageEntry,
  QuotaUsageReader,
} from './ports.js';
export {
  createRevocableMemo,
  DEFAULT_MEMO_ENTRIES,
  type MemoIdentity,
  type RevocableMemo,
  type RevocableMemoOptions,
} from './revocable-memo.js';
export {
  insufficientScope,
  missingScopes,
  QUOTA_SCOPES,
  READ_ONLY_TOKEN_SCOPES,
  SCOPE_NEEDS,
  TOKEN_SCOPES,
  TokenScope,
  withNeededScopes,
} from './scopes.js';
export {
  createSessionCache,
  type SessionCache,
  type SessionCacheOptions,
} from './session-cache.js';
export {
  type OpenedSessionChangeFeed,
  openSessionChangeFeed,
  type SessionChangeFeed,
  type SessionChangeSubscriber,
} from './session-change-feed.js';
export { createSignedTokens, type SessionClaims, type SignedTokens } from './signed-tokens.js';
export {
  ACTIVITY_PAGE_DEFAULT,
  ACTIVITY_PAGE_MAX,
  createTokenActivity,
  DEFAULT_AUDIT_RETENTION_DAYS,
  scheduleActivityPurge,
  type TokenActivity,
  type TokenActivityPage,
  type TokenCallRecord,
} from './token-activity.js';
export {
  guardQuotaSpending,
  runTokenCall,
  type TokenCall,
  type TokenCallOutcome,
} from './token-call.js';
