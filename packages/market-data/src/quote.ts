import { z } from 'zod';

/**
 * A share price at the close of one trading day.
 *
 * - `price`: close per share in `currency`, on the share basis of the `asOf` day's trading
 *   (`splitBasisAsOf`), not dividend-adjusted unless `adjustment` says it was estimated.
 * - `asOf`: the trading day, `YYYY-MM-DD` (on or before the requested day).
 * - `source`: provider and series, e.g. `yahoo-csv:yahoo_daily_2000_2024-03`.
 * - `splitBasisAsOf`: the day whose share count the price refers to; equal to `asOf` for the CSV
 *   provider, so that dividing by an EPS reported for that time is meaningful.
 * - `adjustment`: `none` for an actual close; `dividends-estimated` for a close reconstructed from
 *   a total-return adjusted series, with `maxRelativeError` bounding the estimate (fraction).
 */
export const Quote = z
  .object({
    symbol: z.string().min(1).describe('Ticker symbol, upper case'),
    price: z.number().finite().positive().describe('Close per share, in `currency`'),
    currency: z.string().length(3).describe('ISO 4217 currency of the price'),
    asOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('Trading day of the close, YYYY-MM-DD'),
    source: z.string().min(1).describe('Provider and series the price came from'),
    splitBasisAsOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .describe('Day whose share basis the price is on, YYYY-MM-DD'),
    adjustment: z
      .enum(['none', 'dividends-estimated'])
      .optional()
      .describe(
        'none: an actual close; dividends-estimated: un-adjusted from a total-return series',
      ),
    maxRelativeError: z
      .number()
      .finite()
      .nonnegative()
      .optional()
      .describe('Bound on the relative error of an estimated price (fraction, 0.01 = 1 %)'),
  })
  .meta({ id: 'Quote' });
/** A share price, see the {@link Quote} schema. */
export type Quote = z.infer<typeof Quote>;

/** Options of {@link QuoteProvider.getQuote}. */
export interface QuoteOptions {
  /** Latest acceptable trading day, `YYYY-MM-DD`; default: the latest available. */
  readonly asOf?: string;
  /** Cancels file reads and HTTP requests. */
  readonly signal?: AbortSignal;
}

/**
 * Where quotes come from. Implementations: {@link createCsvQuoteProvider} (offline files) and
 * {@link createHttpQuoteProvider} (a JSON API).
 */
export interface QuoteProvider {
  /** Short name used in `Quote.source` and logs, e.g. `yahoo-csv`. */
  readonly name: string;
  /**
   * The close on or before `options.asOf` (default: the latest available), or `null` when the
   * symbol is unknown or has no price on or before that day.
   *
   * @throws {MarketDataError} `invalid_symbol`, `invalid_argument` (bad date),
   *   `upstream_unavailable`, `parse_failed`.
   */
  getQuote(symbol: string, options?: QuoteOptions): Promise<Quote | null>;
}
