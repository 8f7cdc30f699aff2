import { z } from 'zod';
import { QuotaUsage } from './account.js';

/** One row of {@link PROBLEMS}: the HTTP status, title and meaning of a problem code. */
export interface ProblemKind {
  /** HTTP status of the answer. */
  readonly status: number;
  /** The problem body's `title`: a short summary of the kind. */
  readonly title: string;
  /** What the code means for a client, one line (docs, OpenAPI error texts). */
  readonly description: string;
}

/**
 * The problem vocabulary of CONTRACT §1: every stable `code` of a problem+json body with its HTTP
 * status, title and meaning, written once. The REST app's statuses, the OpenAPI error texts, the
 * `/api/docs` error table and the MCP tool errors are derived from it. A new code is a new row.
 */
export const PROBLEMS = {
  unauthorized: {
    status: 401,
    title: 'Not signed in',
    description: 'No valid session (REST) or token (MCP), or it is expired or revoked.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    description: 'Cross-site request, or an action not allowed (sign-up disabled).',
  },
  insufficient_scope: {
    status: 403,
    title: 'Insufficient scope',
    description: 'The access token lacks a scope the call needs (RFC 6750); `scope` names it.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    description: 'Unknown route, resource, docs section, or not yours.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not with this method; `Allow` lists the methods it has.',
  },
  validation_failed: {
    status: 400,
    title: 'Invalid request',
    description: 'Input does not match the schema; see `errors`.',
  },
  insufficient_data: {
    status: 404,
    title: 'Insufficient data',
    description: 'Too few fundamentals to evaluate the company.',
  },
  quota_exceeded: {
    status: 429,
    title: 'Quota exceeded',
    description: 'Plan quota used up; body has `quota`, header `Retry-After`.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    description: 'Too many requests or failed logins; see `Retry-After`.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    description: 'Body above the size limit.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'Content-Type not accepted by the route.',
  },
  upstream_unavailable: {
    status: 503,
    title: 'Upstream unavailable',
    description:
      'A data provider, the model endpoint or the database is unavailable; see `Retry-After`.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    description: 'Already exists, or changed/decided meanwhile.',
  },
  internal: {
    status: 500,
    title: 'Internal server error',
    description: 'Unexpected error; logged server-side, never a stack trace.',
  },
  reauthentication_required: {
    status: 403,
    title: 'Sign in again',
    description:
      'The action needs a recent sign-in (erasing an account without a password: within 10 minutes).',
  },
  precondition_failed: {
    status: 412,
    title: 'Precondition failed',
    description:
      'The `If-Match` of a write no longer matches the resource’s `ETag` (RFC 9110): it changed since it was read; nothing was written.',
  },
  insufficient_history: {
    status: 422,
    title: 'Insufficient history',
    description:
      'Too few fiscal years had been filed by the `asOf` date to evaluate the company then (not a partial score).',
  },
} as const satisfies Record<string, ProblemKind>;

/** A stable problem code (a key of {@link PROBLEMS}). */
export type ProblemCode = keyof typeof PROBLEMS;

/** Every problem code, in the order of {@link PROBLEMS}. */
export const PROBLEM_CODES = Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]];

/** A field error of a `validation_failed` problem: a dotted `path` (`body.email`) and a message. */
export const FieldError = z
  .object({
    path: z.string().describe('Dotted path of the field, prefixed by the request part'),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });

/** A field error (see {@link FieldError}). */
export type FieldError = z.infer<typeof FieldError>;

/** RFC 9457 problem details as every 4xx/5xx body of this service (CONTRACT §1). */
export const ProblemDetails = z
  .object({
    type: z.string().describe('URI reference identifying the problem type'),
    title: z.string().describe('Short summary of the problem type'),
    status: z.number().int().min(400).max(599).describe('HTTP status code'),
    detail: z.string().describe('Explanation of this occurrence'),
    code: z.enum(PROBLEM_CODES).describe('Stable machine-readable code'),
    instance: z.string().optional().describe('The request path this problem occurred on'),
    errors: z.array(FieldError).optional().describe('Field errors (validation_failed only)'),
    quota: QuotaUsage.optional().describe('The exhausted quota (quota_exceeded only)'),
    scope: z
      .string()
      .optional()
      .describe('The missing token scopes, space-separated (insufficient_scope only)'),
    changes: z
      .array(z.string())
      .optional()
      .describe(
        'Ids of the portfolio changes a refused write depends on or collides with (conflict of a change or revert)',
      ),
    transactions: z
      .array(z.string())
      .optional()
      .describe(
        'Ids of the transactions a refused ledger write would break (conflict: a sale beyond what is held)',
      ),
  })
  .meta({
    id: 'ProblemDetails',
    description: 'RFC 9457 problem details, served as application/problem+json',
  });

/** A problem details body. */
export type ProblemDetails = z.infer<typeof ProblemDetails>;

/** Media type of every error body. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * Builds a problem body for `code`; `type` points at the error list of the docs. `status` is the
 * code's ({@link PROBLEMS}) unless `extra.status` names a more precise HTTP status of the same
 * class (414 or 431 for `validation_failed`, …).
 *
 * @example
 * ```ts
 * problemBody('not_found', 'No such report.', { instance: '/api/moat-reports/x' })
 * // { type: '/api/docs/overview#problem-not-found', title: 'Not found', status: 404, … }
 * ```
 */
export function problemBody(
  code: ProblemCode,
  detail: string,
  extra: Partial<
    Pick<
      ProblemDetails,
      'instance' | 'errors' | 'quota' | 'scope' | 'status' | 'changes' | 'transactions'
    >
  > = {},
): ProblemDetails {
  return {
    type: `/api/docs/overview#problem-${code.replaceAll('_', '-')}`,
    title: PROBLEMS[code].title,
    status: extra.status ?? PROBLEMS[code].status,
    detail,
    code,
    ...(extra.instance === undefined ? {} : { instance: extra.instance }),
    ...(extra.errors === undefined ? {} : { errors: extra.errors }),
    ...(extra.quota === undefined ? {} : { quota: extra.quota }),
    ...(extra.scope === undefined ? {} : { scope: extra.scope }),
    ...(extra.changes === undefined ? {} : { changes: extra.changes }),
    ...(extra.transactions === undefined ? {} : { transactions: extra.transactions }),
  };
}

/**
 * The problem code of a bare HTTP status (errors that carry no code of ours): the first code of
 * {@link PROBLEMS} with that status (429 is `rate_limited`), 502 and 504 are
 * `upstream_unavailable`, any other 4xx `validation_failed` and anything else `internal`.
 */
export function codeForStatus(status: number): ProblemCode {
  if (status === 429) return 'rate_limited';
  if (status === 502 || status === 504) return 'upstream_unavailable';
  const code = PROBLEM_CODES.find((c) => PROBLEMS[c].status === status);
  if (code) return code;
  return status >= 400 && status < 500 ? 'validation_failed' : 'internal';
}
