/**
 * Machine-readable reasons for a {@link MarketDataError}.
 *
 * - `upstream_unavailable`: a file could not be read, or a remote API failed, timed out or
 *   answered 5xx/429 after the retries (map to HTTP 503 / problem code `upstream_unavailable`).
 * - `not_found`: the data needed does not exist (no FX rate on or before the date, unknown
 *   currency).
 * - `invalid_symbol`: the ticker is not a plausible symbol (also guards file paths).
 * - `parse_failed`: a price file, an ECB file or an API answer was malformed.
 * - `invalid_argument`: any other malformed argument (a date that is not `YYYY-MM-DD`, an amount
 *   that is not a number).
 */
export type MarketDataErrorCode =
  | 'upstream_unavailable'
  | 'not_found'
  | 'invalid_symbol'
  | 'parse_failed'
  | 'invalid_argument';

/**
 * The one error class of `@svc/market-data`, with a stable string {@link MarketDataErrorCode}
 * and the underlying error as `cause`.
 *
 * @example
 * ```ts
 * try { await fx.getRate('EUR', 'XXX'); }
 * catch (error) { if (error instanceof MarketDataError && error.code === 'not_found') { ... } }
 * ```
 */
export class MarketDataError extends Error {
  /** Stable machine-readable code, see {@link MarketDataErrorCode}. */
  readonly code: MarketDataErrorCode;

  /**
   * @param code - what went wrong.
   * @param message - human-readable detail (never contains an API key).
   * @param options - `cause`: the underlying error.
   */
  constructor(code: MarketDataErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MarketDataError';
    this.code = code;
  }
}
