import { PROBLEM_CONTENT_TYPE, ProblemDetails } from '@svc/use-cases';

// The problem vocabulary (codes, statuses, the body, the domain error and the mapping of every
// package's errors) lives once in `@svc/use-cases` (`problems.ts`), shared with the MCP server;
// `toProblem` (Fastify's own errors, then those) is `@svc/service`'s, shared by both servers; this
// module adds the OpenAPI error responses of the REST routes.
export {
  PROBLEM_CODES,
  PROBLEM_CONTENT_TYPE,
  type ProblemCode,
  ProblemDetails,
  problemBody,
  ServiceError as ApiError,
  STATUS_OF_CODE,
} from '@svc/use-cases';

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid request (validation_failed), with field errors',
  401: 'Not signed in, or the session/token is expired or revoked (unauthorized)',
  403: 'Forbidden: cross-site request or action not allowed (forbidden)',
  404: 'Not found (not_found)',
  409: 'Conflict (conflict)',
  413: 'Payload too large (payload_too_large)',
  415: 'Unsupported media type (unsupported_media_type)',
  429: 'Too many requests (rate_limited) or quota exceeded (quota_exceeded); see Retry-After',
  500: 'Internal error (internal); never carries a stack trace',
  503: 'An upstream provider or the database is unavailable (upstream_unavailable); see Retry-After',
};

/** An HTTP status for which {@link errorResponses} can declare a problem response. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503;

/** An OpenAPI response object whose body is {@link ProblemDetails} as application/problem+json. */
export interface ProblemResponse {
  readonly description: string;
  readonly content: {
    readonly 'application/problem+json': { readonly schema: typeof ProblemDetails };
  };
}

/**
 * Declares problem+json error responses on a route schema, for Fastify serialization and OpenAPI.
 * 400, 500 and 503 are always included (every route validates input, may fail, and may meet an
 * unavailable database).
 *
 * @example
 * schema: { response: { 200: TokenList, ...errorResponses(401, 403) } }
 */
export function errorResponses<S extends ErrorStatus>(
  ...statuses: S[]
): Record<S | 400 | 500 | 503, ProblemResponse> {
  const all = new Set<ErrorStatus>([400, ...statuses, 500, 503]);
  const out: Partial<Record<ErrorStatus, ProblemResponse>> = {};
  for (const status of [...all].sort((a, b) => a - b)) {
    out[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemDetails } },
    };
  }
  return out as Record<S | 400 | 500 | 503, ProblemResponse>;
}

/** The one mapping from anything thrown to problem+json, shared with the MCP server. */
export { toProblem } from '@svc/service';
