import { CRITERION_MAX_SCORE, FilingReference, numberFromText, TickerSymbol } from '@svc/schemas';
import { z } from 'zod';

/** Largest page of an evaluation history (as the screener's, CONTRACT §4). */
export const HISTORY_MAX_LIMIT = 100;

/**
 * Query of `GET /api/stock-evaluation/history` and of the MCP tool `getEvaluationHistory`:
 * a symbol and a page. Query strings are coerced (`page=2`).
 */
export const EvaluationHistoryQuery = z.object({
  symbol: TickerSymbol,
  page: numberFromText(z.number().int().min(1).default(1)).describe('1-based page, default 1'),
  limit: numberFromText(z.number().int().min(1).max(HISTORY_MAX_LIMIT).default(20)).describe(
    'Items per page, 1–100, default 20',
  ),
});
export type EvaluationHistoryQuery = z.infer<typeof EvaluationHistoryQuery>;

/** A filing that caused a re-evaluation: accession number, form, filed date. */
export const CauseFiling = z
  .object({
    accession: z.string().describe('SEC accession number'),
    form: z.string().describe('SEC form type: 10-K, 10-K/A, 20-F or 40-F'),
    filed: z.string().describe('Filing date, YYYY-MM-DD'),
  })
  .meta({ id: 'CauseFiling' });
export type CauseFiling = z.infer<typeof CauseFiling>;

/** One kept fresh evaluation, without the evaluation itself. */
export const EvaluationHistoryItem = z
  .object({
    id: z.string().describe('Id of the kept evaluation (for the diff)'),
    symbol: z.string(),
    totalScore: z.number(),
    maxScore: z.number(),
    verdict: z.string(),
    scoreChange: z
      .number()
      .nullable()
      .describe("Total score minus the previous kept evaluation's; null for the first"),
    provider: z.string().nullable().describe('Fundamentals provider: sec-edgar, snapshot, simfin'),
    fiscalYears: z.array(z.number().int()).describe('Fiscal years scored, oldest first'),
    filings: z.array(FilingReference).describe('Filings behind the figures, newest first'),
    trigger: z
      .enum(['request', 'fill-cache', 'filing'])
      .describe(
        'request: a user (REST or MCP) fetched it; fill-cache: the operator’s CLI batch; filing: a new annual filing found in SEC’s daily index (see `cause`)',
      ),
    cause: CauseFiling.nullable().describe(
      'The filing that caused a `filing` evaluation; null for the other triggers',
    ),
    evaluatedAt: z.string().describe('When it was made, ISO 8601'),
  })
  .meta({ id: 'EvaluationHistoryItem' });
export type EvaluationHistoryItem = z.infer<typeof EvaluationHistoryItem>;

/** A page of a symbol's kept evaluations, newest first. */
export const EvaluationHistoryPage = z
  .object({
    symbol: z.string(),
    items: z.array(EvaluationHistoryItem),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'EvaluationHistoryPage' });
export type EvaluationHistoryPage = z.infer<typeof EvaluationHistoryPage>;

/**
 * Query of `GET /api/stock-evaluation/history/diff` and of the MCP tool `compareEvaluations`:
 * two kept evaluations of a symbol by id, or neither (the latest against the one before it).
 */
export const EvaluationDiffQuery = z.object({
  symbol: TickerSymbol,
  from: z
    .uuid()
    .optional()
    .describe(
      'Id of the older evaluation; default: the one kept before `to` (or the latest but one)',
    ),
  to: z.uuid().optional().describe('Id of the newer evaluation; default the latest'),
});
export type EvaluationDiffQuery = z.infer<typeof EvaluationDiffQuery>;

const Change = z.object({
  from: z.number().nullable(),
  to: z.number().nullable(),
  change: z.number().nullable().describe('to − from; null when either is missing'),
});

/** How one criterion moved between two evaluations. */
export const CriterionChange = z
  .object({
    key: z.string(),
    name: z.string(),
    moved: z.boolean().describe('Score, display value or status differ'),
    score: Change.describe(`Points, 0–${CRITERION_MAX_SCORE}`),
    numericValue: Change.describe('The headline metric behind the display value'),
    value: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
    status: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
    figures: z
      .array(
        z.object({
          fiscalYear: z.number().int(),
          from: z.number().nullable().describe('null: the year was not in the older series'),
          to: z.number().nullable().describe('null: the year left the newer series'),
        }),
      )
      .describe('Yearly figures of the criterion’s series that are new, gone or different'),
    filings: z
      .array(
        z.object({
          form: z.string(),
          accession: z.string(),
          filed: z.string(),
          new: z.boolean().describe('true: the filing was not behind the older evaluation'),
        }),
      )
      .describe('Filings behind the newer evaluation that report a fiscal year among `figures`'),
  })
  .meta({ id: 'CriterionChange' });
export type CriterionChange = z.infer<typeof CriterionChange>;

/** What moved between two kept evaluations of a symbol. */
export const EvaluationDiff = z
  .object({
    symbol: z.string(),
    from: EvaluationHistoryItem,
    to: EvaluationHistoryItem,
    totalScore: Change,
    verdict: z.object({ from: z.string(), to: z.string(), changed: z.boolean() }),
    criteria: z.array(CriterionChange).describe('Every criterion of either evaluation'),
    moved: z.array(z.string()).describe('Keys of the criteria that moved'),
    newFilings: z
      .array(FilingReference)
      .describe('Filings behind `to` that were not behind `from`'),
    droppedFilings: z.array(FilingReference).describe('Filings behind `from` no longer used'),
    newFiscalYears: z.array(z.number().int()),
    droppedFiscalYears: z.array(z.number().int()),
    summary: z.string().describe('The diff in one English sentence or two'),
  })
  .meta({ id: 'EvaluationDiff' });
export type EvaluationDiff = z.infer<typeof EvaluationDiff>;
