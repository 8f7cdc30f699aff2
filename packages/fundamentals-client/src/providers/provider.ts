import type { Fundamentals } from '@svc/schemas';

/** Per-call options of {@link FundamentalsProvider.getFundamentals}. */
export interface GetFundamentalsOptions {
  /** Cancels the call; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * A source of normalised annual fundamentals. The server picks one (configuration
 * `FUNDAMENTALS_PROVIDER`); clients never choose. Implementations: `createSecEdgarProvider`
 * (live data.sec.gov), `createSnapshotProvider` (a folder of companyfacts files); a SimFin bulk
 * CSV provider can implement the same interface.
 */
export interface FundamentalsProvider {
  /** Provider name recorded in `Fundamentals.provider` (`sec-edgar`, `snapshot`, …). */
  readonly name: string;
  /**
   * Annual fundamentals of one listed company, oldest year first.
   *
   * @param ticker - symbol, case-insensitive; `BF.B` and `BF-B` are the same.
   * @throws {FundamentalsError} `invalid_symbol` (malformed symbol), `insufficient_data`
   *   (unknown ticker, no data, fewer usable fiscal years than the provider's `minYears`),
   *   `upstream_unavailable` (source down, timing out or failing after retries), `parse_failed`
   *   (the source's document is malformed).
   */
  getFundamentals(ticker: string, options?: GetFundamentalsOptions): Promise<Fundamentals>;
}
