/**
 * Machine-readable reasons for a {@link ValuationError}.
 *
 * - `invalid_input`: the price, forward EPS, FX rate or split factor is not a finite positive
 *   number, or a date or currency is malformed. The valuation never guesses around bad input.
 */
export type ValuationErrorCode = 'invalid_input';

/**
 * The one error class of `@svc/valuation`. Thrown only for malformed input; data that merely
 * makes a ratio meaningless (a loss year, a missing figure) yields `null` plus a note instead.
 *
 * @example
 * ```ts
 * try { computeValuation(input); }
 * catch (error) { if (error instanceof ValuationError && error.code === 'invalid_input') { ... } }
 * ```
 */
export class ValuationError extends Error {
  /** Stable machine-readable code, see {@link ValuationErrorCode}. */
  readonly code: ValuationErrorCode;

  /**
   * @param code - why the valuation failed.
   * @param message - human-readable detail.
   * @param options - `cause`: the underlying error (for example a zod error).
   */
  constructor(code: ValuationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ValuationError';
    this.code = code;
  }
}
