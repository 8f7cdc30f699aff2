import { SCREENER_MAX_LIMIT, type ScreenerRepository } from '@svc/portfolio-store';
import { numberFromText, VERDICT_LABELS } from '@svc/schemas';
import { z } from 'zod';

const bound = (description: string) =>
  numberFromText(z.number().finite()).optional().describe(description);

/**
 * Screener filters, sort and page (interface spec 4.2; CONTRACT §4). Bounds are inclusive. Query
 * strings are read as numbers (`scoreMin=60`; `numberFromText`), so the same schema serves REST
 * and MCP.
 */
export const ScreenerQuery = z
  .object({
    scoreMin: bound('Lowest total score, 0–100'),
    scoreMax: bound('Highest total score, 0–100'),
    verdict: z.enum(VERDICT_LABELS).optional().describe('Exact verdict label'),
    sector: z.string().min(1).max(200).optional().describe('Exact sector'),
    industry: z.string().min(1).max(200).optional().describe('Exact industry'),
    peMin: bound('Lowest P/E; rows without a P/E are left out when a P/E bound is set'),
    peMax: bound('Highest P/E'),
    marketCapMin: bound('Lowest market capitalisation, USD'),
    marketCapMax: bound('Highest market capitalisation, USD'),
    minScoreChange: bound(
      'Lowest change of the total score since the previous evaluation (points, may be negative); companies evaluated once are left out when a change bound is set',
    ),
    maxScoreChange: bound(
      'Highest change of the total score since the previous evaluation (e.g. -0.01: only falls)',
    ),
    sortBy: z.enum(['score', 'symbol', 'pe', 'marketCap']).default('score'),
    sortDir: z
      .enum(['asc', 'desc'])
      .optional()
      .describe('Default desc for score and marketCap, asc for symbol and pe; nulls last'),
    page: numberFromText(z.number().int().min(1).default(1)),
    limit: numberFromText(z.number().int().min(1).max(SCREENER_MAX_LIMIT).default(20)),
  })
  .meta({ id: 'ScreenerQuery' });
export type ScreenerQuery = z.infer<typeof ScreenerQuery>;

/** One screener row (CONTRACT §4). */
export const ScreenerRow = z
  .object({
    symbol: z.string(),
    companyName: z.string(),
    sector: z.string().nullable(),
    industry: z.string().nullable(),
    totalScore: z.number(),
    maxScore: z.number(),
    verdict: z.string(),
    peRatio: z.number().nullable(),
    marketCap: z.number().nullable().describe('Market capitalisation, USD'),
    cachedAt: z.string().describe('When the evaluation was cached, ISO 8601'),
    scoreChange: z
      .number()
      .nullable()
      .describe('Total score minus the previous evaluation’s; null when evaluated once'),
    dataQualityFlags: z
      .number()
      .int()
      .min(0)
      .describe(
        'How many data-quality flags the evaluation carries (its `dataQuality`: a series behind the score that a check flagged); 0 when none',
      ),
    dataQualityCodes: z
      .array(z.string())
      .describe(
        'The distinct codes of those flags, sorted, e.g. ["provider_mismatch"] when two providers disagree on a series the score rests on; [] when none',
      ),
  })
  .meta({ id: 'ScreenerRow' });
export type ScreenerRow = z.infer<typeof ScreenerRow>;

/** A page of screener rows (CONTRACT §4). */
export const ScreenerPage = z
  .object({
    items: z.array(ScreenerRow),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'ScreenerPage' });
export type ScreenerPage = z.infer<typeof ScreenerPage>;

/** Statistics of the evaluation cache (`action=meta`, CONTRACT §4). */
export const ScreenerMeta = z
  .object({
    count: z.number().int(),
    lastUpdatedAt: z.string().nullable(),
    verdicts: z.record(z.string(), z.number().int()),
    sectors: z.array(z.object({ sector: z.string(), count: z.number().int() })),
    scoreRange: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
  })
  .meta({ id: 'ScreenerMeta' });
export type ScreenerMeta = z.infer<typeof ScreenerMeta>;

/**
 * The screener flow over the evaluation cache, shared by REST and MCP: indexed SQL in the store,
 * never all rows in memory.
 */
export function createScreenerService(deps: {
  screener: Pick<ScreenerRepository, 'screen' | 'meta'>;
}) {
  return {
    /** One page of cached evaluations matching `query` (already parsed by {@link ScreenerQuery}). */
    async screen(query: ScreenerQuery): Promise<ScreenerPage> {
      const page = await deps.screener.screen(query);
      return {
        ...page,
        items: page.items.map((row) => ({
          ...row,
          marketCap: row.marketCap === null ? null : Number(row.marketCap),
        })),
      };
    },
    /** Cache statistics. */
    meta(): Promise<ScreenerMeta> {
      return deps.screener.meta();
    },
  };
}
export type ScreenerService = ReturnType<typeof createScreenerService>;
