import type { FastifyInstance } from 'fastify';
import { createAuthService } from '../../auth/auth-service.js';
import { createLoginThrottle } from '../../auth/login-throttle.js';
import { createOidcClient } from '../../auth/oidc.js';
import { createPersonalAccessTokens } from '../../auth/personal-access-tokens.js';
import { createSessionCache } from '../../auth/session-cache.js';
import { createSignedTokens } from '../../auth/signed-tokens.js';
import { type AppDeps, defaultPasswords, defaultTokenCrypto } from '../../deps.js';

/** Creates the domain services once and decorates the instance with them. */
export function decorateServices(app: FastifyInstance, deps: AppDeps): void {
  const now = deps.now ?? (() => new Date());
  const { config } = deps;
  const signer = createSignedTokens({ secret: config.sessionSecret, issuer: config.baseUrl });
  const auth = createAuthService({
    repos: deps.repos,
    passwords: deps.passwords ?? defaultPasswords,
    signer,
    quotas: deps.quotas,
    throttle: createLoginThrottle(deps.loginThrottle),
    sessionTtlSeconds: config.sessionTtlSeconds,
    signupEnabled: config.signupEnabled,
    now,
    sessionCache: createSessionCache({ ttlMs: config.sessionCacheSeconds * 1000 }),
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
