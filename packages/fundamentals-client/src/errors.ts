/**
 * Why a fundamentals request failed. Stable strings, safe to map to HTTP / problem+json codes:
 *
 * - `invalid_symbol`: the ticker is not 1–10 characters of `A–Z`, `0–9`, `.`, `-` (maps to 400).
 * - `insufficient_data`: unknown ticker, no companyfacts document, or fewer usable fiscal years
 *   than the provider's `minYears` (maps to 404).
 * - `insufficient_history`: a point-in-time request (`asOf`) for a known company with fewer usable
 *   fiscal years filed by that date than the provider's `minYears` (maps to 422).
 * - `upstream_unavailable`: the data source is down, timed out or kept answering 429/5xx after the
 *   retries (maps to 502/503).
 * - `parse_failed`: the source answered with a document that is not a companyfacts (or
 *   company_tickers / submissions) document (maps to 502).
 * - `invalid_config`: a provider factory got unusable options (no SEC User-Agent contact, a rate
 *   above SEC's 10 requests per second, a missing snapshot directory); a programming or deployment
 *   error (maps to 500).
 */
export type FundamentalsErrorCode =
  | 'invalid_symbol'
  | 'insufficient_data'
  | 'insufficient_history'
  | 'upstream_unavailable'
  | 'parse_failed'
  | 'invalid_config';

/** Every documented {@link FundamentalsErrorCode}, for exhaustive mapping tables. */
export const FUNDAMENTALS_ERROR_CODES: readonly FundamentalsErrorCode[] = [
  'invalid_symbol',
  'insufficient_data',
  'insufficient_history',
  'upstream_unavailable',
  'parse_failed',
  'invalid_config',
];

/**
 * The one error class of `@svc/fundamentals-client`. Carries a stable string `code` and the
 * underlying error as `cause`.
 *
 * @example
 * ```ts
 * try { await provider.getFundamentals('ZZZZ'); }
 * catch (e) { if (e instanceof FundamentalsError && e.code === 'insufficient_data') notFound(); }
 * ```
 */
export class FundamentalsError extends Error {
  /** Stable machine-readable reason, see {@link FundamentalsErrorCode}. */
  readonly code: FundamentalsErrorCode;

  constructor(code: FundamentalsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FundamentalsError';
    this.code = code;
  }
}
