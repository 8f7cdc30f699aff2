import type { Kysely } from 'kysely';
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
