/**
 * Codes of {@link UseCaseError}, named like the problem codes of CONTRACT §1 they map to:
 * - `validation_failed`: the input is well-formed JSON but not acceptable (e.g. `evaluationJson`
 *   that is not a MoatEvaluation); `errors` lists the field problems (→ 400);
 * - `not_found`: the addressed resource does not exist for this user (→ 404);
 * - `conflict`: the resource is no longer in a state that allows the request, e.g. an advisor
 *   proposal already decided or expired (→ 409);
 * - `upstream_unavailable`: the model endpoint failed or did not answer in time (→ 503).
 */
export type UseCaseErrorCode =
  | 'validation_failed'
  | 'not_found'
  | 'conflict'
  | 'upstream_unavailable';

/** A field problem of a `validation_failed` error. */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/** The one error class of `@svc/use-cases`, with a stable `code` and optional field problems. */
export class UseCaseError extends Error {
  override readonly name = 'UseCaseError';
  readonly code: UseCaseErrorCode;
  readonly errors: readonly FieldProblem[];

  constructor(
    code: UseCaseErrorCode,
    message: string,
    options: { cause?: unknown; errors?: readonly FieldProblem[] } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.errors = options.errors ?? [];
  }
}
