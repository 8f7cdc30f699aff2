import { type AccountUser, counterKeyDigest } from '@svc/use-cases';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { SESSION_COOKIE } from '../../auth/cookies.js';
import { assertSameOrigin, STATE_CHANGING_METHODS } from '../../auth/origin-check.js';
import { SECURITY } from '../../openapi.js';
import { ApiError, errorResponses } from '../../problem.js';
import { signInLocation, wantsHtml } from '../../routes/pages/page-shell.js';

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** A `GET` of a `config: { page: true }` route by a browser (`Accept` prefers `text/html`). */
const isPageForBrowser = (request: FastifyRequest): boolean =>
  request.method === 'GET' &&
  request.routeOptions.config.page === true &&
  wantsHtml(request.headers.accept);

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Session guard and cross-site protection, applied by route option:
 * - `config: { auth: 'session' }` puts `app.authenticate` first in `onRequest` (valid JWT AND a
 *   live session row; 401 otherwise; state-changing methods also need a same-site `Origin`),
 *   except that a browser asking for a page (`config: { page: true }`, `GET`, `Accept: text/html`)
 *   is redirected (303) to `/signin?next=<this path>` instead,
 *   a per-user rate limit, the cookie security requirement and 401/403/429 problem responses.
 * - every other state-changing route refuses a foreign `Origin` (login CSRF).
 */
export function registerSessionGuard(app: FastifyInstance): void {
  const { baseUrl, accountUrl, rateLimitPerMinute } = app.config;
  const allowed = new Set([new URL(baseUrl).origin, new URL(accountUrl).origin]);

  app.decorateRequest('account', null);

  const authenticate: Hook = async (request, reply) => {
    const account = await app.auth.authenticate(request.cookies[SESSION_COOKIE]);
    if (!account && isPageForBrowser(request)) {
      // a page (`config.page`) asked for by a browser: sign in first, then come back
      await reply.redirect(signInLocation(request.url), 303);
      return;
    }
    if (!account) throw new ApiError('unauthorized', 'Sign in first: no valid session.');
    assertSameOrigin(request, allowed, true);
    request.account = account;
  };
  app.decorate('authenticate', authenticate);

  const checkOrigin: Hook = async (request) => assertSameOrigin(request, allowed, false);

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = asArray(route.method);
    if (route.config?.auth !== 'session') {
      if (methods.some((m) => STATE_CHANGING_METHODS.has(m))) {
        route.onRequest = [checkOrigin, ...asArray(route.onRequest)];
      }
      return;
    }
    route.onRequest = [authenticate, ...asArray(route.onRequest)];
    const schema = route.schema ?? {};
    route.schema = {
      ...schema,
      security: [{ [SECURITY.session]: [] }],
      response: { ...errorResponses(401, 403, 429), ...(schema.response as object | undefined) },
    };
    route.config.rateLimit ??= {
      max: rateLimitPerMinute,
      timeWindow: 60_000,
      // the user id as a digest: a counter row names no one (an erased account leaves no trace)
      keyGenerator: (request: FastifyRequest) =>
        request.account ? `user:${counterKeyDigest(request.account.user.id)}` : request.ip,
    };
  });
}

/**
 * The signed-in user of a `config: { auth: 'session' }` route.
 * @throws {ApiError} `unauthorized` when the route is not guarded (a programming error).
 */
export function currentUser(request: FastifyRequest): AccountUser {
  if (!request.account) throw new ApiError('unauthorized', 'Sign in first: no valid session.');
  return request.account.user;
}
