import { z } from 'zod';

/**
 * A symbol's daily closes over a range, oldest first: each an actual close on the share basis of
 * its own trading day (splits and dividends are not applied backwards), in `currency`.
 */
export const DailyCloses = z
  .object({
    symbol: z.string().min(1).describe('Ticker symbol, upper case'),
    currency: z.string().length(3).describe('ISO 4217 currency of the closes'),
    source: z.string().min(1).describe('Provider and series the closes came from'),
    dates: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).describe('Trading days, ascending'),
    values: z.array(z.number().finite().positive()).describe('Close per share on each day'),
    estimatedDays: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'Days whose close was reconstructed from a total-return series (dividend adjustment removed, see Quote.adjustment)',
      ),
  })
  .meta({ id: 'DailyCloses' });
/** Daily closes, see the {@link DailyCloses} schema. */
export type DailyCloses = z.infer<typeof DailyCloses>;

/** Options of {@link PriceHistoryProvider.getDailyCloses}. */
export interface DailyClosesOptions {
  /** First day wanted, `YYYY-MM-DD` (the close before it, if any, is included too). */
  readonly from: string;
  /** Last day wanted, `YYYY-MM-DD`. */
  readonly to: string;
  /** Cancels file reads and HTTP requests. */
  readonly signal?: AbortSignal;
}

/**
 * Where daily price history comes from. Implementations: the offline CSV provider
 * (`createCsvQuoteProvider`, which is one) and {@link createStooqHistoryProvider} (a daily-CSV
 * HTTP service).
 */
export interface PriceHistoryProvider {
  /** Short name used in `DailyCloses.source`. */
  readonly name: string;
  /**
   * The closes from the last trading day before `from` (so that `from` itself can be valued when
   * it is a holiday) to `to`, or `null` when the symbol is unknown.
   *
   * @throws {MarketDataError} `invalid_symbol`, `invalid_argument` (bad day, `from` after `to`),
   *   `upstream_unavailable`, `parse_failed`.
   */
  getDailyCloses(symbol: string, options: DailyClosesOptions): Promise<DailyCloses | null>;
}
