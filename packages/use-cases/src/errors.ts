import { type FieldError, PROBLEMS, type ProblemCode, type QuotaUsage } from '@svc/schemas';

/**
 * Codes of {@link UseCaseError}: the problem codes of CONTRACT §1 (`PROBLEMS` of `@svc/schemas`),
 * so that a flow's error is already a problem. The ones the flows throw:
 * - `validation_failed`: the input is well-formed but not acceptable (e.g. `evaluationJson` that
 *   is not a MoatEvaluation); `errors` lists the field problems (→ 400);
 * - `not_found`: the addressed resource does not exist for this user (→ 404);
 * - `conflict`: the resource exists, or is no longer in a state that allows the request (an
 *   advisor proposal already decided or expired, an e-mail address taken) (→ 409);
 * - `unauthorized` / `forbidden`: bad credentials, sign-up disabled (→ 401 / 403);
 * - `upstream_unavailable`: a provider or the model endpoint failed or did not answer (→ 503).
 */
export type UseCaseErrorCode = ProblemCode;

/** A field problem of a `validation_failed` error (`FieldError` of `@svc/schemas`). */
export type FieldProblem = FieldError;

/** Options of a {@link UseCaseError} beyond its code and detail. */
export interface UseCaseErrorOptions {
  readonly cause?: unknown;
  /** Field problems (`validation_failed`). */
  readonly errors?: readonly FieldProblem[];
  /** The exhausted quota (`quota_exceeded`). */
  readonly quota?: QuotaUsage;
  /** The missing token scopes, space-separated (`insufficient_scope`). */
  readonly scope?: string;
  /** Ids of the portfolio changes a refused write depends on (`conflict`). */
  readonly changes?: readonly string[];
  /** Ids of the transactions a refused ledger write would break (`conflict`). */
  readonly transactions?: readonly string[];
  /** Seconds until a retry may succeed; sent as `Retry-After`. */
  readonly retryAfterSeconds?: number;
  /** Extra response headers, e.g. `WWW-Authenticate`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The one error class of `@svc/use-cases`: a stable `code` of the problem vocabulary and a
 * detail meant for the user, so the apps map it without a table of their own (REST:
 * problem+json with `status`; MCP: the problem object as the tool result's text). `status`
 * follows from `code`. The errors of the other packages are translated to it in one table
 * (`toServiceError`).
 *
 * @example
 * ```ts
 * throw new UseCaseError('not_found', 'No token with this id.');
 * throw new UseCaseError('validation_failed', 'Give symbol or evaluation.', {
 *   errors: [{ path: 'symbol', message: 'required without evaluation' }],
 * });
 * ```
 */
export class UseCaseError extends Error {
  override readonly name = 'UseCaseError';
  readonly code: UseCaseErrorCode;
  /** HTTP status of {@link code}. */
  readonly status: number;
  /** Field problems (empty unless given). */
  readonly errors: readonly FieldProblem[];
  readonly options: UseCaseErrorOptions;

  constructor(code: UseCaseErrorCode, message: string, options: UseCaseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = PROBLEMS[code].status;
    this.errors = options.errors ?? [];
    this.options = options;
  }

  /** The HTTP status (`status`), under the name HTTP frameworks read from thrown errors. */
  get statusCode(): number {
    return this.status;
  }
}
