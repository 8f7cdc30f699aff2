import { sql } from 'kysely';
import type { WebhookMessageState } from '../db-types.js';
import { type Executor, inTransaction, iso, isoOrNull, isUuid } from './shared.js';

/** A webhook endpoint without its secret, as the owner lists it. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  /** Upper-case symbols the endpoint is limited to; null for every symbol. */
  symbols: string[] | null;
  /** The portfolio whose holdings the endpoint is limited to; null for any company. */
  portfolioId: string | null;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601 when the endpoint was disabled (it answered 410); null while enabled. */
  disabledAt: string | null;
  /** The last delivery attempt's outcome, null before the first. */
  lastDelivery: { status: string; responseStatus: number | null; at: string } | null;
}

/** A new endpoint. */
export interface NewWebhookEndpoint {
  url: string;
  events: string[];
  symbols: string[] | null;
  /** Limit to the symbols this portfolio (of the same user, checked by the caller) holds. */
  portfolioId?: string | null;
  /** The signing secret, `whsec_` + base64. */
  secret: string;
}

/** One delivery attempt, as the log shows it (CONTRACT §7). */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  type: string;
  attempt: number;
  /** `succeeded`, `failed` (retried when `nextAttemptAt` is set), `disabled` (410). */
  status: string;
  responseStatus: number | null;
  /** Why the attempt failed without an answer (timeout, refused address), when it did. */
  error: string | null;
  /** ISO-8601. */
  at: string;
  nextAttemptAt: string | null;
}

/** A message leased for one delivery attempt. */
export interface ClaimedWebhookMessage {
  messageId: string;
  endpointId: string;
  url: string;
  secret: string;
  eventId: string;
  type: string;
  /** The event's `timestamp` (ISO-8601) and `data`, as the body carries them. */
  timestamp: string;
  data: Record<string, unknown>;
  /** This attempt's number, 1 for the first. */
  attempt: number;
}

/** How one attempt ended, for {@link WebhooksRepository.recordAttempt}. */
export interface WebhookAttemptOutcome {
  /** `succeeded` (2xx), `failed` (retry at `nextAttemptAt`, or given up without one), `disabled`. */
  status: 'succeeded' | 'failed' | 'disabled';
  responseStatus: number | null;
  error: string | null;
  at: Date;
  /** When to try again; null: no more attempts. */
  nextAttemptAt: Date | null;
}

interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  symbols: string[] | null;
  portfolio_id: string | null;
  created_at: Date;
  disabled_at: Date | null;
}

/**
 * Creates the webhook repository over `db` (migration 0016): a user's endpoints (always addressed
 * with the owner's id: another user's id is "not found"), the per-endpoint delivery log, and the
 * queue of messages the dispatcher leases (`for update skip locked`: any number of processes,
 * each message attempted by one at a time).
 */
export function createWebhooksRepository(db: Executor) {
  const lastDelivery = sql<WebhookEndpoint['lastDelivery']>`(select json_build_object(
      'status', d.status, 'responseStatus', d.response_status,
      'at', to_char(d.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    from webhook_deliveries d where d.endpoint_id = webhook_endpoints.id
    order by d.seq desc limit 1)`;
  const toEndpoint = (row: EndpointRow & { last: WebhookEndpoint['lastDelivery'] }) => ({
    id: row.id,
    url: row.url,
    events: row.events,
    symbols: row.symbols,
    portfolioId: row.portfolio_id,
    createdAt: iso(row.created_at),
    disabledAt: isoOrNull(row.disabled_at),
    lastDelivery: row.last ?? null,
  });
  const columns = [
    'id',
    'url',
    'events',
    'symbols',
    'portfolio_id',
    'created_at',
    'disabled_at',
  ] as const;

  return {
    /** Registers an endpoint of `userId`. */
    async create(userId: string, endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
      const row = await db
        .insertInto('webhook_endpoints')
        .values({
          user_id: userId,
          url: endpoint.url,
          events: endpoint.events,
          symbols: endpoint.symbols,
          portfolio_id: endpoint.portfolioId ?? null,
          secret: endpoint.secret,
        })
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toEndpoint({ ...row, last: null });
    },

    /** The user's endpoints, newest first, with each one's last delivery. */
    async list(userId: string): Promise<WebhookEndpoint[]> {
      const rows = await db
        .selectFrom('webhook_endpoints')
        .where('user_id', '=', userId)
        .select([...columns, lastDelivery.as('last')])
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toEndpoint);
    },

    /** True when `id` is an endpoint of `userId`. */
    async owns(userId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const row = await db
        .selectFrom('webhook_endpoints')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .select('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Deletes an endpoint of `userId` with its messages and log; false when it is not theirs. */
    async remove(userId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const result = await db
        .deleteFrom('webhook_endpoints')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * A page of an endpoint's delivery log, newest first, after the attempt `beforeSeq` when
     * given; `lastSeq` positions the next page. The caller checks ownership first.
     */
    async deliveries(
      endpointId: string,
      page: { limit: number; beforeSeq?: string },
    ): Promise<{ items: WebhookDelivery[]; lastSeq?: string }> {
      let q = db
        .selectFrom('webhook_deliveries')
        .where('endpoint_id', '=', endpointId)
        .select([
          'id',
          'seq',
          'event_id',
          'type',
          'attempt',
          'status',
          'response_status',
          'error',
          'at',
          'next_attempt_at',
        ]);
      if (page.beforeSeq !== undefined) {
        q = q.where(sql<boolean>`seq < ${page.beforeSeq}::bigint`);
      }
      const rows = await q
        .orderBy('seq', 'desc')
        .limit(page.limit + 1)
        .execute();
      const kept = rows.slice(0, page.limit);
      const tail = kept.at(-1);
      return {
        items: kept.map((r) => ({
          id: r.id,
          eventId: r.event_id,
          type: r.type,
          attempt: r.attempt,
          status: r.status,
          responseStatus: r.response_status,
          error: r.error,
          at: iso(r.at),
          nextAttemptAt: isoOrNull(r.next_attempt_at),
        })),
        ...(rows.length > page.limit && tail ? { lastSeq: String(tail.seq) } : {}),
      };
    },

    /**
     * Relays up to `limit` events of the outbox (oldest first, each once, `for update skip
     * locked`: any number of processes) into one pending message, due at once, per endpoint that
     * wants it: enabled, subscribed to its `type`, of the event's user when it has one, `symbols`
     * null or naming its symbol, and `portfolio_id` null or a portfolio that holds its symbol now
     * (a holding's symbol upper-cased with `.` as `-`, the ticker's spelling). Answers how many
     * events were relayed.
     */
    async relayOutbox(now: Date, limit: number): Promise<number> {
      return inTransaction(db, async (trx) => {
        const picked = await sql<{ id: string }>`select id from event_outbox
          where relayed_at is null order by seq limit ${limit} for update skip locked`.execute(trx);
        const ids = picked.rows.map((r) => r.id);
        if (ids.length === 0) return 0;
        await sql`insert into webhook_messages (endpoint_id, event_id, next_attempt_at)
          select e.id, o.id, ${now}::timestamptz
          from event_outbox o join webhook_endpoints e
            on e.disabled_at is null and o.type = any(e.events)
              and (o.user_id is null or o.user_id = e.user_id)
              and (e.symbols is null or o.symbol = any(e.symbols))
              and (e.portfolio_id is null or exists (
                select 1 from holdings h
                where h.portfolio_id = e.portfolio_id and h.user_id = e.user_id
                  and replace(upper(h.symbol), '.', '-') = o.symbol))
          where o.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})
          on conflict do nothing`.execute(trx);
        await trx
          .updateTable('event_outbox')
          .set({ relayed_at: now })
          .where('id', 'in', ids)
          .execute();
        return ids.length;
      });
    },

    /**
     * Leases up to `limit` due messages (pending, `next_attempt_at` passed, no live lease) for
     * `leaseMs`, counting the attempt; a process that dies mid-delivery leaves the lease to run
     * out, and the message is attempted again (at least once).
     */
    async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedWebhookMessage[]> {
      const until = new Date(now.getTime() + leaseMs);
      const result = await sql<{
        message_id: string;
        endpoint_id: string;
        url: string;
        secret: string;
        event_id: string;
        type: string;
        created_at: Date;
        data: Record<string, unknown>;
        attempts: number;
      }>`with due as (
          select m.id from webhook_messages m
          where m.state = 'pending' and m.next_attempt_at <= ${now}::timestamptz
            and (m.locked_until is null or m.locked_until <= ${now}::timestamptz)
          order by m.next_attempt_at limit ${limit}
          for update skip locked)
        update webhook_messages m set locked_until = ${until}::timestamptz, attempts = m.attempts + 1
        from due, webhook_endpoints e, event_outbox v
        where m.id = due.id and e.id = m.endpoint_id and v.id = m.event_id
        returning m.id as message_id, e.id as endpoint_id, e.url, e.secret, v.id as event_id,
          v.type, v.created_at, v.data, m.attempts`.execute(db);
      return result.rows.map((r) => ({
        messageId: r.message_id,
        endpointId: r.endpoint_id,
        url: r.url,
        secret: r.secret,
        eventId: r.event_id,
        type: r.type,
        timestamp: iso(new Date(r.created_at)),
        data: r.data,
        attempt: r.attempts,
      }));
    },

    /**
     * Logs an attempt and settles its message: delivered, retried at `nextAttemptAt`, failed for
     * good; `disabled` also disables the endpoint and drops its other pending messages.
     */
    async recordAttempt(
      message: ClaimedWebhookMessage,
      outcome: WebhookAttemptOutcome,
    ): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto('webhook_deliveries')
          .values({
            message_id: message.messageId,
            endpoint_id: message.endpointId,
            event_id: message.eventId,
            type: message.type,
            attempt: message.attempt,
            status: outcome.status,
            response_status: outcome.responseStatus,
            error: outcome.error,
            at: outcome.at,
            next_attempt_at: outcome.nextAttemptAt,
          })
          .execute();
        const state: WebhookMessageState =
          outcome.status === 'succeeded'
            ? 'delivered'
            : outcome.status === 'disabled'
              ? 'dropped'
              : outcome.nextAttemptAt === null
                ? 'failed'
                : 'pending';
        await trx
          .updateTable('webhook_messages')
          .set({
            state,
            locked_until: null,
            ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt } : {}),
          })
          .where('id', '=', message.messageId)
          .execute();
        if (outcome.status === 'disabled') {
          await trx
            .updateTable('webhook_endpoints')
            .set({ disabled_at: outcome.at, disabled_reason: 'the endpoint answered 410 Gone' })
            .where('id', '=', message.endpointId)
            .where('disabled_at', 'is', null)
            .execute();
          await trx
            .updateTable('webhook_messages')
            .set({ state: 'dropped', locked_until: null })
            .where('endpoint_id', '=', message.endpointId)
            .where('state', '=', 'pending')
            .execute();
        }
      });
    },

    /** The earliest `next_attempt_at` of a pending message, or undefined when none is pending. */
    async nextDue(): Promise<Date | undefined> {
      const row = await db
        .selectFrom('webhook_messages')
        .where('state', '=', 'pending')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .executeTakeFirst();
      return row?.at ? new Date(row.at as Date) : undefined;
    },
  };
}

/** The webhook repository (see {@link createWebhooksRepository}). */
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
