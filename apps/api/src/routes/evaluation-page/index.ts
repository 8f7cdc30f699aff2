import { moatCardPage } from '@svc/moat-card';
import { TickerSymbol } from '@svc/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { cspNonce, sendHtml } from '../pages/page-shell.js';

const DESCRIPTION = [
  'The moat card of a company as an HTML page, the same card an MCP host shows beside',
  '`getMoatEvaluation`: verdict and total against the bands, each criterion with its status,',
  'score, value and its yearly trend as a chart with the benchmark line, the fiscal years and the',
  'source. The evaluation is the one `GET /api/stock-evaluation?symbol=` answers (cached, or',
  'fetched on a cache miss for one `stock_evaluation` unit). Server-rendered: no script. Errors',
  'answer problem+json as the API does (401 without a session, 404 for an unknown company);',
  'a signed-out browser (`Accept: text/html`) is redirected (303) to `/signin?next=` instead.',
  'Informational only, not financial advice.',
].join(' ');

/** The page's CSP: its one nonce'd style, nothing else (no script, no fetch, no framing). */
function cardPageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** `GET /evaluation/{symbol}` (CONTRACT §8): the moat card as a page, for a signed-in user. */
export const evaluationPageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/:symbol', {
    config: { auth: 'session', page: true },
    schema: {
      tags: ['moat'],
      summary: 'The moat card of a company (HTML)',
      description: DESCRIPTION,
      params: z.object({ symbol: TickerSymbol }),
      response: {
        200: { description: 'The card', content: { 'text/html': { schema: z.string() } } },
        303: z
          .undefined()
          .describe('A signed-out browser: see `/signin?next=/evaluation/{symbol}`'),
        ...errorResponses(404, 503),
      },
    },
    handler: async (request, reply) => {
      const { id, plan } = currentUser(request);
      const evaluation = await app.moat.evaluations.getEvaluation({
        symbol: request.params.symbol,
        fresh: false,
        actor: { id, plan },
      });
      const nonce = cspNonce();
      return sendHtml(reply, moatCardPage(evaluation, { nonce }), {
        csp: cardPageCsp(nonce),
        cacheControl: 'private, no-store',
      });
    },
  });
};
