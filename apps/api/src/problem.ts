import {
  PROBLEM_CODES,
  PROBLEM_CONTENT_TYPE,
  PROBLEMS,
  type ProblemCode,
  ProblemDetails,
} from '@svc/schemas';
import { SESSION_CHALLENGE } from './openapi.js';

// The problem vocabulary (codes, statuses, titles, meanings, the body) lives once in
// `@svc/schemas` (`PROBLEMS`); the domain error and the translation of every package's errors are
// `@svc/use-cases`'; `toProblem` (Fastify's own errors, then those) is `@svc/service`'s, shared by
// both servers; this module derives the OpenAPI error responses of the REST routes from them.
export {
  PROBLEM_CODES,
  type ProblemCode,
  ProblemDetails,
  problemBody,
} from '@svc/schemas';
export { UseCaseError as ApiError } from '@svc/use-cases';

/** An HTTP status of a problem code of `PROBLEMS` (405 for unsupported methods included). */
type CodeStatus = (typeof PROBLEMS)[ProblemCode]['status'];

/**
 * Statuses answered for input that no code of ours names (the router's and Node's limits, before
 * any route runs; `MAX_PARAM_LENGTH` and `MAX_HEADER_BYTES` of `@svc/service`), both `validation_failed`.
 * Input within the documented bounds never meets them, so no route declares them.
 */
const LIMIT_STATUSES = {
  414: 'URI too long (validation_failed): a path parameter is above 1,024 characters as sent',
  431: 'Request header fields too large (validation_failed): request line and headers above 64 KiB',
} as const;

/** An HTTP status for which {@link errorResponses} can declare a problem response. */
export type ErrorStatus = CodeStatus | keyof typeof LIMIT_STATUSES;

/**
 * The description of an error status in the OpenAPI document, derived from `PROBLEMS`: each code
 * with that status and its meaning, e.g. `Not found (not_found): Unknown route, …`.
 */
export function errorDescription(status: number): string {
  const limit = LIMIT_STATUSES[status as keyof typeof LIMIT_STATUSES];
  if (limit !== undefined) return limit;
  const codes = PROBLEM_CODES.filter((code) => PROBLEMS[code].status === status);
  if (codes.length === 0) return 'Error';
  const text = codes.map(
    (code) => `${PROBLEMS[code].title} (${code}): ${PROBLEMS[code].description}`,
  );
  return [...text, STATUS_NOTES[status] ?? ''].join(' ').trim();
}

/** What an error answer of a status carries beyond its body. */
const STATUS_NOTES: Readonly<Record<number, string>> = {
  401: `The answer carries \`WWW-Authenticate: ${SESSION_CHALLENGE}\`.`,
};

/** An OpenAPI header object (response headers of an error status). */
interface HeaderObject {
  readonly description: string;
  readonly required: boolean;
  readonly schema: { readonly type: 'string' | 'integer'; readonly minimum?: number };
}

/**
 * The headers an error answer of a status carries, as OpenAPI header objects: `WWW-Authenticate`
 * on every 401 (RFC 9110 §11.6.1), `Retry-After` (seconds) on every 429; a 503 carries it when the
 * service knows when to come back (a draining process, an unavailable database). Laid over every
 * error response of the document by {@link withErrorHeaders} (the zod transform keeps no response
 * headers).
 */
const ERROR_HEADERS: Readonly<Record<number, Readonly<Record<string, HeaderObject>>>> = {
  401: {
    'WWW-Authenticate': {
      description: `The challenge: \`${SESSION_CHALLENGE}\` for a session route, \`Bearer\` for the MCP endpoint`,
      required: true,
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': {
      description: 'Seconds until a retry can succeed',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    },
  },
  503: {
    'Retry-After': {
      description: 'Seconds until a retry may succeed, when known',
      required: false,
      schema: { type: 'integer', minimum: 1 },
    },
  },
};

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
      description: errorDescription(status),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemDetails } },
    };
  }
  return out as Record<S | 400 | 500 | 503, ProblemResponse>;
}

type Operations = Record<string, { responses?: Record<string, object> } | undefined>;

/**
 * `document` with {@link ERROR_HEADERS} declared on each error response of each operation (a
 * copy; for `@fastify/swagger`'s `transformObject`, after the zod transform).
 */
export function withErrorHeaders<D extends { paths?: object }>(document: D): D {
  const withHeaders = (status: string, response: object) => {
    const headers = ERROR_HEADERS[Number(status)];
    return [status, headers === undefined ? response : { ...response, headers }];
  };
  const paths = Object.entries((document.paths ?? {}) as Record<string, Operations>).map(
    ([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          operation?.responses === undefined
            ? operation
            : {
                ...operation,
                responses: Object.fromEntries(
                  Object.entries(operation.responses).map(([status, response]) =>
                    withHeaders(status, response),
                  ),
                ),
              },
        ]),
      ),
    ],
  );
  return { ...document, paths: Object.fromEntries(paths) };
}

/** The one mapping from anything thrown to problem+json, shared with the MCP server. */
export { toProblem } from '@svc/service';
