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
   * Point in time, `YYYY-MM-DD` (issue 39): the fundamentals as they could be known at the end of
   * that day — only figures filed (SEC: `filed`) or published (SimFin: `Publish Date`) on or
   * before it, for fiscal years ending before it; a value filed again later (a restatement) as it
   * was first filed. The result carries it as `Fundamentals.asOf` and is cached apart from the
   * latest figures. Default: the latest figures.
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
   *   `insufficient_history` (with `asOf`: a known company with fewer usable fiscal years filed
   *   by that date than `minYears`),
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

const AS_OF = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * The memo key of a call: the symbol, or `symbol@asOf` for a point in time (cached apart).
 *
 * @throws {RangeError} when `asOf` is not a `YYYY-MM-DD` date (callers validate it at their
 *   boundary: `AsOfDate` of `@svc/schemas`).
 */
export function memoKey(symbol: string, asOf: string | undefined): string {
  if (asOf === undefined) return symbol;
  if (!AS_OF.test(asOf) || Number.isNaN(Date.parse(asOf))) {
    throw new RangeError(`asOf must be a date YYYY-MM-DD, got ${JSON.stringify(asOf)}`);
  }
  return `${symbol}@${asOf}`;
}
