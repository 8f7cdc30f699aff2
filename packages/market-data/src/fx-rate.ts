import { z } from 'zod';

/**
 * An exchange rate: one unit of `base` buys `rate` units of `quote`, as published for `asOf`.
 * ECB reference rates have base EUR; other pairs are cross rates through EUR.
 */
export const FxRate = z
  .object({
    base: z.string().length(3).describe('ISO 4217 currency sold, e.g. EUR'),
    quote: z.string().length(3).describe('ISO 4217 currency bought, e.g. USD'),
    rate: z.number().finite().positive().describe('Units of quote per one unit of base'),
    asOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('Business day of the published rate, YYYY-MM-DD'),
    source: z.string().min(1).describe('Publisher and file, e.g. ecb:eurofxref-hist.csv'),
  })
  .meta({ id: 'FxRate' });
/** An exchange rate, see the {@link FxRate} schema. */
export type FxRate = z.infer<typeof FxRate>;

/** Options of {@link FxProvider.getRate}. */
export interface FxRateOptions {
  /** Day wanted, `YYYY-MM-DD`; weekends and holidays use the last business day before it. Default: latest. */
  readonly asOf?: string;
}

/** Where exchange rates come from (ECB files or the ECB daily XML). */
export interface FxProvider {
  /**
   * The rate `from` → `to` (one `from` buys `rate` `to`) on or before `options.asOf`, or `null`
   * when either currency has no rate on or before that day.
   *
   * @throws {MarketDataError} `invalid_argument` (bad currency or date), `upstream_unavailable`,
   *   `parse_failed`.
   */
  getRate(from: string, to: string, options?: FxRateOptions): Promise<FxRate | null>;
  /**
   * The first and last business day the rates this provider holds give `currency` against EUR,
   * answered from what it already holds (a file read once, documents already downloaded): it
   * never fetches. `null` when it holds nothing yet (`first`/`last` null: it holds no rate of
   * `currency`). Lets a message
   * say where the rate data ends ("the ECB file eurofxref-hist.csv ends on 2026-04-17").
   *
   * @throws {MarketDataError} `invalid_argument` (bad currency); the file provider: what reading
   *   its file throws.
   */
  coverage?(currency: string): Promise<FxCoverage | null>;
}

/** The days a rate source holds for one currency against EUR (see {@link FxProvider.coverage}). */
export interface FxCoverage {
  /** ISO 4217 code. */
  readonly currency: string;
  /** First business day with a rate of the currency, `YYYY-MM-DD`; `null`: none held. */
  readonly first: string | null;
  /** Last business day with a rate of the currency, `YYYY-MM-DD`; `null`: none held. */
  readonly last: string | null;
  /** As {@link FxRate.source}: `ecb:eurofxref-hist.csv`. */
  readonly source: string;
}
