import { CRITERION_KEYS, MAX_TOTAL_SCORE } from '@svc/schemas';
import { jsonBody } from '@svc/service';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { StockEvaluation, StockEvaluationQuery } from '../../schemas/moat.js';
import { evaluationHistoryRoutes } from './history.js';

const DESCRIPTION = [
  `Scores the company against the ${CRITERION_KEYS.length} criteria of the moat framework (total out of ${MAX_TOTAL_SCORE}, verdict)`,
  'with valuation signals. Served from the shared evaluation cache when present (`_cached: true`,',
  '`_cachedAt`), free of quota for any signed-in user. A cache miss, or `fresh=1`, fetches',
  "fundamentals through the server's provider, evaluates, stores the result (`_evaluatedAt`) and",
  'consumes one unit of the `stock_evaluation` quota; a fetch that fails (404 insufficient data,',
  '503 provider down) gives the unit back. Concurrent requests for one uncached symbol share one',
  'fetch (per server process). Every fresh evaluation is kept: see',
  '`/api/stock-evaluation/history`. `asOf=YYYY-MM-DD` evaluates the company as of that day, on the',
  'figures filed by then (cached apart, never in the history; 422 `insufficient_history` when too few',
  'years had been filed). Every evaluation carries `asOf`, `methodologyVersion` and `dataQuality`; a',
  'cached one of an older methodology is computed again, free. Informational only, not financial advice.',
].join(' ');

/**
 * `GET /api/stock-evaluation` (interface spec 4.2; CONTRACT §3): one flow call; the body is
 * checked against the response schema and, for cache hits (frozen by the flow), serialized once
 * per answer object (`jsonBody` of `@svc/service`).
 * Also registers the evaluation history routes (`./history.ts`).
 */
export const stockEvaluationRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(evaluationHistoryRoutes);
  // The body checked against the response schema (the zod serializer's check) and serialized
  // once per frozen answer: a cached evaluation is frozen once by the flow (`jsonBody`).
  const serialize = (served: z.input<typeof StockEvaluation>) =>
    JSON.stringify(StockEvaluation.encode(served));
  app.get('', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'Moat evaluation of a company, from the cache or freshly fetched',
      description: DESCRIPTION,
      querystring: StockEvaluationQuery,
      response: {
        200: jsonResponse('The evaluation', StockEvaluation),
        ...errorResponses(404, 422, 503),
      },
    },
    handler: async (request, reply) => {
      const { id, plan } = currentUser(request);
      const served = await app.moat.evaluations.getEvaluation({
        symbol: request.query.symbol,
        fresh: request.query.fresh === '1',
        actor: { id, plan },
        asOf: request.query.asOf,
      });
      // Bytes are sent as they are, with the JSON content type (checked by `serialize`).
      const raw: FastifyReply = reply;
      return raw.type('application/json; charset=utf-8').send(jsonBody(served, serialize));
    },
  });
};
