import { portfolioXrayPage } from '@svc/moat-card';
import { PortfolioId } from '@svc/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { cspNonce, sendHtml } from '../pages/page-shell.js';

/** The page's CSP: its one nonce'd style, nothing else (no script, no fetch, no framing). */
const csp = (nonce: string) =>
  `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/**
 * `GET /xray/{portfolioId}` (issue 38): the portfolio moat X-ray as a page beside the moat card
 * (`GET /evaluation/{symbol}`, which each holding links to), for a signed-in user.
 */
export const xrayPageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { xray, portfolios } = app.portfolio;
  app.get('/:portfolioId', {
    config: { auth: 'session' },
    schema: {
      tags: ['portfolio'],
      summary: 'The moat X-ray of a portfolio (HTML)',
      description:
        'The answer of `GET /api/portfolios/{id}/xray` as a server-rendered page (no script): value, value-weighted score, concentration, the share per verdict band, the holdings past the sell trigger, and every holding with its weight, verdict or reason, valuation signals and a link to its moat card. 404 for a portfolio that is not the user’s. Informational only.',
      params: z.object({ portfolioId: PortfolioId }),
      response: {
        200: { description: 'The page', content: { 'text/html': { schema: z.string() } } },
        ...errorResponses(404),
      },
    },
    handler: async (request, reply) => {
      const { id, plan } = currentUser(request);
      const answer = await xray.getXray({ id, plan }, request.params.portfolioId);
      const name = (await portfolios.listPortfolios(id)).find(
        (p) => p.id === answer.portfolioId,
      )?.name;
      const nonce = cspNonce();
      return sendHtml(
        reply,
        portfolioXrayPage(answer, {
          nonce,
          ...(name ? { name } : {}),
          cardHref: (ticker) => `/evaluation/${encodeURIComponent(ticker)}`,
        }),
        { csp: csp(nonce), cacheControl: 'private, no-store' },
      );
    },
  });
};
