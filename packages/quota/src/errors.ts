import type { QuotaDenied } from './quota-service.js';

/**
 * Codes of {@link QuotaError}:
 * - `quota_exceeded`: a consumption was refused; `denied` carries the limit, usage and reset
 *   instant (map it with `quotaProblem(error.denied)` to a 429).
 * - `unknown_quota`: a quota name outside `QUOTA_NAMES`.
 * - `invalid_units`: units that are not a positive integer.
 * - `invalid_limits`: a limit configuration that is not a non-negative integer per plan and quota.
 */
export type QuotaErrorCode =
  | 'quota_exceeded'
  | 'unknown_quota'
  | 'invalid_units'
  | 'invalid_limits';

/**
 * The one error class of `@svc/quota`.
 *
 * @example
 * ```ts
 * try { await quotas.withQuota(user.id, user.plan, 'ai_consult', () => narrate()) }
 * catch (error) {
 *   if (error instanceof QuotaError && error.denied) {
 *     const problem = quotaProblem(error.denied);
 *     reply.code(problem.status).headers(problem.headers).send(problem.body);
 *   }
 * }
 * ```
 */
export class QuotaError extends Error {
  override readonly name = 'QuotaError';
  /** A stable code, see {@link QuotaErrorCode}. */
  readonly code: QuotaErrorCode;
  /** For `quota_exceeded`: the refused consumption. */
  readonly denied: QuotaDenied | undefined;

  constructor(
    code: QuotaErrorCode,
    message: string,
    options: { cause?: unknown; denied?: QuotaDenied } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.denied = options.denied;
  }
}
