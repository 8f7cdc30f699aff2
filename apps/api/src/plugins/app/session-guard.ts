import {
  type AccountUser,
  type Authenticated,
  counterKeyDigest,
  insufficientScope,
  missingScopes,
} from '@svc/use-cases';
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
 * - `config: { auth: 'session-or-token', tokenScopes }` (read routes that scripts call too, such
 *   as the portfolio X-ray): an `Authorization: Bearer` personal access token with every scope of
 *   `tokenScopes` (403 `insufficient_scope` naming the missing ones), else the session as above;
 *   each call made with a token is recorded in its activity (`app.tokenActivity`), as MCP calls are.
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

  /**
   * The rate limit's key of a signed-in request: the user id as a digest, so a counter row names
   * no one (an erased account leaves no trace); made once per account object, which the session
   * memo hands every request of the session for `SESSION_CACHE_SECONDS` (a SHA-256 per request was
   * 5% of a cached evaluation's CPU in a profile of issue 37).
   */
  const userKeys = new WeakMap<Authenticated, string>();
  const keyGenerator = (request: FastifyRequest): string => {
    const { account } = request;
    if (!account) {
      // a personal access token on a `session-or-token` route: its owner, digested
      const owner = request.tokenUser;
      return owner ? `user:${counterKeyDigest(owner.id)}` : request.ip;
    }
    let key = userKeys.get(account);
    if (key === undefined) {
      key = `user:${counterKeyDigest(account.user.id)}`;
      userKeys.set(account, key);
    }
    return key;
  };

  const checkOrigin: Hook = async (request) => assertSameOrigin(request, allowed, false);

  /** When each token call of a `session-or-token` route started (for its audit row). */
  const tokenCalls = new WeakMap<FastifyRequest, { at: Date; started: number }>();

  /** A bearer token with the route's scopes when one is sent, else the session. */
  const sessionOrToken: Hook = async (request, reply) => {
    if (!/^bearer\s/i.test(request.headers.authorization ?? ''))
      return authenticate(request, reply);
    await app.requirePersonalAccessToken(request, reply);
    const principal = request.tokenPrincipal;
    if (!principal) return; // the guard answered 401
    tokenCalls.set(request, { at: new Date(), started: performance.now() });
    const missing = missingScopes(principal.scopes, request.routeOptions.config.tokenScopes ?? []);
    if (missing.length > 0) {
      throw insufficientScope(missing, `${request.method} ${request.routeOptions.url}`, baseUrl);
    }
  };

  /**
   * Records a call made with a token in the token's activity, as the MCP server records its tool
   * calls: the route (`GET /api/portfolios/:id/xray`) as the tool, `ok` below 400, `denied` for
   * `insufficient_scope`, else `error` with the problem's code; the path parameters and query as
   * the arguments; no quota. Awaited before the answer goes out, as on MCP. A bad token (401)
   * names no token and is not recorded, as on MCP.
   */
  const recordTokenCall = async (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ) => {
    const principal = request.tokenPrincipal;
    const call = tokenCalls.get(request);
    if (!principal || !call) return payload;
    tokenCalls.delete(request);
    const errorCode = reply.statusCode >= 400 ? problemCodeOf(payload) : undefined;
    await app.tokenActivity.record({
      tokenId: principal.tokenId,
      userId: principal.user.id,
      at: call.at,
      tool: `${request.method} ${request.routeOptions.url}`,
      outcome:
        reply.statusCode < 400 ? 'ok' : errorCode === 'insufficient_scope' ? 'denied' : 'error',
      errorCode,
      quotaSpent: {},
      durationMs: performance.now() - call.started,
      arguments: { ...(request.params as object), ...(request.query as object) },
    });
    return payload;
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = asArray(route.method);
    const either = route.config?.auth === 'session-or-token';
    if (route.config?.auth !== 'session' && !either) {
      if (methods.some((m) => STATE_CHANGING_METHODS.has(m))) {
        route.onRequest = [checkOrigin, ...asArray(route.onRequest)];
      }
      return;
    }
    route.onRequest = [either ? sessionOrToken : authenticate, ...asArray(route.onRequest)];
    if (either) route.onSend = [recordTokenCall, ...asArray(route.onSend)];
    const schema = route.schema ?? {};
    route.schema = {
      ...schema,
      security: either
        ? [
            { [SECURITY.session]: [] },
            { [SECURITY.bearer]: [...(route.config?.tokenScopes ?? [])] },
          ]
        : [{ [SECURITY.session]: [] }],
      response: { ...errorResponses(401, 403, 429), ...(schema.response as object | undefined) },
    };
    route.config ??= {};
    route.config.rateLimit ??= { max: rateLimitPerMinute, timeWindow: 60_000, keyGenerator };
  });
}

/** The `code` of a problem answer's JSON body, when it is one. */
function problemCodeOf(payload: unknown): string | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const code = (JSON.parse(payload) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The signed-in user of a `config: { auth: 'session' }` route (or the token's owner on a
 * `'session-or-token'` route).
 * @throws {ApiError} `unauthorized` when the route is not guarded (a programming error).
 */
export function currentUser(request: FastifyRequest): AccountUser {
  const user = request.account?.user ?? request.tokenUser;
  if (!user) throw new ApiError('unauthorized', 'Sign in first: no valid session.');
  return user;
}
