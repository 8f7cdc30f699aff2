import type { Criterion } from '@svc/schemas';
import { sql } from 'kysely';
import { type Executor, iso } from './shared.js';

/** The `type` of the only event there is (CONTRACT §7). */
export const EVALUATION_CHANGED = 'evaluation.changed';

/** One side of a change: the headline of a kept evaluation. */
export interface EvaluationSide {
  totalScore: number;
  maxScore: number;
  verdict: string;
  /** ISO-8601. */
  evaluatedAt: string;
  fiscalYears: number[];
}

/** A criterion that moved between two kept evaluations (status or score). */
export interface CriterionMove {
  key: string;
  name: string;
  status: { from: string | null; to: string | null };
  score: { from: number | null; to: number | null };
}

/** The filing that caused a re-evaluation (trigger `filing`). */
export interface CauseFiling {
  accession: string;
  form: string;
  /** YYYY-MM-DD. */
  filed: string;
}

/** `data` of an `evaluation.changed` event (CONTRACT §7). */
export interface EvaluationChangedData {
  symbol: string;
  previous: EvaluationSide;
  current: EvaluationSide;
  changes: CriterionMove[];
  filing?: CauseFiling;
}

/** An `evaluation.changed` event as the feed and the webhooks carry it. */
export interface EvaluationChangeEvent {
  id: string;
  type: typeof EVALUATION_CHANGED;
  /** ISO-8601: when the event was made. */
  timestamp: string;
  data: EvaluationChangedData;
}

/** What {@link evaluationChange} compares: a kept evaluation's headline and criteria. */
export interface ComparedEvaluation extends EvaluationSide {
  criteria: readonly Pick<Criterion, 'key' | 'name' | 'status' | 'score'>[];
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The criteria whose status or score differ between two evaluations, in the newer one's order
 * (then the ones it no longer has).
 */
function moves(previous: ComparedEvaluation, current: ComparedEvaluation): CriterionMove[] {
  const keys = [...new Set([...current.criteria, ...previous.criteria].map((c) => c.key))];
  const out: CriterionMove[] = [];
  for (const key of keys) {
    const a = previous.criteria.find((c) => c.key === key);
    const b = current.criteria.find((c) => c.key === key);
    const status = { from: a?.status ?? null, to: b?.status ?? null };
    const score = { from: a?.score ?? null, to: b?.score ?? null };
    const scoreMoved =
      score.from === null || score.to === null
        ? score.from !== score.to
        : round(score.to - score.from) !== 0;
    if (status.from !== status.to || scoreMoved) {
      out.push({ key, name: (b ?? a)?.name ?? key, status, score });
    }
  }
  return out;
}

const side = (e: ComparedEvaluation): EvaluationSide => ({
  totalScore: e.totalScore,
  maxScore: e.maxScore,
  verdict: e.verdict,
  evaluatedAt: e.evaluatedAt,
  fiscalYears: e.fiscalYears,
});

/**
 * The `evaluation.changed` data of a kept evaluation against the symbol's previous one, or null
 * when they do not differ as CONTRACT §7 counts it: the verdict, the total score by at least 1
 * point, or a criterion's status. `changes` lists every criterion whose status or score moved.
 * Pure.
 *
 * @example
 * evaluationChange('AAPL', before, after); // null, or { symbol, previous, current, changes }
 */
export function evaluationChange(
  symbol: string,
  previous: ComparedEvaluation,
  current: ComparedEvaluation,
  filing?: CauseFiling,
): EvaluationChangedData | null {
  const changes = moves(previous, current);
  const differs =
    previous.verdict !== current.verdict ||
    Math.abs(round(current.totalScore - previous.totalScore)) >= 1 ||
    changes.some((c) => c.status.from !== c.status.to);
  if (!differs) return null;
  return {
    symbol,
    previous: side(previous),
    current: side(current),
    changes,
    ...(filing ? { filing } : {}),
  };
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
  items: EvaluationChangeEvent[];
  lastSeq?: string;
}

interface EventRow {
  id: string;
  seq: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const toEvent = (row: EventRow): EvaluationChangeEvent => ({
  id: row.id,
  type: EVALUATION_CHANGED,
  timestamp: iso(row.created_at),
  data: row.data as unknown as EvaluationChangedData,
});

/**
 * Creates the change-event repository over `db` (migration 0016): events are written by the
 * history's `append`, in the same transaction as the row they describe, and read here, oldest
 * first, as a feed. Global like the history.
 */
export function createEvaluationEventsRepository(db: Executor) {
  return {
    /**
     * Writes one event for a kept evaluation and, in the same statement's transaction, one
     * pending webhook message for every enabled endpoint that wants it (its `events` has the
     * type; `symbols` null or naming the symbol).
     */
    async record(
      historyId: string,
      data: EvaluationChangedData,
      at: Date,
    ): Promise<EvaluationChangeEvent> {
      const row = await db
        .insertInto('evaluation_events')
        .values({
          type: EVALUATION_CHANGED,
          symbol: data.symbol,
          history_id: historyId,
          data: JSON.stringify(data),
          created_at: at,
        })
        .returning(['id', 'seq', 'data', 'created_at'])
        .executeTakeFirstOrThrow();
      await sql`insert into webhook_messages (endpoint_id, event_id, next_attempt_at)
        select e.id, ${row.id}::uuid, ${at}::timestamptz from webhook_endpoints e
        where e.disabled_at is null and ${EVALUATION_CHANGED} = any(e.events)
          and (e.symbols is null or ${data.symbol} = any(e.symbols))
        on conflict do nothing`.execute(db);
      return toEvent(row);
    },

    /** A page of events in insertion order, made at or after `since` (and after `afterSeq`). */
    async feed(query: EventFeedQuery): Promise<EventFeedPage> {
      let q = db
        .selectFrom('evaluation_events')
        .select(['id', 'seq', 'data', 'created_at'])
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

    /** One event by id, or undefined. */
    async get(id: string): Promise<EvaluationChangeEvent | undefined> {
      const row = await db
        .selectFrom('evaluation_events')
        .select(['id', 'seq', 'data', 'created_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toEvent(row);
    },
  };
}

/** The change-event repository (see {@link createEvaluationEventsRepository}). */
export type EvaluationEventsRepository = ReturnType<typeof createEvaluationEventsRepository>;
