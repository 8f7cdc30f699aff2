import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../auth/cookies.js';
import { errorResponses } from '../../problem.js';
import { cspNonce, developerPageCsp, renderDeveloperPage } from './developer-page.js';

/** `GET /account/developer`: the HTML page where a signed-in user manages personal access tokens. */
export const developerPageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/developer', {
    schema: {
      tags: ['account'],
      summary: 'Developer page: sign in, mint, list and revoke personal access tokens (HTML)',
      response: {
        200: {
          description: 'The page (signed-in view, or a sign-in form)',
          content: { 'text/html': { schema: z.string() } },
        },
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      const account = await app.auth.authenticate(request.cookies[SESSION_COOKIE]);
      const view = account
        ? ({ kind: 'signed-in', email: account.user.email, name: account.user.name } as const)
        : ({ kind: 'signed-out', oidcEnabled: app.oidc !== undefined } as const);
      const nonce = cspNonce();
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', developerPageCsp(nonce))
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .header('cache-control', 'no-store')
        .send(renderDeveloperPage(view, app.config.baseUrl, nonce));
    },
  });
};
