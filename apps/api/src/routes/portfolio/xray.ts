import { mapperAnswers } from '@svc/service';
import { XRAY_REDACTION, XrayAnswer } from '@svc/use-cases';
import { type FastifyPluginAsyncZod, serializerCompiler } from 'fastify-type-provider-zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { PortfolioParams } from './schemas.js';

const DESCRIPTION = [
  'Per holding: its instrument, its weight and value in EUR (the stored values of the holdings',
  'read; weights are shares of `valueEur`, the valued holdings without cash), its cached moat',
  'evaluation (total, verdict, date, data-quality flags) and valuation signals, or the `reason` it',
  'has none (`fund`, `not-a-share`, `unresolved`, `not-sec-filer`, `no-data`, `pending`, `quota`,',
  '`not-evaluated`). For the portfolio: the share per verdict band and unrated, the value-weighted',
  'score (percent of the maximum), the holdings past the sell trigger (P/E ≥ 40), the unvalued ones',
  'and the concentration (largest holding, top five, Herfindahl index on 0–1 and its inverse, those',
  'above 50 %, Ghostfolio’s cluster-risk default). Reads the evaluation cache only: evaluations it',
  'lacks are queued in the background within the user’s `stock_evaluation` quota and listed in',
  '`pending`; ask again later. A session, or a personal access token with `portfolio:read` and',
  '`moat:read` (without `portfolio:values` the EUR amounts are left out and `amountsHidden` is',
  'true). The same answer as the MCP tool `getPortfolioXray`. Informational only.',
].join(' ');

/** `GET /portfolios/{id}/xray` (issue 38, CONTRACT §9): the portfolio moat X-ray. */
export const xrayRoutes: FastifyPluginAsyncZod = async (app) => {
  const { xray } = app.portfolio;
  app.get('/portfolios/:id/xray', {
    config: { auth: 'session-or-token', tokenScopes: ['portfolio:read', 'moat:read'] },
    // the flow answers exactly the schema: written without a second zod pass
    serializerCompiler: mapperAnswers(serializerCompiler),
    schema: {
      tags: ['portfolio'],
      summary: 'The moat X-ray of a portfolio: moat, sell trigger and weight of every holding',
      description: DESCRIPTION,
      params: PortfolioParams,
      response: {
        200: jsonResponse('The X-ray', XrayAnswer),
        ...errorResponses(404),
      },
    },
    handler: async (request) => {
      const { id, plan } = currentUser(request);
      const answer = await xray.getXray({ id, plan }, request.params.id);
      // a token without portfolio:values sees no EUR amounts (as the MCP tool)
      const token = request.tokenPrincipal;
      return token && !token.scopes.includes(XRAY_REDACTION.scope)
        ? (XRAY_REDACTION.redact(answer) as XrayAnswer)
        : answer;
    },
  });
};
