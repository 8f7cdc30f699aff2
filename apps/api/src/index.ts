import './types.js';

export type {
  AccountRepositories,
  AccountSession,
  AccountToken,
  AccountUser,
  PasswordHasher,
  PlanName,
  QuotaUsageEntry,
  QuotaUsageReader,
} from './accounts/ports.js';
export {
  type AiFlows,
  type AiFlowsOptions,
  createAiFlows,
  createModelEndpoints,
  type ModelEndpoints,
  PLACEHOLDER_API_KEY,
} from './advisor/flows.js';
export {
  apiApp,
  BODY_LIMIT_BYTES,
  type BuildAppOptions,
  buildApp,
  SERVER_TIMEOUTS,
  serverTimeouts,
} from './app.js';
export type {
  Authenticated,
  AuthService,
  ClientContext,
  OpenedSession,
} from './auth/auth-service.js';
export { OIDC_COOKIE, SESSION_COOKIE } from './auth/cookies.js';
export {
  createLoginThrottle,
  type LoginThrottle,
  type LoginThrottleOptions,
} from './auth/login-throttle.js';
export {
  createOidcClient,
  type OidcChecks,
  type OidcClient,
  type OidcIdentity,
} from './auth/oidc.js';
export { assertSameOrigin, requestOrigin } from './auth/origin-check.js';
export {
  createPersonalAccessTokens,
  createPersonalAccessTokenVerifier,
  DEFAULT_TOKEN_LIFETIME_DAYS,
  type PersonalAccessTokens,
  type PersonalAccessTokenVerifier,
  type TokenCrypto,
} from './auth/personal-access-tokens.js';
export { createSignedTokens, type SessionClaims, type SignedTokens } from './auth/signed-tokens.js';
export {
  type AppConfig,
  type BaseConfig,
  ConfigError,
  type ConfigLogger,
  EnvSchema,
  FUNDAMENTALS_PROVIDERS,
  LOG_LEVELS,
  loadConfig,
  loadOrCreateSessionSecret,
  type OidcConfig,
  parseConfig,
  SESSION_SECRET_FILE,
  type SessionSecretSource,
} from './config.js';
export { type AppDeps, defaultPasswords, defaultTokenCrypto } from './deps.js';
export { DOCS_SECTION_IDS, DocsIndex, DocsSection, type DocsSectionId } from './docs/schema.js';
export {
  createLogger,
  type LogSettings,
  logSettingsOf,
  REDACT_PATHS,
  REQUEST_ID_HEADER,
  redactUrl,
  requestIdOf,
} from './logging.js';
export {
  createServiceMetrics,
  type PoolStats,
  type ProviderName,
  type ServiceMetrics,
} from './metrics/service-metrics.js';
export {
  API_DESCRIPTION,
  eventStreamResponse,
  jsonResponse,
  OPENAPI_VERSION,
  SECURITY,
  SECURITY_SCHEMES,
} from './openapi.js';
export { bearerToken } from './plugins/app/bearer-guard.js';
export { currentUser } from './plugins/app/session-guard.js';
export {
  METRICS_PATH,
  type MetricsOptions,
  registerMetrics,
  trackEventStream,
} from './plugins/external/metrics.js';
export {
  ApiError,
  type ApiErrorOptions,
  codeForStatus,
  type ErrorStatus,
  errorResponses,
  FieldError,
  fromPackageError,
  PROBLEM_CODES,
  PROBLEM_CONTENT_TYPE,
  type ProblemAnswer,
  type ProblemCode,
  ProblemDetails,
  type ProblemResponse,
  problemBody,
  QuotaState,
  STATUS_OF_CODE,
  toProblem,
} from './problem.js';
export { openRuntime, type Runtime } from './runtime.js';
export {
  LoginBody,
  MintedToken,
  MintTokenBody,
  QuotaUsage,
  RegisterBody,
  SessionInfo,
  TokenSummary,
  User,
  UserEnvelope,
} from './schemas/account.js';
