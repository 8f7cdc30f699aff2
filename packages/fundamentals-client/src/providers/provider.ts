import type { Fundamentals } from '@svc/schemas';

/** Per-call options of {@link FundamentalsProvider.getFundamentals}. */
export interface GetFundamentalsOptions {
  /** Cancels the call; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Read the source again, past any in-memory copy (the refresh pass after a new filing). A
   * provider without such a copy ignores it.
   */
  readonly fresh?: boolean;
  /**
   * Point in time (`YYYY-MM-DD`; a longer ISO 8601 string is read on its first 10 characters):
   * only what was public on or before that day, fiscal years ending before it. The simfin
   * provider keeps the rows whose Publish Date is on or before it (SimFin's values themselves are
   * its latest restated figures: a bulk download carries no first-published copy). Callers
   * validate the date; absent, the newest data.
   */
  readonly asOf?: string;
}

/**
 * A source of normalised annual fundamentals. The server picks one (configuration
 * `FUNDAMENTALS_PROVIDER`); clients never choose. Implementations: `createSecEdgarProvider`
 * (live data.sec.gov), `createSnapshotProvider` (a folder of companyfacts files),
 * `createSimfinProvider` (SimFin bulk CSVs).
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

/**
 * A provider that can also enumerate its companies (the bulk and snapshot providers; live SEC
 * cannot). Used to fill the evaluation cache for every company a source holds.
 */
export interface ListableFundamentalsProvider extends FundamentalsProvider {
  /**
   * Every ticker the source holds data for, normalised (`normaliseSymbol`), sorted, without
   * duplicates. A listed ticker may still answer `insufficient_data` (too few years).
   *
   * @throws {FundamentalsError} `upstream_unavailable` / `parse_failed` when the source cannot be
   *   read.
   */
  listTickers(): Promise<string[]>;
}

/** Whether `provider` implements {@link ListableFundamentalsProvider}. */
export function isListableProvider(
  provider: FundamentalsProvider,
): provider is ListableFundamentalsProvider {
  return typeof (provider as Partial<ListableFundamentalsProvider>).listTickers === 'function';
}
