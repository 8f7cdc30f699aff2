import type { FastifyInstance } from 'fastify';
import { createAuthService } from '../../auth/auth-service.js';
import { createLoginThrottle } from '../../auth/login-throttle.js';
import { createOidcClient } from '../../auth/oidc.js';
import { createPersonalAccessTokens } from '../../auth/personal-access-tokens.js';
import { createSessionCache, type SessionCache } from '../../auth/session-cache.js';
import { createSignedTokens } from '../../auth/signed-tokens.js';
import { type AppDeps, defaultPasswords, defaultTokenCrypto } from '../../deps.js';

/**
 * The session memo: on the embedded database (one process owns every session) a plain memo; with
 * `DATABASE_URL` one that forgets what the database announces and remembers nothing while the
 * announcements cannot be received (no feed: no memo), so a revocation anywhere acts at once.
 */
function openSessionCache(app: FastifyInstance, deps: AppDeps): SessionCache {
  const ttlMs = deps.config.sessionCacheSeconds * 1000;
  if (deps.config.databaseUrl === undefined) return createSessionCache({ ttlMs });
  const feed = deps.sessionChanges;
  if (!feed) return createSessionCache({ ttlMs: 0 });
  const cache = createSessionCache({ ttlMs, suspended: !feed.listening });
  const unsubscribe = feed.subscribe({
    onChange: (change) => cache.forget(change),
    onListening: (listening) => (listening ? cache.resume() : cache.suspend()),
  });
  app.addHook('onClose', async () => unsubscribe());
  return cache;
}

/** Creates the domain services once and decorates the instance with them. */
export function decorateServices(app: FastifyInstance, deps: AppDeps): void {
  const now = deps.now ?? (() => new Date());
  const { config } = deps;
  const signer = createSignedTokens({ secret: config.sessionSecret, issuer: config.baseUrl });
  const sessionCache = openSessionCache(app, deps);
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
