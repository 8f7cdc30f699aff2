import { type Kysely, sql } from 'kysely';

/**
 * Migration 0018: one outbox for every event kind, and webhooks limited to a portfolio (issues 37
 * and 38).
 *
 * - `event_outbox`: every event to deliver, whatever its `type` (`evaluation.changed` today, the
 *   portfolio's and the methodology's next), as its envelope `{ type, timestamp: created_at, data }`,
 *   written in the same transaction as what it describes. `symbol` is the company it is about (null
 *   for none); `user_id` limits it to that user's endpoints (null: a public event, such as a
 *   company's evaluation). The dispatcher relays each row once (`relayed_at`): it writes one
 *   `webhook_messages` row per endpoint that wants the event, deciding then, not when the event was
 *   made, so a subscription limited to a portfolio follows what the portfolio holds at that time.
 *   Existing `evaluation_events` are copied, already relayed (their messages exist), with the
 *   event fields added since: `cause` (`filing` when it names one, else `data`) and each side's
 *   `methodologyVersion` (`"1"`).
 * - `webhook_messages.event_id` now refers to the outbox row (an event of any kind).
 * - `webhook_endpoints.portfolio_id`: the endpoint takes only events of symbols that portfolio
 *   holds (null: any); it goes with the portfolio.
 *
 * `down` restores the reference to `evaluation_events` (dropping messages of other events) and
 * drops the rest.
 */
export const eventOutbox = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('event_outbox')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('seq', 'bigint', (c) => c.notNull().unique().generatedByDefaultAsIdentity())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('symbol', 'text')
      .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('data', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('relayed_at', 'timestamptz')
      .execute();
    await sql`create index event_outbox_pending_idx on event_outbox (seq) where relayed_at is null`.execute(
      db,
    );
    await sql`create index event_outbox_user_idx on event_outbox (user_id) where user_id is not null`.execute(
      db,
    );
    // Events made before `cause` and `methodologyVersion` (issue 37): a filing's or a data change,
    // of evaluations made with methodology "1".
    await sql`update evaluation_events set data = jsonb_set(jsonb_set(
        data || jsonb_build_object('cause', case when data ? 'filing' then 'filing' else 'data' end),
        '{previous,methodologyVersion}', '"1"'), '{current,methodologyVersion}', '"1"')
      where type = 'evaluation.changed' and not data ? 'cause'`.execute(db);
    await sql`insert into event_outbox (id, type, symbol, data, created_at, relayed_at)
      select id, type, symbol, data, created_at, created_at from evaluation_events order by seq`.execute(
      db,
    );
    await sql`alter table webhook_messages drop constraint if exists webhook_messages_event_id_fkey`.execute(
      db,
    );
    await sql`alter table webhook_messages add constraint webhook_messages_event_id_fkey
      foreign key (event_id) references event_outbox (id) on delete cascade`.execute(db);
    await db.schema
      .alterTable('webhook_endpoints')
      .addColumn('portfolio_id', 'uuid', (c) => c.references('portfolios.id').onDelete('cascade'))
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('webhook_endpoints').dropColumn('portfolio_id').execute();
    await sql`alter table webhook_messages drop constraint if exists webhook_messages_event_id_fkey`.execute(
      db,
    );
    await sql`delete from webhook_messages m
      where not exists (select 1 from evaluation_events v where v.id = m.event_id)`.execute(db);
    await sql`alter table webhook_messages add constraint webhook_messages_event_id_fkey
      foreign key (event_id) references evaluation_events (id) on delete cascade`.execute(db);
    await db.schema.dropTable('event_outbox').ifExists().execute();
  },
};
