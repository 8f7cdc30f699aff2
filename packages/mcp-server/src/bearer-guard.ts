import { type Actor, UseCaseError } from '@svc/use-cases';
import type { FastifyReply, FastifyRequest } from 'fastify';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** The personal access token check and the owner it leaves on each request it lets through. */
export interface PersonalAccessTokenGuard<U extends Actor> {
  /**
   * An `onRequest` hook: lets the request through when its bearer token is a live personal
   * access token, else throws `UseCaseError` `unauthorized` with `WWW-Authenticate: Bearer`
   * (`error="invalid_token"` when a token was sent; CONTRACT §4), which the server's error
   * handler answers as 401 problem+json.
   */
  readonly guard: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The owner of the request's verified token, or null (not guarded, or refused). */
  actorOf(request: FastifyRequest): U | null;
}

/**
 * The PAT guard of the MCP endpoint, on top of the accounts flow's verifier
 * (`createPersonalAccessTokens(...).verify` of `@svc/use-cases`: `svc_pat_` shape, SHA-256 hash
 * lookup, revoked and expired tokens refused, memoised per process and forgotten on revocation).
 *
 * @param options.verify - The owner of a token, or null.
 * @param options.realm - The `realm` of the challenge, the service's base URL.
 */
export function createPersonalAccessTokenGuard<U extends Actor>(options: {
  readonly verify: (token: string) => Promise<U | null>;
  readonly realm: string;
}): PersonalAccessTokenGuard<U> {
  const owners = new WeakMap<FastifyRequest, U>();
  const realm = `realm="${options.realm}"`;
  return {
    async guard(request) {
      const token = bearerToken(request.headers.authorization);
      const user = token === undefined ? null : await options.verify(token);
      if (!user) {
        const challenge =
          token === undefined ? `Bearer ${realm}` : `Bearer ${realm}, error="invalid_token"`;
        throw new UseCaseError('unauthorized', 'A valid personal access token is required.', {
          headers: { 'www-authenticate': challenge },
        });
      }
      owners.set(request, user);
    },
    actorOf: (request) => owners.get(request) ?? null,
  };
}
