import { CompiledQuery, type Selectable, sql } from 'kysely';
import type { TokenActivityTable } from '../db-types.js';
import { prepareStatement } from '../prepared-statements.js';
import { type Executor, iso, isUuid } from './shared.js';

/** One recorded call made with a personal access token (an MCP tool call). */
export interface TokenActivity {
  /** Row id (a decimal string: a `bigint` identity). */
  id: string;
  /** ISO-8601 instant the call started. */
  at: string;
  /** The tool called. */
  tool: string;
  /** `ok`, `error` (the call answered a problem) or `denied` (a scope was missing). */
  outcome: string;
  /** The problem code of a failed call, else null. */
  errorCode: string | null;
  /** Units spent per quota name (empty when none). */
  quotaSpent: Record<string, number>;
  /** Milliseconds from the call's start to its answer. */
  durationMs: number;
  /** The arguments as recorded (secrets redacted, size bounded), or null. */
  arguments: unknown;
}

/** A call to record (see {@link TokenActivity}); the caller redacts and bounds `arguments`. */
export interface NewTokenActivity {
  tokenId: string;
  userId: string;
  at: Date;
  tool: string;
  outcome: string;
  errorCode: string | null;
  quotaSpent: Readonly<Record<string, number>>;
  durationMs: number;
  arguments: unknown;
}

function toActivity(row: Selectable<TokenActivityTable>): TokenActivity {
  return {
    id: String(row.id),
    at: iso(row.at),
    tool: row.tool,
    outcome: row.outcome,
    errorCode: row.error_code,
    quotaSpent: row.quota_spent,
    durationMs: row.duration_ms,
    arguments: row.arguments,
  };
}

/** A call as its `token_activity` row (quota and arguments as JSON text, duration whole ms). */
function rowOf(entry: NewTokenActivity) {
  return {
    token_id: entry.tokenId,
    user_id: entry.userId,
    at: entry.at,
    tool: entry.tool,
    outcome: entry.outcome,
    error_code: entry.errorCode,
    quota_spent: JSON.stringify(entry.quotaSpent),
    duration_ms: Math.max(0, Math.round(entry.durationMs)),
    arguments: entry.arguments === undefined ? null : JSON.stringify(entry.arguments),
  };
}

/**
 * The `INSERT` of one call that spent no quota unit, as text: the common case (a read-only call
 * while no other is being written), run without Kysely compiling it per call and registered as a
 * named prepared statement (`prepareStatement`), so a PostgreSQL connection parses and plans it
 * once. `synchronous_commit` is off for its own transaction (see `recordMany`).
 */
const ASYNC_INSERT_ONE = `insert into token_activity
    (token_id, user_id, at, tool, outcome, error_code, quota_spent, duration_ms, arguments)
  select $1::uuid, $2::uuid, $3::timestamptz, $4::text, $5::text, $6::text, $7::jsonb,
    $8::integer, $9::jsonb
  from (select set_config('synchronous_commit', 'off', true)) as async_commit`;
prepareStatement(ASYNC_INSERT_ONE);

/** Creates the repository of the audit log of personal access tokens (`token_activity`). */
export function createTokenActivityRepository(db: Executor) {
  /**
   * Records calls in one INSERT (a multi-row `VALUES`), no answer read back; nothing for an
   * empty list. When none of them spent a quota unit, the statement's own transaction commits
   * without waiting for its WAL record to reach the disk (`synchronous_commit` off for that
   * transaction, set beside it in the same statement), so read-only tool calls do not wait for
   * a disk flush their answers do not need; a crash of the database server may then forget the
   * last fraction of a second of such rows (PostgreSQL: "Asynchronous Commit", at most three
   * times `wal_writer_delay`). When any of them spent a unit, all are committed synchronously,
   * as the unit itself is. The rows are visible to readers at once either way.
   */
  async function recordMany(entries: readonly NewTokenActivity[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(rowOf);
    if (entries.some((entry) => Object.values(entry.quotaSpent).some((units) => units > 0))) {
      await db.insertInto('token_activity').values(rows).execute();
      return;
    }
    const [row] = rows;
    if (rows.length === 1 && row !== undefined) {
      await db.executeQuery(
        CompiledQuery.raw(ASYNC_INSERT_ONE, [
          row.token_id,
          row.user_id,
          row.at,
          row.tool,
          row.outcome,
          row.error_code,
          row.quota_spent,
          row.duration_ms,
          row.arguments,
        ]),
      );
      return;
    }
    const values = sql.join(
      rows.map(
        (row) => sql`(${row.token_id}::uuid, ${row.user_id}::uuid, ${row.at}::timestamptz,
          ${row.tool}::text, ${row.outcome}::text, ${row.error_code}::text,
          ${row.quota_spent}::jsonb, ${row.duration_ms}::integer, ${row.arguments}::jsonb)`,
      ),
    );
    await sql`insert into token_activity
        (token_id, user_id, at, tool, outcome, error_code, quota_spent, duration_ms, arguments)
      select v.* from (values ${values})
        as v (token_id, user_id, at, tool, outcome, error_code, quota_spent, duration_ms, arguments),
        (select set_config('synchronous_commit', 'off', true)) as async_commit`.execute(db);
  }

  return {
    /** Records one call; see `recordMany`. */
    record: (entry: NewTokenActivity): Promise<void> => recordMany([entry]),

    recordMany,

    /**
     * One page of a token's calls at or after `since`, newest first, and how many there are;
     * only rows of `userId` (another user's token reads as empty; check ownership first).
     */
    async page(
      userId: string,
      tokenId: string,
      options: { since: Date; limit: number; offset: number },
    ): Promise<{ items: TokenActivity[]; total: number }> {
      if (!isUuid(tokenId)) return { items: [], total: 0 };
      const rows = db
        .selectFrom('token_activity')
        .where('token_id', '=', tokenId)
        .where('user_id', '=', userId)
        .where('at', '>=', options.since);
      const [items, count] = await Promise.all([
        rows
          .selectAll()
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        rows.select((eb) => eb.fn.countAll<string | number | bigint>().as('n')).executeTakeFirst(),
      ]);
      return { items: items.map(toActivity), total: Number(count?.n ?? 0) };
    },

    /** Deletes every recorded call before `before`; answers how many. */
    async purge(before: Date): Promise<number> {
      const result = await db
        .deleteFrom('token_activity')
        .where('at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
