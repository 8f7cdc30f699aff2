import { z } from 'zod';

/**
 * A point in time for an evaluation (CONTRACT §9 "As of a date"): a calendar day `YYYY-MM-DD`
 * (ISO 8601, a real date). Figures as of it are those filed (SEC) or published (SimFin) on or
 * before it, for fiscal years ending before it.
 */
export const AsOfDate = z.iso
  .date()
  .describe(
    'Point in time, YYYY-MM-DD: only figures filed on or before it, for fiscal years ending before it',
  )
  .meta({ id: 'AsOfDate' });

/** A point in time (see {@link AsOfDate}). */
export type AsOfDate = z.infer<typeof AsOfDate>;
