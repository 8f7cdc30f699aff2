import type { Selectable } from 'kysely';
import type { SessionsTable } from '../db-types.js';
import { type Executor, iso, isoOrNull, isUuid } from './shared.js';

/** A server-side session; its `id` is the JWT's `sid`. */
export interface Session {
  id: string;
  userId: string;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  expiresAt: string;
  /** ISO-8601, null while the session is usable. */
  revokedAt: string | null;
  userAgent: string | null;
  ip: string | null;
}

/** Fields of a new session. */
export interface NewSession {
  expiresAt: Date;
  userAgent?: string | null;
  ip?: string | null;
}

function toSession(row: Selectable<SessionsTable>): Session {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    revokedAt: isoOrNull(row.revoked_at),
    userAgent: row.user_agent,
    ip: row.ip,
  };
}

/** Creates the sessions repository over `db`. Every query is scoped by the owning user. */
export function createSessionsRepository(db: Executor) {
  return {
    /** Opens a session for a user. */
    async create(userId: string, session: NewSession): Promise<Session> {
      const row = await db
        .insertInto('sessions')
        .values({
          user_id: userId,
          expires_at: session.expiresAt,
          user_agent: session.userAgent ?? null,
          ip: session.ip ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSession(row);
    },

    /**
     * The session `sessionId` of `userId` (the JWT's `sub` and `sid`) when it is neither revoked
     * nor expired at `now`; undefined otherwise.
     */
    async findActive(userId: string, sessionId: string, now: Date): Promise<Session | undefined> {
      if (!isUuid(sessionId) || !isUuid(userId)) return undefined;
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row && toSession(row);
    },

    /** Revokes one session of a user. Answers whether a live session was revoked. */
    async revoke(userId: string, sessionId: string, now: Date): Promise<boolean> {
      if (!isUuid(sessionId)) return false;
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('id', '=', sessionId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Revokes every live session of a user but `keepSessionId` (after a password change): one
     * statement, whose rows the database announces to every process (migration 0006). Answers
     * the ids revoked.
     */
    async revokeOthers(userId: string, keepSessionId: string, now: Date): Promise<string[]> {
      const rows = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('id', '<>', keepSessionId)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },

    /** Revokes every live session of a user (sign out everywhere). Answers how many. */
    async revokeAllForUser(userId: string, now: Date): Promise<number> {
      const result = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

/** The sessions repository (see {@link createSessionsRepository}). */
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
