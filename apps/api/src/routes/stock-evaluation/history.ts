import {
  EvaluationChangesPage,
  EvaluationChangesQuery,
  EvaluationDiff,
  EvaluationDiffQuery,
  EvaluationHistoryPage,
  EvaluationHistoryQuery,
} from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jsonResponse } from '../../openapi.js';
import { errorResponses } from '../../problem.js';

const HISTORY = [
  'Every fresh evaluation of the company (a cache miss or `fresh=1` by any user, REST or MCP, and',
  "the operator's `fill-cache` batch, a new annual filing found in SEC's daily index: trigger",
  '`filing`, with the filing as `cause`) is kept with the fiscal years, provider and filings',
  '(accession numbers, filed dates) it was built from. Newest first, paged like the screener',
  '(`limit` 1–100, default 20). The history is shared like the cache: it is about companies and',
  'records no user. An unknown symbol is an empty page. No quota.',
].join(' ');

const DIFF = [
  'What moved between two kept evaluations of the company: `from` and `to` by id; `from` alone',
  'against the latest, `to` alone against the one kept before it, neither for the latest against',
  'the one before it. Per criterion: score, display value,',
  'headline metric and status, the yearly figures of its series that are new, gone or different,',
  'and the filings behind those fiscal years (`new` when the older evaluation did not use them);',
  'the total and verdict change; filings and fiscal years that came and went; a one-line',
  'summary. 404 when an id is not one of the symbol’s evaluations, or fewer than two are kept.',
].join(' ');

const CHANGES = [
  'The `evaluation.changed` events (CONTRACT §7) made at or after `since`, oldest first: one',
  'whenever a kept evaluation of a company differs from the one kept before it in verdict, by at',
  'least a point of total score, or in a criterion’s status, whatever caused it (a new annual',
  'filing found in SEC’s daily index, `fresh=1`, the `fill-cache` batch). Each names the previous',
  'and the new evaluation, the criteria whose status or score moved and, for a filing, its',
  'accession, form and filed date. The same events are delivered to webhooks',
  '(`/api/account/webhooks`). Page on with `cursor` (`nextCursor`, null on the last page). Shared',
  'by all users; no quota.',
].join(' ');

/**
 * `GET /api/stock-evaluation/changes` (issue 33, CONTRACT §7), `GET /api/stock-evaluation/history` and `GET /api/stock-evaluation/history/diff` (issue 21):
 * one flow call each over `app.moat.history`. MCP counterparts: `getEvaluationHistory`,
 * `compareEvaluations` (scope `moat:read`).
 */
export const evaluationHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/changes', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'What changed in the evaluations of companies: the evaluation.changed events',
      description: CHANGES,
      querystring: EvaluationChangesQuery,
      response: {
        200: jsonResponse('A page of events, oldest first', EvaluationChangesPage),
        ...errorResponses(),
      },
    },
    handler: (request) => app.moat.history.changes(request.query),
  });

  app.get('/history', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'The kept evaluations of a company, newest first',
      description: HISTORY,
      querystring: EvaluationHistoryQuery,
      response: {
        200: jsonResponse('A page of kept evaluations', EvaluationHistoryPage),
        ...errorResponses(),
      },
    },
    handler: (request) => app.moat.history.list(request.query),
  });

  app.get('/history/diff', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'What moved between two kept evaluations of a company',
      description: DIFF,
      querystring: EvaluationDiffQuery,
      response: {
        200: jsonResponse('The diff', EvaluationDiff),
        ...errorResponses(404),
      },
    },
    handler: (request) => app.moat.history.diff(request.query),
  });
};
