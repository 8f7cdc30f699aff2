import {
  hashPassword,
  hashToken,
  looksLikePersonalAccessToken,
  mintPersonalAccessToken,
  type SharedCounter,
  type SharedCounterOptions,
  verifyPassword,
} from '@svc/portfolio-store';
import type { QuotaService } from '@svc/quota';
import type {
  AccountDataService,
  AccountRepositories,
  LoginThrottleOptions,
  OidcClient,
  PasswordHasher,
  PortfolioService,
  QuotaUsageReader,
  QuoteService,
  SessionChangeFeed,
  TokenCrypto,
} from '@svc/use-cases';
import type { AccountServices } from './accounts.js';
import type { AiFlows } from './advisor/flows.js';
import type { AppConfig } from './config.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import type { MoatServices } from './moat/services.js';

/** Makes a counter shared by every process (`createSharedCounter` of `@svc/portfolio-store`). */
export type CounterFactory = (options: SharedCounterOptions) => SharedCounter;

/** The portfolio and quote flows of `@svc/use-cases`, created once per process. */
export interface PortfolioFlows {
  /** Portfolios, holdings, cash, transactions, broker import, revaluation (`createPortfolioService`). */
  readonly portfolios: PortfolioService;
  /** Quotes with their EUR price, cached briefly (`createQuoteService`). */
  readonly quotes: QuoteService;
  /** The whole account as data: export (native, Ghostfolio) and import (`createAccountDataService`). */
  readonly accountData: AccountDataService;
}

/**
 * Everything the servers are built from, created once by the composition root (`openRuntime`)
 * or a test. Each resource adds its flows here as one field (`moat`, …), created by its own
 * factory; the account services are built last, from the others (`createAccountServices`).
 */
export interface AppDeps extends AccountInputs {
  /**
   * Sessions, personal access tokens (their memo and `authenticate`, the PAT guard's verify),
   * token activity and its purge, the signer and the OIDC client (`createAccountServices`).
   */
  readonly accounts: AccountServices;
}

/** What the account services are built from: everything of {@link AppDeps} but the accounts. */
export interface AccountInputs {
  readonly config: AppConfig;
  /** User, session and token repositories (`createRepositories(db)` of `@svc/portfolio-store`). */
  readonly repos: AccountRepositories;
  /** Quota usage, and `withQuota` for the MCP narrative (`createQuotaService()` of `@svc/quota`). */
  readonly quotas: QuotaUsageReader & Pick<QuotaService, 'withQuota'>;
  /** Evaluation, screener and report flows (`createMoatServices`). */
  readonly moat: MoatServices;
  /** Portfolio and quote flows (`GET /api/portfolios`, `/api/holdings`, `/api/quote`, …). */
  readonly portfolio: PortfolioFlows;
  /**
   * The readiness check of `GET /readyz`: names the migrations not yet applied
   * (`pendingMigrations(db)` of `@svc/portfolio-store`), throws when the database is unreachable.
   */
  readonly pendingMigrations: () => Promise<readonly string[]>;
  /**
   * Counters shared by every process (`createSharedCounter` of `@svc/portfolio-store` over the
   * app's database): the login throttle and the per-user request limit.
   */
  readonly counters: CounterFactory;
  /**
   * Sessions that ended anywhere, announced by the database (`openSessionChangeFeed`). With
   * `DATABASE_URL` the session memo is used only while this feed is listening; without a feed
   * there it is off. Not needed on the embedded database, which one process owns.
   */
  readonly sessionChanges?: SessionChangeFeed;
  /** The narrative, advisor and proposal flows (`createAiFlows`). */
  readonly ai: AiFlows;
  /**
   * The Prometheus metrics the runtime's quota service, providers and pool report to
   * (`createServiceMetrics`); default a fresh set that sees only the HTTP requests.
   */
  readonly metrics?: ServiceMetrics;
  /** Password hashing; default argon2id of `@svc/portfolio-store`. */
  readonly passwords?: PasswordHasher;
  /** Token minting/hashing; default `@svc/portfolio-store`'s `svc_pat_` helpers. */
  readonly tokenCrypto?: TokenCrypto;
  /** OIDC client; default built from `config.oidc` when configured. */
  readonly oidc?: OidcClient;
  /** Clock; default `() => new Date()`. */
  readonly now?: () => Date;
  /** Failed-login throttle settings; default 5 failures per 15 minutes per IP and e-mail. */
  readonly loginThrottle?: LoginThrottleOptions;
}

/** The argon2id password hasher of `@svc/portfolio-store`. */
export const defaultPasswords: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

/** The personal access token helpers of `@svc/portfolio-store`. */
export const defaultTokenCrypto: TokenCrypto = {
  mint: mintPersonalAccessToken,
  hash: hashToken,
  looksValid: looksLikePersonalAccessToken,
};

/**
 * The flows the MCP tools call (`McpServices` of `@svc/mcp-server`), taken from the runtime's
 * dependencies, for every server that mounts the MCP plugin (apps/api and apps/mcp alike).
 */
export function mcpServicesOf(deps: AppDeps) {
  return {
    evaluations: deps.moat.evaluations,
    history: deps.moat.history,
    screener: deps.moat.screener,
    reports: deps.moat.reports,
    portfolios: deps.portfolio.portfolios,
    quotes: deps.portfolio.quotes,
    quotas: deps.quotas,
    narratives: deps.ai.narration,
  };
}
