import type { MoatReportsRepository } from '@svc/portfolio-store';
import { MoatEvaluation, Tags, TickerSymbol } from '@svc/schemas';
import { z } from 'zod';
import { UseCaseError } from '../errors.js';

/** Longest accepted `evaluationJson`, characters (an evaluation is about 10 kB). */
export const MAX_EVALUATION_JSON_LENGTH = 200_000;

/**
 * Request fields of a saved MOAT report (interface spec 2.6), as `POST /api/moat-reports` and the
 * MCP tool `saveMoatReport` both accept them: the evaluation as `evaluationJson` (the spec's
 * field, a JSON string) or as the `evaluation` object; one of the two is required (with both,
 * `evaluationJson` wins).
 */
export const SaveReportInput = z
  .object({
    symbol: TickerSymbol,
    companyName: z.string().max(200).optional(),
    evaluationJson: z
      .string()
      .min(2)
      .max(MAX_EVALUATION_JSON_LENGTH)
      .optional()
      .describe('A MoatEvaluation serialised as a JSON string (or give `evaluation`)'),
    evaluation: MoatEvaluation.optional().describe(
      'The MoatEvaluation as an object (or give `evaluationJson`)',
    ),
    totalScore: z.number().finite().min(0).max(100).optional(),
    maxScore: z.number().finite().min(0).max(100).optional(),
    verdict: z.string().max(100).optional(),
    tags: Tags.optional(),
  })
  .meta({
    id: 'SaveReportInput',
    // What `evaluationOf` enforces, stated in the JSON Schema (zod has no "one of these keys").
    anyOf: [{ required: ['evaluationJson'] }, { required: ['evaluation'] }],
  });
export type SaveReportInput = z.infer<typeof SaveReportInput>;

/** A saved report in the list (CONTRACT §4). */
export const ReportSummary = z
  .object({
    id: z.string(),
    symbol: z.string(),
    companyName: z.string().nullable(),
    totalScore: z.number().nullable(),
    maxScore: z.number().nullable(),
    verdict: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: z.string(),
  })
  .meta({ id: 'MoatReportSummary' });
export type ReportSummary = z.infer<typeof ReportSummary>;

/** A saved report with its evaluation (CONTRACT §4, `GET /api/moat-reports/{id}`). */
export const ReportDetail = ReportSummary.extend({ evaluation: MoatEvaluation }).meta({
  id: 'MoatReport',
});
export type ReportDetail = z.infer<typeof ReportDetail>;

/** Parses `evaluationJson`; throws `validation_failed` with field problems when it is not one. */
function parseEvaluation(json: string): MoatEvaluation {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new UseCaseError('validation_failed', 'evaluationJson is not valid JSON', {
      cause: error,
      errors: [{ path: 'evaluationJson', message: 'not valid JSON' }],
    });
  }
  const parsed = MoatEvaluation.safeParse(value);
  if (!parsed.success) {
    throw new UseCaseError('validation_failed', 'evaluationJson is not a MoatEvaluation', {
      errors: parsed.error.issues.map((issue) => ({
        path: ['evaluationJson', ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    });
  }
  return parsed.data;
}

/** The evaluation of a save request: `evaluationJson` parsed, else the `evaluation` object. */
function evaluationOf(input: SaveReportInput): MoatEvaluation {
  if (input.evaluationJson !== undefined) return parseEvaluation(input.evaluationJson);
  if (input.evaluation !== undefined) return input.evaluation;
  throw new UseCaseError('validation_failed', 'Give evaluationJson or evaluation.', {
    errors: [{ path: 'evaluationJson', message: 'required when evaluation is absent' }],
  });
}

/** The saved-report library flows, shared by REST and MCP; every call is scoped to the user. */
export function createReportService(deps: { reports: MoatReportsRepository }) {
  return {
    /**
     * Saves an evaluation in the user's library. The summary fields default to the evaluation's.
     * @throws UseCaseError `validation_failed` when neither `evaluationJson` nor `evaluation` is
     *   given, `evaluationJson` is not a MoatEvaluation, or the evaluation is of another symbol.
     */
    async save(userId: string, input: SaveReportInput): Promise<{ id: string }> {
      const evaluation = evaluationOf(input);
      if (evaluation.symbol.toUpperCase() !== input.symbol.toUpperCase()) {
        throw new UseCaseError('validation_failed', 'symbol does not match the evaluation', {
          errors: [{ path: 'symbol', message: `the evaluation is of ${evaluation.symbol}` }],
        });
      }
      return deps.reports.create(userId, {
        symbol: input.symbol,
        evaluation,
        companyName: input.companyName ?? evaluation.companyName,
        totalScore: input.totalScore ?? evaluation.totalScore,
        maxScore: input.maxScore ?? evaluation.maxScore,
        verdict: input.verdict ?? evaluation.verdict,
        tags: input.tags ?? [],
      });
    },
    /** The user's reports, newest first, carrying every tag of `tags` when given. */
    list(userId: string, tags: readonly string[] = []): Promise<ReportSummary[]> {
      return deps.reports.list(userId, { tags });
    },
    /** One of the user's reports. @throws UseCaseError `not_found` (also for another user's). */
    async get(userId: string, id: string): Promise<ReportDetail> {
      const report = await deps.reports.get(userId, id);
      if (!report) throw new UseCaseError('not_found', `no report ${id}`);
      return { ...report, evaluation: MoatEvaluation.parse(report.evaluation) };
    },
    /** Deletes one of the user's reports. @throws UseCaseError `not_found`. */
    async remove(userId: string, id: string): Promise<void> {
      if (!(await deps.reports.delete(userId, id))) {
        throw new UseCaseError('not_found', `no report ${id}`);
      }
    },
  };
}
export type ReportService = ReturnType<typeof createReportService>;

/** Splits a comma-separated `tags` query value into tags (empty parts dropped). */
export function parseTagList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}
