import { type Kysely, sql } from 'kysely';

/**
 * Migration 0006: state that several server processes share.
 *
 * - `rate_limits`: fixed-window counters (the login throttle, the per-user request limit), in
 *   the layout of `rate-limiter-flexible`'s PostgreSQL store (`key`, `points`, `expire` in epoch
 *   milliseconds), so that every process counts against the same rows.
 * - Triggers that announce, on the channel {@link SESSION_CHANGES_CHANNEL}, every session that
 *   ends (revoked or deleted: payload `session:<id>`) and every user whose plan changes or who is
 *   deleted (`user:<id>`). Processes that remember verified sessions for a few seconds `LISTEN`
 *   and forget them at once, whichever process (or an administrator's SQL) made the change.
 */
export const sharedLimitsAndSessionNotify = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expire', 'bigint')
      .execute();
    await sql`
      create function notify_session_change() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'sessions' then
          perform pg_notify('svc_session_changes', 'session:' || old.id::text);
        else
          perform pg_notify('svc_session_changes', 'user:' || old.id::text);
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger sessions_revoked after update of revoked_at on sessions for each row
      when (old.revoked_at is null and new.revoked_at is not null)
      execute function notify_session_change()`.execute(db);
    await sql`
      create trigger sessions_deleted after delete on sessions for each row
      execute function notify_session_change()`.execute(db);
    await sql`
      create trigger users_plan_changed after update of plan on users for each row
      when (old.plan is distinct from new.plan)
      execute function notify_session_change()`.execute(db);
    await sql`
      create trigger users_deleted after delete on users for each row
      execute function notify_session_change()`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop trigger if exists users_deleted on users`.execute(db);
    await sql`drop trigger if exists users_plan_changed on users`.execute(db);
    await sql`drop trigger if exists sessions_deleted on sessions`.execute(db);
    await sql`drop trigger if exists sessions_revoked on sessions`.execute(db);
    await sql`drop function if exists notify_session_change()`.execute(db);
    await db.schema.dropTable('rate_limits').execute();
  },
};

/** The `LISTEN` channel of the session triggers of migration 0006. */
export const SESSION_CHANGES_CHANNEL = 'svc_session_changes';
