import { type AppDeps, defaultPasswords, defaultTokenCrypto } from '@svc/service';
import type { RevocableMemo } from '@svc/use-cases';
import {
  createAuthService,
  createLoginThrottle,
  createOidcClient,
  createPersonalAccessTokens,
  createSessionCache,
  createSignedTokens,
  createTokenMemo,
} from '@svc/use-cases';
import type { FastifyInstance } from 'fastify';

/**
 * A memo of verified credentials (sessions or tokens). On the embedded database (one process owns
 * every session and token) a plain memo; with `DATABASE_URL` one that forgets what the database
 * announces and remembers nothing while the announcements cannot be received (no feed: no memo),
 * so a revocation anywhere acts at once.
 */
function openMemo<M extends RevocableMemo<object>>(
  app: FastifyInstance,
  deps: AppDeps,
  create: (options: { ttlMs: number; suspended?: boolean }) => M,
): M {
  const ttlMs = deps.config.sessionCacheSeconds * 1000;
  if (deps.config.databaseUrl === undefined) return create({ ttlMs });
  const feed = deps.sessionChanges;
  if (!feed) return create({ ttlMs: 0 });
  const memo = create({ ttlMs, suspended: !feed.listening });
  const unsubscribe = feed.subscribe({
    onChange: (change) => memo.forget(change),
    onListening: (listening) => (listening ? memo.resume() : memo.suspend()),
  });
  app.addHook('onClose', async () => unsubscribe());
  return memo;
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
  app.decorate('personalAccessTokens', tokens);
  app.decorate('verifyPersonalAccessToken', tokens.verify);
  app.decorate('oidc', deps.oidc ?? (config.oidc ? createOidcClient(config.oidc) : undefined));
  app.decorate('moat', deps.moat);
}
