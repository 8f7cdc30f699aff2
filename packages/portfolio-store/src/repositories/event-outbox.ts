import { randomUUID } from 'node:crypto';
import type { Executor } from './shared.js';

/**
 * An event to deliver (migration 0018), of any type: the Standard Webhooks envelope
 * `{ type, timestamp, data }` with who may receive it.
 */
export interface OutboxEvent {
  /** The event's id: the `webhook-id` of every delivery of it; absent, a new UUID. */
  id?: string;
  /** `evaluation.changed`, … (the types an endpoint subscribes to). */
  type: string;
  /** When the event was made: the envelope's `timestamp`. */
  at: Date;
  data: Record<string, unknown>;
  /** The (upper-case) company it is about, matched against an endpoint's `symbols`/portfolio. */
  symbol?: string | null;
  /** Only this user's endpoints receive it (a private event); absent: any endpoint. */
  userId?: string | null;
}

/**
 * SQL: writes one event to the outbox in `trx`, the transaction of what it describes; the webhook
 * dispatcher relays it to the endpoints that want it (`WebhooksRepository.relayOutbox`). Answers
 * the event's id.
 */
export async function insertOutboxEvent(trx: Executor, event: OutboxEvent): Promise<string> {
  const row = await trx
    .insertInto('event_outbox')
    .values({
      id: event.id ?? randomUUID(),
      type: event.type,
      symbol: event.symbol ?? null,
      user_id: event.userId ?? null,
      data: JSON.stringify(event.data),
      created_at: event.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
