import { type Actor, type TokenScope, UseCaseError } from '@svc/use-cases';
import type { FastifyReply, FastifyRequest } from 'fastify';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** Who a verified personal access token acts for: its owner, its id and its scopes. */
export interface McpPrincipal<U extends Actor = Actor> {
  readonly user: U;
  readonly tokenId: string;
  readonly scopes: readonly TokenScope[];
}

/** The personal access token check and the principal it leaves on each request it lets through. */
export interface PersonalAccessTokenGuard<U extends Actor> {
  /**
   * An `onRequest` hook: lets the request through when its bearer token is a live personal
   * access token, else throws `UseCaseError` `unauthorized` with `WWW-Authenticate: Bearer`
   * (`error="invalid_token"` when a token was sent; CONTRACT §4), which the server's error
   * handler answers as 401 problem+json.
   */
  readonly guard: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The owner, id and scopes of the request's verified token, or null (not guarded, or refused). */
  principalOf(request: FastifyRequest): McpPrincipal<U> | null;
}

/**
 * The PAT guard of the MCP endpoint, on top of the accounts flow's verifier
 * (`createPersonalAccessTokens(...).authenticate` of `@svc/use-cases`: `svc_pat_` shape, SHA-256
 * hash lookup, revoked and expired tokens refused, memoised per process and forgotten on
 * revocation or a change of scopes).
 *
 * @param options.verify - The owner, id and scopes of a token, or null.
 * @param options.realm - The `realm` of the challenge, the service's base URL.
 */
export function createPersonalAccessTokenGuard<U extends Actor>(options: {
  readonly verify: (token: string) => Promise<McpPrincipal<U> | null>;
  readonly realm: string;
}): PersonalAccessTokenGuard<U> {
  const owners = new WeakMap<FastifyRequest, McpPrincipal<U>>();
  const realm = `realm="${options.realm}"`;
  return {
    async guard(request) {
      const token = bearerToken(request.headers.authorization);
      const principal = token === undefined ? null : await options.verify(token);
      if (!principal) {
        const challenge =
          token === undefined ? `Bearer ${realm}` : `Bearer ${realm}, error="invalid_token"`;
        throw new UseCaseError('unauthorized', 'A valid personal access token is required.', {
          headers: { 'www-authenticate': challenge },
        });
      }
      owners.set(request, principal);
    },
    principalOf: (request) => owners.get(request) ?? null,
  };
}
