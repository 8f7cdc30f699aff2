import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../problem.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * Decorates `app.requirePersonalAccessToken`, an `onRequest` hook for PAT-authenticated routes
 * (the MCP server): sets `request.tokenUser`, or answers 401 `unauthorized` with
 * `WWW-Authenticate: Bearer` (CONTRACT §4) for a missing, unknown, revoked or expired token.
 */
export function registerBearerGuard(app: FastifyInstance): void {
  app.decorateRequest('tokenUser', null);
  const realm = `realm="${app.config.baseUrl}"`;
  app.decorate(
    'requirePersonalAccessToken',
    async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
      const token = bearerToken(request.headers.authorization);
      const user = token === undefined ? null : await app.verifyPersonalAccessToken(token);
      if (!user) {
        const challenge =
          token === undefined ? `Bearer ${realm}` : `Bearer ${realm}, error="invalid_token"`;
        throw new ApiError('unauthorized', 'A valid personal access token is required.', {
          headers: { 'www-authenticate': challenge },
        });
      }
      request.tokenUser = user;
    },
  );
}
