import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jsonResponse } from '../../openapi.js';
import { errorResponses } from '../../problem.js';
import { MoatScreenerQuery, MoatScreenerResult } from '../../schemas/moat.js';

const DESCRIPTION = [
  'Filters, sorts and pages the shared cache of stored evaluations (indexed SQL; bounds are',
  'inclusive; rows without a P/E or market cap are left out when such a bound is set and sort',
  'last). `limit` is 1–100 (default 20; 400 beyond). With `action=meta` the answer is the cache',
  'statistics `{ count, lastUpdatedAt, verdicts, sectors, scoreRange }` instead of a page',
  '`{ items, page, limit, total, totalPages }`. `minScoreChange` / `maxScoreChange` bound the',
  'change of the total score since the previous evaluation of the company (each row carries it',
  'as `scoreChange`, null when evaluated once; such rows are left out when a change bound is',
  'set); e.g. `maxScoreChange=-0.01` lists the companies whose score fell. Each row carries',
  '`dataQualityFlags`: how many data-quality flags its evaluation has, and `dataQualityCodes`:',
  'their distinct codes (e.g. `provider_mismatch`; the flags themselves are in the evaluation’s',
  '`dataQuality`).',
].join(' ');

/** `GET /api/moat-screener` (interface spec 4.2; CONTRACT §4). */
export const moatScreenerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'Screen the cached evaluations, or read the cache statistics (action=meta)',
      description: DESCRIPTION,
      querystring: MoatScreenerQuery,
      response: {
        200: jsonResponse('A page of screener rows, or the statistics', MoatScreenerResult),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const { action, ...query } = request.query;
      return action === 'meta' ? app.moat.screener.meta() : app.moat.screener.screen(query);
    },
  });
};
