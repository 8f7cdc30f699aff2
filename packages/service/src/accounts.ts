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
import {
  type AccountLifecycle,
  type AccountRepositories,
  type AuthService,
  createAccountLifecycle,
  createAuthService,
  createLoginThrottle,
  createOidcClient,
  createPersonalAccessTokens,
  createSessionCache,
  createSignedTokens,
  createTokenActivity,
  createTokenMemo,
  type LoginThrottleOptions,
  type OidcClient,
  type PasswordHasher,
  type PersonalAccessTokens,
  type QuotaUsageReader,
  type SessionChangeFeed,
  type SignedTokens,
  scheduleActivityPurge,
  type TokenActivity,
  type TokenCrypto,
} from '@svc/use-cases';
import type { AiFlows } from './advisor/flows.js';
import type { AppConfig } from './config.js';
import { openCredentialMemo } from './credential-memo.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import type { MoatServices } from './moat/services.js';
import type { PortfolioFlows } from './portfolio/flows.js';

/** Makes a counter shared by every process (`createSharedCounter` of `@svc/portfolio-store`). */
export type CounterFactory = (options: SharedCounterOptions) => SharedCounter;

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
 * The account services of one process, built once by the composition root (`openRuntime`)
 * and shared by every server of it: sign-up, login and sessions (with the session memo), personal
 * access tokens (with the token memo; `tokens.authenticate` is the PAT guard's `verify`), the
 * tokens' recorded calls (MCP and REST) with their hourly purge, the session JWT signer and the OIDC client.
 */
export interface AccountServices {
  /** The clock every account service uses (`deps.now`, default the real clock). */
  readonly now: () => Date;
  /** HS256 session JWTs and OIDC state (`SESSION_SECRET`, issuer `BASE_URL`). */
  readonly signer: SignedTokens;
  /** Register, login, logout, sessions (`createAuthService`). */
  readonly auth: AuthService;
  /**
   * Change the password (other sessions end) and erase the account, both at once on every process
   * (`createAccountLifecycle`).
   */
  readonly lifecycle: AccountLifecycle;
  /** Mint, list, revoke and verify personal access tokens (`createPersonalAccessTokens`). */
  readonly tokens: PersonalAccessTokens;
  /** The audit log of personal access tokens (`createTokenActivity`, `AUDIT_RETENTION_DAYS`). */
  readonly activity: TokenActivity;
  /** The OIDC client when `OIDC_*` is configured (or given in `deps.oidc`), else undefined. */
  readonly oidc: OidcClient | undefined;
  /** Stops the purge schedule and unsubscribes both memos from the session-change feed. */
  close(): void;
}

/** Options of {@link createAccountServices}. */
export interface AccountServicesOptions {
  /** Told when the hourly purge of old token activity fails (it tries again the next hour). */
  readonly onPurgeError?: (error: unknown) => void;
}

/**
 * Creates the account services once over the runtime's inputs (repositories, quotas, shared
 * counters, the session-change feed): the session and token memos follow the feed
 * (`openCredentialMemo`), so a logout or revocation in any process acts at once in every other;
 * the token activity purge is scheduled here and stopped by `close()`.
 *
 * @example
 * const accounts = createAccountServices(inputs, { onPurgeError: (e) => log.warn(e) });
 * const user = await accounts.tokens.authenticate(bearer);
 */
export function createAccountServices(
  deps: AccountInputs,
  options: AccountServicesOptions = {},
): AccountServices {
  const now = deps.now ?? (() => new Date());
  const { config } = deps;
  const signer = createSignedTokens({ secret: config.sessionSecret, issuer: config.baseUrl });
  const sessionMemo = openCredentialMemo(deps, createSessionCache);
  const tokenMemo = openCredentialMemo(deps, createTokenMemo);
  const passwords = deps.passwords ?? defaultPasswords;
  const throttle = createLoginThrottle(deps.counters, deps.loginThrottle);
  const auth = createAuthService({
    repos: deps.repos,
    passwords,
    signer,
    quotas: deps.quotas,
    throttle,
    sessionTtlSeconds: config.sessionTtlSeconds,
    signupEnabled: config.signupEnabled,
    now,
    sessionCache: sessionMemo.memo,
  });
  const lifecycle = createAccountLifecycle({
    repos: deps.repos,
    passwords,
    throttle,
    now,
    forget: (change) => {
      sessionMemo.memo.forget(change);
      tokenMemo.memo.forget(change);
    },
  });
  const tokens = createPersonalAccessTokens({
    repos: deps.repos,
    crypto: deps.tokenCrypto ?? defaultTokenCrypto,
    now,
    memo: tokenMemo.memo,
  });
  const activity = createTokenActivity({
    repos: deps.repos,
    now,
    retentionDays: config.auditRetentionDays,
  });
  const stopPurge = scheduleActivityPurge(activity, {
    onError: options.onPurgeError ?? (() => {}),
  });
  return {
    now,
    signer,
    auth,
    lifecycle,
    tokens,
    activity,
    oidc: deps.oidc ?? (config.oidc ? createOidcClient(config.oidc) : undefined),
    close() {
      stopPurge();
      sessionMemo.close();
      tokenMemo.close();
    },
  };
}
