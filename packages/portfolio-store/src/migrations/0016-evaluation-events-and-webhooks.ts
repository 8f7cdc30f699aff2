import { type Kysely, sql } from 'kysely';

/**
 * Migration 0016: the market kept current (issue 33, CONTRACT §7).
 *
 * - `evaluation_history.trigger` also accepts `filing` (a re-evaluation caused by a new annual
 *   filing found in SEC's daily form index) and `cause` keeps that filing
 *   (`{ accession, form, filed, cik }`), null for the other triggers.
 * - `evaluation_events`: one `evaluation.changed` event per kept evaluation that differs from the
 *   symbol's previous one (verdict, total by ≥ 1 point, or a criterion's status), written in the
 *   same transaction as the history row (`history_id`, unique). Global, like the history; read as
 *   a feed in insertion order (`seq`).
 * - `webhook_endpoints`: a user's endpoints (cascade on the user), with the signing secret
 *   (`whsec_…`) and `disabled_at` (a 410 answer disables one).
 * - `webhook_messages`: one per endpoint and event (unique), written with the event: what is still
 *   to deliver (`state` `pending` until `delivered`, `failed` after the last retry, or `dropped`
 *   when the endpoint is disabled), `attempts`, `next_attempt_at`, and a lease (`locked_until`) so
 *   that any number of processes deliver each at most once at a time.
 * - `webhook_deliveries`: the delivery log, one row per attempt.
 * - `sec_index_days`: the per-day cursor of the daily form index (`pending` until the day's index
 *   was read and every filing in it done; a day whose index is not published yet stays pending).
 * - `sec_filings`: each annual filing of a cached company found in an index, `pending` until its
 *   re-evaluation was kept (`done`) or failed for good (`failed`); the accession and symbol are the
 *   key (one filing of a company with two cached share classes re-evaluates both), so a filing is
 *   acted on once however often its day is read.
 * - `sec_rate`: one row, the next free instant of SEC's shared request budget (10 a second across
 *   every process).
 *
 * `down` drops them and restores the trigger check.
 */
export const evaluationEventsAndWebhooks = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table evaluation_history drop constraint if exists evaluation_history_trigger_check`.execute(
      db,
    );
    await sql`alter table evaluation_history add constraint evaluation_history_trigger_check
      check ("trigger" in ('request', 'fill-cache', 'filing'))`.execute(db);
    await db.schema.alterTable('evaluation_history').addColumn('cause', 'jsonb').execute();

    await db.schema
      .createTable('evaluation_events')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('seq', 'bigint', (c) => c.notNull().unique().generatedByDefaultAsIdentity())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('history_id', 'uuid', (c) =>
        c.notNull().unique().references('evaluation_history.id').onDelete('cascade'),
      )
      .addColumn('data', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create index evaluation_events_time_idx on evaluation_events (created_at)`.execute(
      db,
    );
    await sql`create index evaluation_events_symbol_idx on evaluation_events (symbol, seq)`.execute(
      db,
    );

    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', sql`text[]`, (c) => c.notNull())
      .addColumn('symbols', sql`text[]`)
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('disabled_at', 'timestamptz')
      .addColumn('disabled_reason', 'text')
      .execute();
    await sql`create index webhook_endpoints_user_idx on webhook_endpoints (user_id, created_at desc)`.execute(
      db,
    );

    await db.schema
      .createTable('webhook_messages')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('endpoint_id', 'uuid', (c) =>
        c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'uuid', (c) =>
        c.notNull().references('evaluation_events.id').onDelete('cascade'),
      )
      .addColumn('state', 'text', (c) =>
        c
          .notNull()
          .defaultTo('pending')
          .check(sql`state in ('pending', 'delivered', 'failed', 'dropped')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('locked_until', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('webhook_messages_endpoint_event_key', ['endpoint_id', 'event_id'])
      .execute();
    await sql`create index webhook_messages_due_idx on webhook_messages (next_attempt_at) where state = 'pending'`.execute(
      db,
    );

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('seq', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity())
      .addColumn('message_id', 'uuid', (c) =>
        c.notNull().references('webhook_messages.id').onDelete('cascade'),
      )
      .addColumn('endpoint_id', 'uuid', (c) =>
        c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'uuid', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('error', 'text')
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addColumn('next_attempt_at', 'timestamptz')
      .execute();
    await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, seq desc)`.execute(
      db,
    );

    await db.schema
      .createTable('sec_index_days')
      .addColumn('day', 'date', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) =>
        c.notNull().defaultTo('pending').check(sql`state in ('pending', 'done')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('filings', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_status', 'integer')
      .addColumn('checked_at', 'timestamptz')
      .addColumn('done_at', 'timestamptz')
      .execute();

    await db.schema
      .createTable('sec_filings')
      .addColumn('accession', 'text', (c) => c.notNull())
      .addColumn('day', 'date', (c) => c.notNull())
      .addColumn('cik', 'text', (c) => c.notNull())
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('form', 'text', (c) => c.notNull())
      .addColumn('filed', 'date', (c) => c.notNull())
      .addColumn('state', 'text', (c) =>
        c.notNull().defaultTo('pending').check(sql`state in ('pending', 'done', 'failed')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('history_id', 'uuid')
      .addColumn('error', 'text')
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('sec_filings_pkey', ['accession', 'symbol'])
      .execute();
    await sql`create index sec_filings_day_idx on sec_filings (day, state)`.execute(db);

    await db.schema
      .createTable('sec_rate')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('next_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`insert into sec_rate (id) values (1)`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of [
      'sec_rate',
      'sec_filings',
      'sec_index_days',
      'webhook_deliveries',
      'webhook_messages',
      'webhook_endpoints',
      'evaluation_events',
    ]) {
      await db.schema.dropTable(table).ifExists().execute();
    }
    await db.schema.alterTable('evaluation_history').dropColumn('cause').execute();
    await sql`delete from evaluation_history where "trigger" = 'filing'`.execute(db);
    await sql`alter table evaluation_history drop constraint if exists evaluation_history_trigger_check`.execute(
      db,
    );
    await sql`alter table evaluation_history add constraint evaluation_history_trigger_check
      check ("trigger" in ('request', 'fill-cache'))`.execute(db);
  },
};
