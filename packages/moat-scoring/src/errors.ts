/**
 * Why {@link MoatScoringError} was thrown.
 *
 * - `insufficient_data`: fewer than 3 usable fiscal years (a year with both revenue and net income)
 *   in the evaluation window; the caller should answer "insufficient fundamental data" (HTTP 404
 *   in the interface spec, section 7).
 * - `invalid_argument`: an argument is outside its domain (fundamentals or a valuation that do not
 *   match their `@svc/schemas` schema, a `windowYears` that is not an integer from 3 to 50, a
 *   non-finite or negative score passed to `verdictFor`); `path` names the first problem where
 *   the input was validated. A programming error of the caller (HTTP 500 / 400 depending on where
 *   it came from).
 */
export type MoatScoringErrorCode = 'insufficient_data' | 'invalid_argument';

/**
 * The one error class of `@svc/moat-scoring`. Check `code` (a stable string), not the message.
 *
 * @example
 * ```ts
 * try {
 *   evaluateMoat(fundamentals);
 * } catch (error) {
 *   if (error instanceof MoatScoringError && error.code === 'insufficient_data') return notFound();
 *   throw error;
 * }
 * ```
 */
export class MoatScoringError extends Error {
  /** Stable machine-readable reason, see {@link MoatScoringErrorCode}. */
  readonly code: MoatScoringErrorCode;
  /**
   * For `invalid_argument` from input validation: the dotted path of the first problem, from the
   * argument's name (`fundamentals.years.0.revenue.value`, `options.windowYears`); otherwise absent.
   */
  readonly path?: string;

  constructor(
    code: MoatScoringErrorCode,
    message: string,
    options?: { cause?: unknown; path?: string },
  ) {
    super(message, options);
    this.name = 'MoatScoringError';
    this.code = code;
    if (options?.path !== undefined) this.path = options.path;
  }
}
