import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../auth/cookies.js';
import { ApiError, errorResponses } from '../../problem.js';
import { cspNonce, pageCsp, sendHtml, signInLocation, wantsHtml } from '../pages/page-shell.js';
import { renderDeveloperPage } from './developer-page.js';

/** `GET /account/developer`: the HTML page where a signed-in user manages personal access tokens. */
export const developerPageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/developer', {
    schema: {
      tags: ['account'],
      summary: 'Developer page: sign in, mint, list and revoke personal access tokens (HTML)',
      response: {
        200: {
          description: 'The page (a signed-out browser is redirected to `/signin?next=`)',
          content: { 'text/html': { schema: z.string() } },
        },
        303: z.undefined().describe('Signed out: see `/signin?next=/account/developer`'),
        ...errorResponses(401),
      },
    },
    handler: async (request, reply) => {
      const account = await app.auth.authenticate(request.cookies[SESSION_COOKIE]);
      if (!account) {
        if (wantsHtml(request.headers.accept)) {
          return reply.redirect(signInLocation(request.url), 303);
        }
        throw new ApiError('unauthorized', 'Sign in first: no valid session (sign in at /signin).');
      }
      const view = { email: account.user.email, name: account.user.name };
      const nonce = cspNonce();
      return sendHtml(reply, renderDeveloperPage(view, app.config.baseUrl, nonce), {
        csp: pageCsp(nonce),
      });
    },
  });
};
