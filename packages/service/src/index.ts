// The service composed once, for the REST app (apps/api), the standalone MCP server (apps/mcp)
// and the command line (apps/cli): the configuration from the environment, the runtime built from
// it (every flow and the account services), the Fastify bootstrap both servers share, and the
// store the command line tools open.

// The providers chosen by their configured name, all of them, for the command line (apps import
// only the composition root, not @svc/providers).
export * from '@svc/providers';
export {
  type AccountInputs,
  type AccountServices,
  type AccountServicesOptions,
  type CounterFactory,
  createAccountServices,
  defaultPasswords,
  defaultTokenCrypto,
} from './accounts.js';
export {
  type AiFlows,
  type AiFlowsOptions,
  createAiFlows,
  createModelEndpoints,
  type ModelEndpoints,
  PLACEHOLDER_API_KEY,
} from './advisor/flows.js';
export {
  COMMAND_ENV_KEYS,
  type CommandConfig,
  openStore,
  parseCommandConfig,
  type Store,
} from './commands.js';
export {
  type AppConfig,
  type BaseConfig,
  CONFIG_RULES,
  ConfigError,
  type ConfigLogger,
  type ConfigRule,
  describeEnvironment,
  type Env,
  type EnvName,
  EnvSchema,
  FUNDAMENTALS_PROVIDERS,
  FX_PROVIDERS,
  LOG_FORMATS,
  LOG_LEVELS,
  loadConfig,
  loadOrCreateSessionSecret,
  type OidcConfig,
  parseConfig,
  QUOTES_PROVIDERS,
  SESSION_SECRET_FILE,
  type SessionSecretSource,
} from './config.js';
export { type OpenedCredentialMemo, openCredentialMemo } from './credential-memo.js';
export { type AppDeps, mcpServicesOf } from './deps.js';
export {
  FILL_CHUNK,
  FILL_QUEUE,
  type FillOnJobsOptions,
  type FillOnJobsSummary,
  fillCacheOnJobs,
} from './fill-jobs.js';
export { badText, findBadText, registerInputGuard } from './http/input-guard.js';
export {
  checkReadiness,
  READINESS_TIMEOUT_MS,
  registerIdleConnectionSweep,
} from './http/lifecycle.js';
export {
  createLogger,
  type LogSettings,
  logSettingsOf,
  REDACT_PATHS,
  REQUEST_ID_HEADER,
  REQUEST_ID_OPTIONS,
  redactUrl,
  requestIdOf,
} from './http/logging.js';
export { toProblem } from './http/problem.js';
export {
  clientErrorHandler,
  frameworkErrorHandler,
  type ProblemHandlerOptions,
  registerProblemHandler,
} from './http/problem-handler.js';
export {
  EMBEDDED_RATE_LIMIT_SYNC_MS,
  rateLimitSyncMs,
  registerSharedRateLimit,
} from './http/rate-limit.js';
export { registerRequestHooks } from './http/request-hooks.js';
export { jsonBody, mapperAnswers } from './http/serializers.js';
export {
  BODY_LIMIT_BYTES,
  createServer,
  MAX_HEADER_BYTES,
  MAX_PARAM_LENGTH,
  SERVER_TIMEOUTS,
  type ServerOptions,
  serverTimeouts,
} from './http/server.js';
export { type Jobs, type JobsOptions, type JobsPool, REFRESH_QUEUE, startJobs } from './jobs.js';
export { type McpTokenCheck, mcpPluginOptionsOf } from './mcp-options.js';
export {
  createServiceMetrics,
  errorCode,
  type PoolStats,
  type ProviderName,
  type ServiceMetrics,
} from './metrics/service-metrics.js';
export {
  type OpenedFundamentals,
  openFundamentalsProvider,
  openReconcileProvider,
  type ReconcileLogger,
  unavailableFundamentalsProvider,
} from './moat/fundamentals.js';
export {
  createMoatServices,
  type MoatServices,
  type MoatServicesOptions,
} from './moat/services.js';
export { createPortfolioFlows, type PortfolioFlows } from './portfolio/flows.js';
export { composeRefreshPass, type RefreshPassParts } from './refresh-pass.js';
export { openRuntime, type Runtime } from './runtime.js';
export { type StartContext, type StartOptions, startServer } from './start.js';
export {
  createWebhookTransport,
  type HostLookup,
  refusedAddress,
  systemLookup,
  type WebhookTransportOptions,
} from './webhooks/pinned-http.js';
