/**
 * Codes of {@link AdvisorError}:
 * - `upstream_unavailable`: the model endpoint failed, timed out (idle watchdog) or was
 *   unreachable before any output (CONTRACT §1 code of the same name);
 * - `invalid_argument`: a caller passed a value outside the documented range;
 * - `aborted`: the caller's `signal` aborted the work.
 */
export type AdvisorErrorCode = 'upstream_unavailable' | 'invalid_argument' | 'aborted';

/**
 * The one error class of `@svc/advisor`. Streams report failures after output has started as
 * terminal `error` frames/events instead of throwing.
 *
 * @example
 * try { for await (const e of streamNarrative(input)) … } catch (e) {
 *   if (e instanceof AdvisorError && e.code === 'upstream_unavailable') await refund();
 * }
 */
export class AdvisorError extends Error {
  override readonly name = 'AdvisorError';
  /** Stable machine-readable code. */
  readonly code: AdvisorErrorCode;

  constructor(code: AdvisorErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
