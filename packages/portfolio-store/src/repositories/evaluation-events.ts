import { sql } from 'kysely';
import { type Executor, iso } from './shared.js';

/**
 * An event as stored: its id (the `webhook-id` of its deliveries), `type`, `timestamp` (ISO-8601,
 * when it was made) and `data`. Its shape per type is defined once, in zod, by `@svc/use-cases`
 * (`EvaluationChangeEvent`); the store keeps and returns it as written.
 */
export interface StoredEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** A new change event of a kept evaluation (see {@link insertEvaluationEvent}). */
export interface NewEvaluationEvent {
  type: string;
  /** Upper-case symbol. */
  symbol: string;
  /** The kept evaluation (`evaluation_history.id`) the event describes. */
  historyId: string;
  data: Record<string, unknown>;
  /** When the event was made (its `timestamp`). */
  at: Date;
}

/** Where a feed page starts: after this event (exclusive), or at `since`. */
export interface EventFeedQuery {
  /** Events made at or after this instant. */
  since: Date;
  /** Only this (upper-case) symbol's events. */
  symbol?: string;
  /** Continue after this event's `seq` (insertion order), from a previous page's cursor. */
  afterSeq?: string;
  /** Page size. */
  limit: number;
}

/** A page of the feed in insertion order; `lastSeq` positions the next page (none: no more). */
export interface EventFeedPage {
  items: StoredEvent[];
  lastSeq?: string;
}

interface EventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const toEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  type: row.type,
  timestamp: iso(row.created_at),
  data: row.data,
});

/**
 * SQL: writes one change event of a kept evaluation in `trx` (migration 0016), the feed's row;
 * the caller writes its outbox row (`insertOutboxEvent`) with the same id in the same transaction.
 */
export async function insertEvaluationEvent(
  trx: Executor,
  event: NewEvaluationEvent,
): Promise<StoredEvent> {
  const row = await trx
    .insertInto('evaluation_events')
    .values({
      type: event.type,
      symbol: event.symbol,
      history_id: event.historyId,
      data: JSON.stringify(event.data),
      created_at: event.at,
    })
    .returning(['id', 'type', 'data', 'created_at'])
    .executeTakeFirstOrThrow();
  return toEvent(row);
}

/**
 * Creates the change-event feed over `db` (migration 0016): the events of kept evaluations,
 * oldest first. Global like the history. Events are written by `keepEvaluation` of
 * `@svc/use-cases` (see {@link insertEvaluationEvent}).
 */
export function createEvaluationEventsRepository(db: Executor) {
  return {
    /** A page of events in insertion order, made at or after `since` (and after `afterSeq`). */
    async feed(query: EventFeedQuery): Promise<EventFeedPage> {
      let q = db
        .selectFrom('evaluation_events')
        .select(['id', 'seq', 'type', 'data', 'created_at'])
        .where('created_at', '>=', query.since);
      if (query.symbol !== undefined) q = q.where('symbol', '=', query.symbol.toUpperCase());
      if (query.afterSeq !== undefined) {
        q = q.where(sql<boolean>`seq > ${query.afterSeq}::bigint`);
      }
      const rows = await q
        .orderBy('seq', 'asc')
        .limit(query.limit + 1)
        .execute();
      const page = rows.slice(0, query.limit);
      const tail = page.at(-1);
      return {
        items: page.map(toEvent),
        ...(rows.length > query.limit && tail ? { lastSeq: String(tail.seq) } : {}),
      };
    },
  };
}

/** The change-event feed (see {@link createEvaluationEventsRepository}). */
export type EvaluationEventsRepository = ReturnType<typeof createEvaluationEventsRepository>;
