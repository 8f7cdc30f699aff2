import type { OidcClient } from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OIDC_COOKIE, OIDC_COOKIE_PATH, setSessionCookie } from '../../auth/cookies.js';
import { ApiError, errorResponses } from '../../problem.js';

/** Lifetime of the signed state cookie between the redirect and the callback. */
const STATE_TTL_SECONDS = 600;
const STATE_PURPOSE = 'oidc-state';

/** A same-site path to return to after sign-in; anything else falls back to `/`. */
export function safeReturnPath(value: string | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  return value;
}

const redirectResponse = (description: string) =>
  z.undefined().describe(`${description} (see the Location header)`);

/**
 * OpenID Connect sign-in, authorization code + PKCE (CONTRACT §2): `/login` redirects to the
 * provider with state, nonce and a PKCE challenge whose secrets travel in a signed, HttpOnly,
 * 10-minute cookie; `/callback` checks them, redeems the code and opens a session.
 */
export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const { cookieSecure } = app.config;
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    path: OIDC_COOKIE_PATH,
    secure: cookieSecure,
  } as const;

  const requireOidc = (): OidcClient => {
    if (!app.oidc) throw new ApiError('not_found', 'OpenID Connect sign-in is not configured.');
    return app.oidc;
  };

  app.get('/login', {
    schema: {
      tags: ['auth'],
      summary: 'Start OpenID Connect sign-in (302 to the provider)',
      querystring: z.object({
        returnTo: z.string().max(512).optional().describe('Same-site path to return to; default /'),
      }),
      response: {
        302: redirectResponse('Redirect to the OpenID provider'),
        ...errorResponses(404, 503),
      },
    },
    handler: async (request, reply) => {
      const { url, checks } = await requireOidc().start();
      const payload = { ...checks, returnTo: safeReturnPath(request.query.returnTo) };
      const signed = await app.signer.signPayload(
        STATE_PURPOSE,
        payload,
        app.clock(),
        STATE_TTL_SECONDS,
      );
      reply.setCookie(OIDC_COOKIE, signed, { ...cookieOptions, maxAge: STATE_TTL_SECONDS });
      return reply.redirect(url.href, 302);
    },
  });

  app.get('/callback', {
    schema: {
      tags: ['auth'],
      summary: 'OpenID Connect callback: sets the session cookie, 302 to /',
      querystring: z.looseObject({
        code: z.string().optional(),
        state: z.string().optional(),
        error: z.string().optional(),
        error_description: z.string().optional(),
      }),
      response: {
        302: redirectResponse('Signed in; redirect to / (or the requested page)'),
        ...errorResponses(401, 403, 404, 409, 503),
      },
    },
    handler: async (request, reply) => {
      const oidc = requireOidc();
      const stored = request.cookies[OIDC_COOKIE];
      reply.clearCookie(OIDC_COOKIE, cookieOptions);
      const state = stored && (await app.signer.verifyPayload(STATE_PURPOSE, stored, app.clock()));
      if (
        !state ||
        typeof state.state !== 'string' ||
        typeof state.nonce !== 'string' ||
        typeof state.codeVerifier !== 'string'
      ) {
        throw new ApiError('unauthorized', 'The sign-in attempt expired or was not started here.');
      }
      if (request.query.error) {
        throw new ApiError(
          'unauthorized',
          `The identity provider refused: ${request.query.error}.`,
        );
      }
      const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      const identity = await oidc.finish(new URLSearchParams(raw), {
        state: state.state,
        nonce: state.nonce,
        codeVerifier: state.codeVerifier,
      });
      const opened = await app.auth.signInWithOidc(identity, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      setSessionCookie(reply, opened.jwt, opened.expiresAt, cookieSecure);
      const returnTo = typeof state.returnTo === 'string' ? state.returnTo : '/';
      return reply.redirect(safeReturnPath(returnTo), 302);
    },
  });
};
