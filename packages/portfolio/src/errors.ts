/**
 * Why a portfolio computation failed.
 *
 * - `invalid_transaction`: a transaction lacks a field its type needs (a buy without quantity, a
 *   split without ratio), or carries a value that is not a decimal string.
 * - `insufficient_quantity`: a sell (or a split result) would leave a negative quantity: more
 *   units were sold than were held at that moment.
 * - `invalid_argument`: an argument other than a transaction is malformed (a day that is not
 *   `YYYY-MM-DD`, a period whose start lies after its end).
 */
export type PortfolioErrorCode =
  | 'invalid_transaction'
  | 'insufficient_quantity'
  | 'invalid_argument';

/** Options of {@link PortfolioError}. */
export interface PortfolioErrorOptions {
  /** The id of the transaction that caused the error, when one did. */
  readonly transactionId?: string;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * The one error class of `@svc/portfolio`. Thrown by {@link deriveHoldings} (the importer never
 * throws for bad input; it returns `{ ok: false, errors }`).
 *
 * @example
 * ```ts
 * try { deriveHoldings(transactions); }
 * catch (e) { if (e instanceof PortfolioError && e.code === 'insufficient_quantity') console.log(e.transactionId); }
 * ```
 */
export class PortfolioError extends Error {
  /** Stable machine-readable reason; see {@link PortfolioErrorCode}. */
  readonly code: PortfolioErrorCode;
  /** The id of the offending transaction, when the error is about one. */
  readonly transactionId: string | undefined;

  constructor(code: PortfolioErrorCode, message: string, options: PortfolioErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'PortfolioError';
    this.code = code;
    this.transactionId = options.transactionId;
  }
}
