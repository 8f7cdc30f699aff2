import type { EvaluationEventsRepository } from '@svc/portfolio-store';
import { numberFromText, TickerSymbol } from '@svc/schemas';
import { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { tickerOf } from '../ticker.js';
import { CauseFiling } from './evaluation-history-schemas.js';

/** The `type` of a kept evaluation's change event (CONTRACT §7). */
export const EVALUATION_CHANGED = 'evaluation.changed';

/** Largest page of the change feed. */
export const CHANGES_MAX_LIMIT = 100;

/**
 * Query of `GET /api/stock-evaluation/changes` and of the MCP tool `getEvaluationChanges`
 * (CONTRACT §7): events made at or after `since`, optionally one symbol's, paged by `cursor`
 * (which carries `since` and `symbol` on).
 */
export const EvaluationChangesQuery = z.object({
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Events made at or after this instant (ISO 8601); required without `cursor`'),
  symbol: TickerSymbol.optional().describe('Only this company’s events'),
  cursor: z
    .string()
    .max(500)
    .optional()
    .describe('`nextCursor` of the previous page; it carries `since` and `symbol` on'),
  limit: numberFromText(z.number().int().min(1).max(CHANGES_MAX_LIMIT).default(50)).describe(
    'Events per page, 1–100, default 50',
  ),
});
export type EvaluationChangesQuery = z.infer<typeof EvaluationChangesQuery>;

const Side = z.object({
  totalScore: z.number(),
  maxScore: z.number(),
  verdict: z.string(),
  evaluatedAt: z.string().describe('ISO 8601'),
  fiscalYears: z.array(z.number().int()),
  methodologyVersion: z
    .string()
    .describe(
      'The scoring methodology’s version the evaluation was made with ("1" before it was stamped)',
    ),
  reconciledWith: z
    .string()
    .nullable()
    .optional()
    .describe(
      'The second fundamentals provider the evaluation was reconciled with (RECONCILE_PROVIDER: simfin, sec-edgar, snapshot); null when none; absent on events made before it was recorded',
    ),
});
/** One side of a change: the headline of a kept evaluation. */
export type EvaluationSide = z.infer<typeof Side>;

/** Why an evaluation changed (issue 37): what a subscriber tells apart. */
export const ChangeCause = z
  .enum(['methodology', 'filing', 'data'])
  .describe(
    'methodology: the way the server scores changed, not the company (previous and current methodologyVersion differ, or reconciledWith: RECONCILE_PROVIDER was set, changed or turned off); filing: a new annual filing found by the refresh pass (named in `filing`); data: anything else (new figures or prices on a request or a fill)',
  );
export type ChangeCause = z.infer<typeof ChangeCause>;

/** `data` of an `evaluation.changed` event (CONTRACT §7). */
export const EvaluationChangedData = z.object({
  symbol: z.string(),
  cause: ChangeCause,
  previous: Side.describe('The evaluation kept before'),
  current: Side.describe('The new kept evaluation'),
  changes: z
    .array(
      z.object({
        key: z.string(),
        name: z.string(),
        status: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
        score: z.object({ from: z.number().nullable(), to: z.number().nullable() }),
      }),
    )
    .describe('The criteria whose status or score moved'),
  filing: CauseFiling.optional().describe('The new annual filing that caused it, if one did'),
});
export type EvaluationChangedData = z.infer<typeof EvaluationChangedData>;

/**
 * An `evaluation.changed` event (CONTRACT §7), as the feed and the webhooks carry it: the one
 * definition of its shape (the store keeps it as written).
 */
export const EvaluationChangeEvent = z
  .object({
    id: z.string().describe('Event id (the `webhook-id` of its deliveries)'),
    type: z.literal(EVALUATION_CHANGED),
    timestamp: z.string().describe('When the event was made, ISO 8601'),
    data: EvaluationChangedData,
  })
  .meta({ id: 'EvaluationChangeEvent' });
export type EvaluationChangeEvent = z.infer<typeof EvaluationChangeEvent>;

/** A page of the change feed, oldest first. */
export const EvaluationChangesPage = z
  .object({
    items: z.array(EvaluationChangeEvent),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null: no more'),
  })
  .meta({ id: 'EvaluationChangesPage' });
export type EvaluationChangesPage = z.infer<typeof EvaluationChangesPage>;

interface Cursor {
  since: string;
  symbol?: string;
  seq: string;
}

const encode = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decode(text: string): Cursor {
  const invalid = () =>
    new UseCaseError('validation_failed', 'cursor is not one this feed gave', {
      errors: [{ path: 'cursor', message: 'not a cursor of this feed' }],
    });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const parsed = z
    .object({
      since: z.iso.datetime(),
      symbol: z.string().max(20).optional(),
      seq: z.string().regex(/^\d{1,18}$/),
    })
    .safeParse(value);
  if (!parsed.success) throw invalid();
  return parsed.data;
}

/**
 * The change feed (CONTRACT §7), read by `GET /api/stock-evaluation/changes` and MCP
 * `getEvaluationChanges`: the `evaluation.changed` events in the order they were made. Global like
 * the history; no quota.
 *
 * @example
 * const feed = createEvaluationChangesFeed({ events: repos.evaluationEvents });
 * const page = await feed({ since: '2026-01-01T00:00:00Z', limit: 50 });
 * if (page.nextCursor) await feed({ cursor: page.nextCursor, limit: 50 });
 */
export function createEvaluationChangesFeed(deps: {
  readonly events: Pick<EvaluationEventsRepository, 'feed'>;
}) {
  /**
   * @throws UseCaseError `validation_failed` without `since` and `cursor`, or for a cursor this
   *   feed did not give, or for a malformed symbol (`tickerOf`, with a `symbol` field error).
   */
  return async function changes(query: EvaluationChangesQuery): Promise<EvaluationChangesPage> {
    let from: Cursor | Omit<Cursor, 'seq'>;
    if (query.cursor !== undefined) {
      from = decode(query.cursor);
    } else if (query.since !== undefined) {
      from = {
        since: new Date(query.since).toISOString(),
        ...(query.symbol !== undefined ? { symbol: tickerOf(query.symbol) } : {}),
      };
    } else {
      throw new UseCaseError('validation_failed', 'give since (an ISO instant) or cursor', {
        errors: [{ path: 'since', message: 'required without cursor' }],
      });
    }
    const page = await deps.events.feed({
      since: new Date(from.since),
      limit: query.limit,
      ...(from.symbol !== undefined ? { symbol: from.symbol } : {}),
      ...('seq' in from ? { afterSeq: from.seq } : {}),
    });
    return {
      // written by keepEvaluation in this shape only
      items: page.items as EvaluationChangeEvent[],
      nextCursor: page.lastSeq === undefined ? null : encode({ ...from, seq: page.lastSeq }),
    };
  };
}
