import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db-types.js';

/** What repositories run on: the Kysely instance or a transaction of it (`Transaction<DB>`). */
export type Executor = Kysely<DB>;

/** A `Date` as an ISO-8601 string (UTC, milliseconds). */
export function iso(date: Date): string {
  return date.toISOString();
}

/** A nullable `Date` as an ISO-8601 string or null. */
export function isoOrNull(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/**
 * SQL: a `timestamptz` column as the text {@link iso} would make of it (`YYYY-MM-DDTHH:MM:SS.mmmZ`,
 * UTC, milliseconds truncated as the driver's `Date` truncates them; null stays null), computed
 * by the database: a list read then parses no `Date` per value and formats none back (issue 22:
 * 12% of a transactions page's CPU). Name it with `.as(…)`.
 */
export function isoText(column: string): RawBuilder<string | null> {
  return sql<
    string | null
  >`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for a UUID string. Ids come from URLs: repositories answer "not found" for a malformed id
 * instead of letting PostgreSQL reject the cast.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Runs `work` in a transaction: a new one on a `Kysely` instance, or the current one when `db` is
 * already a transaction (Kysely does not nest them).
 */
export function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}
