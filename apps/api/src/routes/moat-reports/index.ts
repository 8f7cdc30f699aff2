import { parseTagList, ReportDetail, ReportSummary, SaveReportInput } from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { CreatedReport, ReportListQuery, ReportParams } from '../../schemas/moat.js';

/**
 * Largest accepted body of `POST /api/moat-reports`, bytes (512 KiB; 413 `payload_too_large`
 * beyond). It leaves room for an `evaluationJson` of the maximum 200,000 characters once escaped
 * inside the JSON body.
 */
export const REPORT_BODY_LIMIT_BYTES = 524_288;

/** The saved-report library (interface spec 4.2, 2.6; CONTRACT §4), scoped to the user. */
export const moatReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: "List the user's saved reports, newest first",
      querystring: ReportListQuery,
      response: { 200: jsonResponse('The reports', z.array(ReportSummary)) },
    },
    handler: async (request) =>
      app.moat.reports.list(currentUser(request).id, parseTagList(request.query.tags)),
  });

  app.post('', {
    config: { auth: 'session' },
    bodyLimit: REPORT_BODY_LIMIT_BYTES,
    schema: {
      tags: ['moat'],
      summary: 'Save an evaluation in the library',
      description:
        'The evaluation as `evaluationJson` (a JSON string, interface spec 2.6; at most 200,000 characters) or as the `evaluation` object, as the MCP tool `saveMoatReport` takes it; one is required (with both, `evaluationJson` wins). It must be a MoatEvaluation of the same `symbol` (400 with field errors otherwise). Summary fields default to the evaluation’s. Tags are trimmed and lower-cased. Bodies over 512 KiB answer 413.',
      body: SaveReportInput,
      response: {
        201: jsonResponse('The id of the saved report', CreatedReport),
        ...errorResponses(413, 415),
      },
    },
    handler: async (request, reply) => {
      const created = await app.moat.reports.save(currentUser(request).id, request.body);
      return reply.code(201).send(created);
    },
  });

  app.get('/:id', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'One saved report with its evaluation',
      params: ReportParams,
      response: {
        200: jsonResponse('The report', ReportDetail),
        ...errorResponses(404),
      },
    },
    handler: async (request) => app.moat.reports.get(currentUser(request).id, request.params.id),
  });

  app.delete('/:id', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'Delete a saved report',
      params: ReportParams,
      response: { 204: z.undefined().describe('Deleted'), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await app.moat.reports.remove(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  });
};
