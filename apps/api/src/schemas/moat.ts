import { AsOfDate, ServedEvaluation, TickerSymbol } from '@svc/schemas';
import { ScreenerMeta, ScreenerPage, ScreenerQuery } from '@svc/use-cases';
import { z } from 'zod';

/** Query of `GET /api/stock-evaluation` (interface spec 4.2). */
export const StockEvaluationQuery = z.object({
  symbol: TickerSymbol,
  fresh: z
    .literal('1')
    .optional()
    .describe(
      'Only `1`: bypass the cache and fetch new fundamentals (consumes one `stock_evaluation` unit); any other value answers 400',
    ),
  asOf: AsOfDate.optional().describe(
    'Evaluate as of this day (YYYY-MM-DD; a later day reads as today): only figures filed on or before it, for fiscal years ending before it, restated values as first filed, and the close on or before it. Cached apart from the latest evaluation; too few years filed by then answers 422 insufficient_history',
  ),
});

/** The answer of `GET /api/stock-evaluation`: the served evaluation of `@svc/schemas`, shared with MCP. */
export const StockEvaluation = ServedEvaluation;

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
