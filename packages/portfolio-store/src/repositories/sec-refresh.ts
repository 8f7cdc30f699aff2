import { sql } from 'kysely';
import { type Executor, inTransaction } from './shared.js';

/** An annual filing of a cached company found in SEC's daily form index. */
export interface FoundFiling {
  accession: string;
  cik: string;
  /** Upper-case symbol of the cached company. */
  symbol: string;
  form: string;
  /** YYYY-MM-DD. */
  filed: string;
}

/** A found filing whose re-evaluation is leased to this process. */
export interface LeasedFiling extends FoundFiling {
  /** YYYY-MM-DD: the index day it was found in. */
  day: string;
  /** This attempt's number, 1 for the first. */
  attempts: number;
}

/** A day of the cursor. */
export interface IndexDay {
  /** YYYY-MM-DD. */
  day: string;
  state: 'pending' | 'done';
  attempts: number;
  filings: number;
  lastStatus: number | null;
}

const dateText = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

/**
 * Creates the store of the refresh pass (migration 0016): the per-day cursor of SEC's daily form
 * index, the annual filings found in it (keyed by accession: a filing is acted on once, however
 * often its day is read, by however many processes), and the shared SEC request budget.
 */
export function createSecRefreshRepository(db: Executor) {
  return {
    /** Adds the days (YYYY-MM-DD) the cursor does not know yet, as pending. */
    async addDays(days: readonly string[]): Promise<void> {
      if (days.length === 0) return;
      await db
        .insertInto('sec_index_days')
        .values(days.map((day) => ({ day })))
        .onConflict((oc) => oc.column('day').doNothing())
        .execute();
    },

    /** The latest day the cursor knows, YYYY-MM-DD, or undefined when it is empty. */
    async latestDay(): Promise<string | undefined> {
      const row = await db
        .selectFrom('sec_index_days')
        .select(dateText('day').as('day'))
        .orderBy('day', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.day;
    },

    /** Pending days, oldest first (`only`: just that day, whatever its state). */
    async pendingDays(only?: string): Promise<IndexDay[]> {
      let q = db
        .selectFrom('sec_index_days')
        .select([
          dateText('day').as('day'),
          'state',
          'attempts',
          'filings',
          'last_status as lastStatus',
        ]);
      q = only === undefined ? q.where('state', '=', 'pending') : q.where('day', '=', only);
      return (await q.orderBy('day').execute()) as IndexDay[];
    },

    /** Records a read of a day's index that found it missing (404/403): it stays pending. */
    async dayMissing(day: string, status: number, at: Date): Promise<void> {
      await db
        .updateTable('sec_index_days')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_status: status, checked_at: at }))
        .where('day', '=', day)
        .execute();
    },

    /**
     * Records a read index: its filings of cached companies are added (once per accession) and
     * the day's count set; the day stays pending until {@link settleDay} finds all of them done.
     */
    async dayRead(day: string, filings: readonly FoundFiling[], at: Date): Promise<void> {
      await inTransaction(db, async (trx) => {
        if (filings.length > 0) {
          await trx
            .insertInto('sec_filings')
            .values(filings.map((f) => ({ ...f, day, updated_at: at })))
            .onConflict((oc) => oc.columns(['accession', 'symbol']).doNothing())
            .execute();
        }
        await trx
          .updateTable('sec_index_days')
          .set((eb) => ({
            attempts: eb('attempts', '+', 1),
            last_status: 200,
            checked_at: at,
            filings: filings.length,
          }))
          .where('day', '=', day)
          .execute();
      });
    },

    /** Marks a read day done when none of its filings is pending; true when it is done. */
    async settleDay(day: string, at: Date): Promise<boolean> {
      const result =
        await sql`update sec_index_days set state = 'done', done_at = ${at}::timestamptz
        where day = ${day}::date and last_status = 200
          and not exists (select 1 from sec_filings f where f.day = ${day}::date and f.state = 'pending')`.execute(
          db,
        );
      return Number(result.numAffectedRows ?? 0n) > 0;
    },

    /**
     * Leases one pending filing of `day` (or of any day) for `leaseMs`: a filing another process
     * holds is skipped, one whose holder died is taken again when its lease ran out.
     */
    async leaseFiling(now: Date, leaseMs: number, day?: string): Promise<LeasedFiling | undefined> {
      const until = new Date(now.getTime() + leaseMs);
      const result = await sql<LeasedFiling>`with next as (
          select accession, symbol from sec_filings
          where state = 'pending' and updated_at <= ${now}::timestamptz
            ${day === undefined ? sql`` : sql`and day = ${day}::date`}
          order by day, accession, symbol limit 1 for update skip locked)
        update sec_filings f set updated_at = ${until}::timestamptz, attempts = f.attempts + 1
        from next where f.accession = next.accession and f.symbol = next.symbol
        returning f.accession, f.cik, f.symbol, f.form, to_char(f.filed, 'YYYY-MM-DD') as filed,
          to_char(f.day, 'YYYY-MM-DD') as day, f.attempts`.execute(db);
      return result.rows[0];
    },

    /**
     * Locks a found filing of a symbol for the rest of the transaction and answers whether it is
     * still pending (false: another process settled it meanwhile; do nothing).
     */
    async lockPending(accession: string, symbol: string): Promise<boolean> {
      const row = await db
        .selectFrom('sec_filings')
        .where('accession', '=', accession)
        .where('symbol', '=', symbol)
        .select('state')
        .forUpdate()
        .executeTakeFirst();
      return row?.state === 'pending';
    },

    /**
     * Settles a missing day as done when SEC published a later day's index and this one is
     * still missing `graceDays` after it (a market holiday: no index will come); answers whether
     * it did.
     */
    async closeMissingDay(
      day: string,
      today: string,
      graceDays: number,
      at: Date,
    ): Promise<boolean> {
      const result =
        await sql`update sec_index_days d set state = 'done', done_at = ${at}::timestamptz
        where d.day = ${day}::date and d.state = 'pending' and d.last_status in (403, 404)
          and d.day + ${graceDays}::int < ${today}::date
          and exists (select 1 from sec_index_days l where l.day > d.day and l.last_status = 200)`.execute(
          db,
        );
      return Number(result.numAffectedRows ?? 0n) > 0;
    },

    /** Settles a leased filing: `done` with the kept evaluation, or `failed` with the error. */
    async settleFiling(
      accession: string,
      symbol: string,
      outcome: { state: 'done' | 'failed' | 'pending'; historyId?: string; error?: string },
      at: Date,
    ): Promise<void> {
      await db
        .updateTable('sec_filings')
        .set({
          state: outcome.state,
          history_id: outcome.historyId ?? null,
          error: outcome.error ?? null,
          updated_at: at,
        })
        .where('accession', '=', accession)
        .where('symbol', '=', symbol)
        .execute();
    },

    /** The found filings of an accession, one per symbol (tests and the CLI's report). */
    async filings(accession: string) {
      return db
        .selectFrom('sec_filings')
        .where('accession', '=', accession)
        .select(['accession', 'symbol', 'form', 'state', 'attempts', 'history_id', 'error'])
        .orderBy('symbol')
        .execute();
    },

    /**
     * Takes the next slot of SEC's shared request budget: one request every `intervalMs` across
     * every process on this database. Returns how long to wait before sending (0: now).
     */
    async takeSecSlot(intervalMs: number): Promise<number> {
      const result = await sql<{ wait_ms: number }>`with slot as (
          select greatest(next_at, clock_timestamp()) as at from sec_rate where id = 1 for update)
        update sec_rate set next_at = slot.at + make_interval(secs => ${intervalMs / 1000})
        from slot where id = 1
        returning greatest(0, extract(epoch from (slot.at - clock_timestamp())) * 1000)::float8 as wait_ms`.execute(
        db,
      );
      return Math.max(0, Math.ceil(result.rows[0]?.wait_ms ?? 0));
    },
  };
}

/** The refresh pass's store (see {@link createSecRefreshRepository}). */
export type SecRefreshRepository = ReturnType<typeof createSecRefreshRepository>;
