import { TickerSymbol } from '@svc/schemas';
import { HoldingPerformance, PerformanceQuery, PortfolioPerformance } from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { PortfolioParams } from './schemas.js';

const TAGS = ['portfolio'];
/** `PerformanceQuery` without its schema id: OpenAPI query parameters cannot be a `$ref`. */
const Query = z.strictObject(PerformanceQuery.shape);
const METHOD =
  'Daily valuation in EUR at ECB rates; TWR chains each day (inflows at its start, outflows at its end), so every external flow (deposit, withdrawal) starts a sub-period (GIPS, CFA Institute); MWR is the XIRR (actual/365, Brent) of the flows and the start and end values. Returns are fractions with their `basis`; a return that needs a close or rate missing beyond 4 days answers `unavailable` with the reason and first missing date, never 0. 400 `validation_failed` also for a `custom` period without `from`, a `from` after `to`, or a `to` after the last day valued (today).';

/**
 * `GET /portfolios/{id}/performance` and `GET /portfolios/{id}/holdings/{symbol}/performance`:
 * time- and money-weighted returns through the one performance flow (`getPerformance`,
 * `getHoldingPerformance`). Unknown or another user's portfolio → 404; a bad `period`, `from`,
 * `to` → 400 `validation_failed`.
 */
export const performanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { portfolios } = app.portfolio;
  app.get('/portfolios/:id/performance', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Time- and money-weighted returns of a portfolio, in EUR, currency effect apart',
      description: METHOD,
      params: PortfolioParams,
      querystring: Query,
      response: {
        200: jsonResponse('The portfolio’s performance over the period', PortfolioPerformance),
        ...errorResponses(404),
      },
    },
    handler: async (request) =>
      portfolios.getPerformance(currentUser(request).id, request.params.id, request.query),
  });

  app.get('/portfolios/:id/holdings/:symbol/performance', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Returns of one holding, in EUR and in its own currency',
      description: `${METHOD} 404 also for a symbol the portfolio never held.`,
      params: PortfolioParams.extend({ symbol: TickerSymbol }),
      querystring: Query,
      response: {
        200: jsonResponse('The holding’s performance over the period', HoldingPerformance),
        ...errorResponses(404),
      },
    },
    handler: async (request) =>
      portfolios.getHoldingPerformance(
        currentUser(request).id,
        request.params.id,
        request.params.symbol,
        request.query,
      ),
  });
};
