import type { QuotaName } from '@svc/schemas';

/** A refused consumption: nothing was counted. */
export interface QuotaDenied {
  ok: false;
  name: QuotaName;
  limit: number;
  /** Units used in the period (read just after the refusal). */
  used: number;
  periodStart: string;
  resetsAt: string;
  /** Seconds until `resetsAt`, at least 1: the `Retry-After` header. */
  retryAfterSeconds: number;
}

/**
 * Codes of {@link QuotaError}:
 * - `quota_exceeded`: a consumption was refused; `denied` carries the limit, usage and reset
 *   instant (the app maps it to a 429 problem with `Retry-After` and the quota, CONTRACT §1).
 * - `unknown_quota`: a quota name outside `QUOTA_NAMES` of `@svc/schemas`.
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
 *     // 429 problem+json: Retry-After = error.denied.retryAfterSeconds, quota = error.denied
 *     reply.code(429).header('retry-after', String(error.denied.retryAfterSeconds));
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
