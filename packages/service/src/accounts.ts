import {
  type AccountLifecycle,
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
  type OidcClient,
  type PersonalAccessTokens,
  type SignedTokens,
  scheduleActivityPurge,
  type TokenActivity,
} from '@svc/use-cases';
import { openCredentialMemo } from './credential-memo.js';
import { type AccountInputs, defaultPasswords, defaultTokenCrypto } from './deps.js';

/**
 * The account services of one process, built once by the composition root (`openRuntime`)
 * and shared by every server of it: sign-up, login and sessions (with the session memo), personal
 * access tokens (with the token memo; `tokens.authenticate` is the PAT guard's `verify`), the
 * tokens' recorded MCP calls with their hourly purge, the session JWT signer and the OIDC client.
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
