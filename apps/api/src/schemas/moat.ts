import { MoatEvaluation } from '@svc/schemas';
import { ScreenerMeta, ScreenerPage, ScreenerQuery } from '@svc/use-cases';
import { z } from 'zod';

/** Query of `GET /api/stock-evaluation` (interface spec 4.2). */
export const StockEvaluationQuery = z.object({
  symbol: z
    .string()
    .min(1)
    .max(32)
    .describe(
      'Ticker symbol: 1–10 characters of A–Z, 0–9, "." or "-" (case-insensitive; BRK.B and BRK-B are the same); anything else answers 400',
    ),
  fresh: z
    .literal('1')
    .optional()
    .describe(
      'Only `1`: bypass the cache and fetch new fundamentals (consumes one `stock_evaluation` unit); any other value answers 400',
    ),
});

/** A filing behind the figures of an evaluation (extension field `_filings`). */
const FilingReference = z
  .object({
    form: z.string().describe('SEC form type, e.g. 10-K'),
    accession: z.string().describe('SEC accession number'),
    filed: z.string().describe('Filing date, YYYY-MM-DD'),
    fiscalYears: z.array(z.number().int()).describe('Fiscal years with figures from this filing'),
  })
  .meta({ id: 'FilingReference' });

/**
 * The answer of `GET /api/stock-evaluation`: the `MoatEvaluation` of `@svc/schemas` (interface
 * spec 2.1) with `_cached`/`_cachedAt` always set, and the extension fields the evaluation flow
 * adds documented. Unknown extension fields (underscore-prefixed) pass through.
 */
export const StockEvaluation = MoatEvaluation.extend({
  _cached: z.boolean().describe('true when served from the evaluation cache'),
  _cachedAt: z.string().describe('ISO 8601 instant the evaluation was stored in the cache'),
  _evaluatedAt: z.string().optional().describe('ISO 8601 instant the evaluation was computed'),
  _fiscalYears: z
    .array(z.number().int())
    .optional()
    .describe('Fiscal years scored, oldest first (extension)'),
  _provider: z
    .string()
    .optional()
    .describe('Fundamentals provider the server used: sec-edgar, snapshot or simfin (extension)'),
  _filings: z
    .array(FilingReference)
    .optional()
    .describe('Filings behind the figures used, newest first (extension)'),
  _marketCap: z
    .number()
    .nullable()
    .optional()
    .describe('Price × shares outstanding in the reporting currency; null without a price'),
  _currency: z.string().optional().describe('Reporting currency, ISO 4217 (extension)'),
}).meta({
  id: 'StockEvaluation',
  description:
    'A MoatEvaluation as served by GET /api/stock-evaluation, with its cache fields and extension fields (underscore-prefixed)',
});

/** Query of `GET /api/moat-screener`: `action=meta`, or the filters, sort and page. */
export const MoatScreenerQuery = ScreenerQuery.extend({
  action: z
    .enum(['meta'])
    .optional()
    .describe('`meta`: cache statistics instead of rows (filters are then ignored)'),
});

/** Answer of `GET /api/moat-screener`: a page of rows, or the statistics for `action=meta`. */
export const MoatScreenerResult = z.union([ScreenerPage, ScreenerMeta]);

/** Query of `GET /api/moat-reports`. */
export const ReportListQuery = z.object({
  tags: z
    .string()
    .max(2000)
    .optional()
    .describe('Comma-separated tags; only reports carrying every listed tag (case-insensitive)'),
});

/** Path of one saved report. */
export const ReportParams = z.object({ id: z.uuid().describe('Report id') });

/** `201` answer of `POST /api/moat-reports`. */
export const CreatedReport = z
  .object({ id: z.uuid().describe('Id of the saved report') })
  .meta({ id: 'CreatedReport' });
