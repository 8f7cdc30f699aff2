/**
 * Codes of {@link NarrativeError}:
 * - `invalid_argument`: a caller passed a value outside the documented range (e.g. a chunk size
 *   below 1 or not an integer).
 */
export type NarrativeErrorCode = 'invalid_argument';

/**
 * The one error class of `@svc/narrative`.
 *
 * @example
 * try { chunkMarkdown(text, 0) } catch (e) { if (e instanceof NarrativeError) e.code; }
 */
export class NarrativeError extends Error {
  override readonly name = 'NarrativeError';
  /** Stable machine-readable code. */
  readonly code: NarrativeErrorCode;

  constructor(code: NarrativeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
