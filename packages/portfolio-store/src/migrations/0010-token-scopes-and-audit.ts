import { type Kysely, sql } from 'kysely';

/** Every scope a token could have when this migration was written (existing tokens get them all). */
const ALL_SCOPES = [
  'portfolio:read',
  'portfolio:values',
  'moat:read',
  'moat:fresh',
  'ai:consult',
  'reports:write',
];

/**
 * Migration 0010: scopes of personal access tokens and their audit log.
 *
 * - `personal_access_tokens.scopes` (`text[]`): the rights of a token. Tokens that exist when the
 *   migration runs keep full access (every scope); the column has no default afterwards, so every
 *   new token names its scopes. A change of a token's scopes is announced like a revocation
 *   (`token:<id>` on the channel of migration 0006), so processes that remember verified tokens
 *   forget it at once.
 * - `token_activity`: one row per MCP call made with a token (tool, instant, outcome, quota
 *   spent, duration, redacted arguments), deleted with its token or user; read newest first per
 *   token, purged by age (`at`).
 */
export const tokenScopesAndAudit = {
  async up(db: Kysely<unknown>): Promise<void> {
    const every = sql.raw(`array[${ALL_SCOPES.map((s) => `'${s}'`).join(', ')}]::text[]`);
    await sql`alter table personal_access_tokens add column scopes text[] not null default ${every}`.execute(
      db,
    );
    await sql`alter table personal_access_tokens alter column scopes drop default`.execute(db);
    await sql`
      create trigger tokens_scopes_changed after update of scopes on personal_access_tokens
      for each row when (old.scopes is distinct from new.scopes)
      execute function notify_session_change()`.execute(db);
    await db.schema
      .createTable('token_activity')
      .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('token_id', 'uuid', (c) =>
        c.notNull().references('personal_access_tokens.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('error_code', 'text')
      .addColumn('quota_spent', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('arguments', 'jsonb')
      .execute();
    await sql`create index token_activity_token_idx on token_activity (token_id, at desc, id desc)`.execute(
      db,
    );
    await db.schema
      .createIndex('token_activity_at_idx')
      .on('token_activity')
      .column('at')
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('token_activity').ifExists().execute();
    await sql`drop trigger if exists tokens_scopes_changed on personal_access_tokens`.execute(db);
    await sql`alter table personal_access_tokens drop column if exists scopes`.execute(db);
  },
};
