import { createPersonalAccessTokenGuard } from '@svc/mcp-server';
import type { FastifyInstance } from 'fastify';

/**
 * Decorates `app.requirePersonalAccessToken`, an `onRequest` hook for PAT-authenticated routes
 * (the MCP server), with the guard of `@svc/mcp-server` over this app's token verifier: sets
 * `request.tokenUser` and `request.tokenPrincipal` (with the token's id and scopes), or answers 401 `unauthorized` with `WWW-Authenticate: Bearer`
 * (CONTRACT §4) for a missing, unknown, revoked or expired token.
 */
export function registerBearerGuard(app: FastifyInstance): void {
  app.decorateRequest('tokenUser', null);
  app.decorateRequest('tokenPrincipal', null);
  const tokens = createPersonalAccessTokenGuard({
    verify: (token) => app.personalAccessTokens.authenticate(token),
    realm: app.config.baseUrl,
  });
  app.decorate('requirePersonalAccessToken', async (request, reply) => {
    await tokens.guard(request, reply);
    request.tokenPrincipal = tokens.principalOf(request);
    request.tokenUser = request.tokenPrincipal?.user ?? null;
  });
}
