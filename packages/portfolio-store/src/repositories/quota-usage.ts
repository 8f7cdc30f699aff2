import { sql } from 'kysely';
import type { Executor } from './shared.js';

/** One counter of `quota_usage`: a user's quota in the period that starts at `periodStart`. */
export interface QuotaCounterKey {
  readonly userId: string;
  /** The quota's name, e.g. `stock_evaluation` or `ai_consult` (`@svc/quota` owns the names). */
  readonly quota: string;
  /** Start of the counting period (UTC instant). */
  readonly periodStart: Date;
}

/**
 * The `quota_usage` table (migration 0001): per user, quota and period, the units used. The
 * policy (limits, periods, refunds on failure) is `@svc/quota`'s; this repository only counts.
 */
export function createQuotaUsageRepository(db: Executor) {
  return {
    /**
     * Adds `units` to a counter in ONE atomic statement, only while the sum stays within `limit`.
     * The INSERT … SELECT inserts nothing when `units` alone exceed the limit; ON CONFLICT adds to
     * the existing counter only while the sum stays within the limit. PostgreSQL locks the
     * conflicting row and re-checks the WHERE on its latest version, so N concurrent calls with
     * k units left succeed exactly k times, from any number of connections or processes.
     * @returns the units used afterwards, or `undefined` when refused (nothing changed).
     */
    async consumeWithin(
      key: QuotaCounterKey,
      units: number,
      limit: number,
    ): Promise<number | undefined> {
      const { rows } = await sql<{ used: number }>`
        insert into quota_usage (user_id, quota, period_start, used)
        select ${key.userId}::uuid, ${key.quota}, ${key.periodStart}::timestamptz, ${units}::int
        where ${units}::int <= ${limit}::int
        on conflict (user_id, quota, period_start) do update
          set used = quota_usage.used + excluded.used
          where quota_usage.used + excluded.used <= ${limit}::int
        returning used`.execute(db);
      return rows[0]?.used;
    },

    /** The units used of a counter (0 when the period has none yet). */
    async used(key: QuotaCounterKey): Promise<number> {
      const row = await db
        .selectFrom('quota_usage')
        .select('used')
        .where('user_id', '=', key.userId)
        .where('quota', '=', key.quota)
        .where('period_start', '=', key.periodStart)
        .executeTakeFirst();
      return row?.used ?? 0;
    },

    /**
     * Gives `units` back to a counter, never below 0 (one statement).
     * @returns the units used afterwards, or `undefined` when the counter does not exist.
     */
    async giveBack(key: QuotaCounterKey, units: number): Promise<number | undefined> {
      const row = await db
        .updateTable('quota_usage')
        .set({ used: sql<number>`greatest(used - ${units}::int, 0)` })
        .where('user_id', '=', key.userId)
        .where('quota', '=', key.quota)
        .where('period_start', '=', key.periodStart)
        .returning('used')
        .executeTakeFirst();
      return row?.used;
    },

    /** Removes a user's counters of every period (of one quota, or all). Answers the rows removed. */
    async clear(userId: string, quota?: string): Promise<number> {
      let del = db.deleteFrom('quota_usage').where('user_id', '=', userId);
      if (quota !== undefined) del = del.where('quota', '=', quota);
      const result = await del.executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** The `quota_usage` repository (see {@link createQuotaUsageRepository}). */
export type QuotaUsageRepository = ReturnType<typeof createQuotaUsageRepository>;
