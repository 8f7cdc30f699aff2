import {
  type AppDeps,
  defaultPasswords,
  defaultTokenCrypto,
  openCredentialMemo,
} from '@svc/service';
import type { RevocableMemo } from '@svc/use-cases';
import {
  createAuthService,
  createLoginThrottle,
  createOidcClient,
  createPersonalAccessTokens,
  createSessionCache,
  createSignedTokens,
  createTokenActivity,
  createTokenMemo,
  scheduleActivityPurge,
} from '@svc/use-cases';
import type { FastifyInstance } from 'fastify';

/** {@link openCredentialMemo}, unsubscribed when the app closes. */
function openMemo<M extends RevocableMemo<object>>(
  app: FastifyInstance,
  deps: AppDeps,
  create: (options: { ttlMs: number; suspended?: boolean }) => M,
): M {
  const opened = openCredentialMemo(deps, create);
  app.addHook('onClose', async () => opened.close());
  return opened.memo;
}

/** Creates the domain services once and decorates the instance with them. */
export function decorateServices(app: FastifyInstance, deps: AppDeps): void {
  const now = deps.now ?? (() => new Date());
  const { config } = deps;
  const signer = createSignedTokens({ secret: config.sessionSecret, issuer: config.baseUrl });
  const sessionCache = openMemo(app, deps, createSessionCache);
  const auth = createAuthService({
    repos: deps.repos,
    passwords: deps.passwords ?? defaultPasswords,
    signer,
    quotas: deps.quotas,
    throttle: createLoginThrottle(deps.counters, deps.loginThrottle),
    sessionTtlSeconds: config.sessionTtlSeconds,
    signupEnabled: config.signupEnabled,
    now,
    sessionCache,
  });
  const tokens = createPersonalAccessTokens({
    repos: deps.repos,
    crypto: deps.tokenCrypto ?? defaultTokenCrypto,
    now,
    memo: openMemo(app, deps, createTokenMemo),
  });
  app.decorate('config', config);
  app.decorate('clock', now);
  app.decorate('signer', signer);
  app.decorate('auth', auth);
  const activity = createTokenActivity({
    repos: deps.repos,
    now,
    retentionDays: config.auditRetentionDays,
  });
  const stopPurge = scheduleActivityPurge(activity, {
    onError: (error) => app.log.warn({ err: error }, 'token activity purge failed'),
  });
  app.addHook('onClose', async () => stopPurge());
  app.decorate('personalAccessTokens', tokens);
  app.decorate('tokenActivity', activity);
  app.decorate('verifyPersonalAccessToken', tokens.verify);
  app.decorate('oidc', deps.oidc ?? (config.oidc ? createOidcClient(config.oidc) : undefined));
  app.decorate('moat', deps.moat);
}
