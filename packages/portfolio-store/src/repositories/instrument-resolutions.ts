import type { Instrument } from '@svc/schemas';
import { sql } from 'kysely';
import type { Executor } from './shared.js';

/** One cached answer of an identifier service: `instrument` null when it knew nothing. */
export interface InstrumentResolutionEntry {
  /** `isin:<ISIN>` or `ticker:<TICKER>`. */
  key: string;
  instrument: Instrument | null;
  /** The service (`openfigi`). */
  source: string;
}

/**
 * The cache of identifier services' answers (`instrument_resolutions`, migration 0019): public
 * reference data, shared by every user (no user's data is in it).
 */
export function createInstrumentResolutionsRepository(db: Executor) {
  return {
    /**
     * The cached answers for `keys` no older than `maxAgeMs` (answers with an instrument) or
     * `negativeMaxAgeMs` (answers without one), by key.
     */
    async cached(
      keys: readonly string[],
      ages: { maxAgeMs: number; negativeMaxAgeMs: number; now: Date },
    ): Promise<Map<string, Instrument | null>> {
      const out = new Map<string, Instrument | null>();
      if (keys.length === 0) return out;
      const rows = await db
        .selectFrom('instrument_resolutions')
        .select(['key', 'instrument', 'resolved_at'])
        .where('key', 'in', [...keys])
        .execute();
      for (const row of rows) {
        const age = ages.now.getTime() - new Date(row.resolved_at).getTime();
        if (age <= (row.instrument ? ages.maxAgeMs : ages.negativeMaxAgeMs)) {
          out.set(row.key, row.instrument ?? null);
        }
      }
      return out;
    },

    /** Stores answers (a newer answer for a key replaces the older one). */
    async remember(entries: readonly InstrumentResolutionEntry[], now: Date): Promise<void> {
      if (entries.length === 0) return;
      await db
        .insertInto('instrument_resolutions')
        .values(
          entries.map((e) => ({
            key: e.key,
            instrument: e.instrument ? JSON.stringify(e.instrument) : null,
            source: e.source,
            resolved_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            instrument: sql`excluded.instrument`,
            source: sql`excluded.source`,
            resolved_at: sql`excluded.resolved_at`,
          }),
        )
        .execute();
    },
  };
}
