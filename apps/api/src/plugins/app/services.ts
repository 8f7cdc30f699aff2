import type { AppDeps } from '@svc/service';
import type { FastifyInstance } from 'fastify';

/**
 * Decorates the instance with the services the composition root built once (`openRuntime` of
 * `@svc/service`): the account services (`deps.accounts`: auth, sessions, personal access tokens,
 * token activity, signer, OIDC client), the moat, portfolio and AI flows, and the migration check
 * of `/readyz`: every route reaches what it calls through these decorations.
 */
export function decorateServices(app: FastifyInstance, deps: AppDeps): void {
  const { accounts } = deps;
  app.decorate('config', deps.config);
  app.decorate('clock', accounts.now);
  app.decorate('signer', accounts.signer);
  app.decorate('auth', accounts.auth);
  app.decorate('accountLifecycle', accounts.lifecycle);
  app.decorate('personalAccessTokens', accounts.tokens);
  app.decorate('tokenActivity', accounts.activity);
  app.decorate('verifyPersonalAccessToken', accounts.tokens.verify);
  app.decorate('oidc', accounts.oidc);
  app.decorate('moat', deps.moat);
  app.decorate('portfolio', deps.portfolio);
  app.decorate('ai', deps.ai);
  app.decorate('pendingMigrations', deps.pendingMigrations);
}
