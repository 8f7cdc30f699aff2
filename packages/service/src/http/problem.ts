import { codeForStatus, PROBLEMS, type ProblemCode, problemBody } from '@svc/schemas';
import { type ProblemAnswer, problemOf, toServiceError } from '@svc/use-cases';

interface ErrorLike {
  readonly code?: unknown;
  readonly statusCode?: unknown;
  readonly message?: unknown;
  readonly validation?: unknown;
  readonly validationContext?: unknown;
}

const FASTIFY_CODES: Readonly<Record<string, ProblemCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation_failed',
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation_failed',
  FST_ERR_BAD_URL: 'validation_failed',
  // @fastify/multipart
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
  FST_INVALID_JSON_FIELD_ERROR: 'validation_failed',
  FST_PROTO_VIOLATION: 'validation_failed',
  FST_MP_PREMATURE_CLOSE: 'validation_failed',
};

/**
 * Errors of the multipart parser (`@fastify/busboy`) for a malformed body, which carry neither a
 * code nor a status: a missing boundary, a body that ends inside a part.
 */
const MALFORMED_MULTIPART = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /^Unexpected end of multipart data$/,
  /terminated early due to unexpected end of multipart data$/,
  /^Malformed part header$/,
];

function isMalformedMultipart(error: ErrorLike): boolean {
  if (error.statusCode !== undefined || typeof error.message !== 'string') return false;
  const message = error.message;
  return MALFORMED_MULTIPART.some((pattern) => pattern.test(message));
}

function fieldErrors(error: ErrorLike): { path: string; message: string }[] | undefined {
  if (!Array.isArray(error.validation)) return undefined;
  const part = typeof error.validationContext === 'string' ? error.validationContext : 'request';
  return error.validation.map((item: { instancePath?: string; message?: string }) => {
    const rest = (item.instancePath ?? '').split('/').filter(Boolean).join('.');
    return { path: rest ? `${part}.${rest}` : part, message: item.message ?? 'invalid value' };
  });
}

/**
 * The ONE mapping from anything thrown to problem+json (CONTRACT §1): package errors first go
 * through `toServiceError` (`@svc/use-cases`); a `UseCaseError` (`ApiError` here) keeps its code; request validation errors
 * become 400 `validation_failed` with `errors`; Fastify's body and URL errors and the multipart
 * parser's become 413/415/400; other 4xx keep their status (with the code of
 * {@link codeForStatus}); everything else is a 500 `internal` whose detail never includes the
 * message or stack of the original error.
 */
export function toProblem(thrown: unknown, instance: string | undefined): ProblemAnswer {
  const known = toServiceError(thrown);
  if (known !== undefined) return problemOf(known, instance);
  const error = thrown;
  const extra = instance === undefined ? {} : { instance };
  const e = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const errors = fieldErrors(e);
  if (errors !== undefined) {
    const detail = 'The request does not match the schema; see errors.';
    const body = problemBody('validation_failed', detail, { ...extra, errors });
    return { status: 400, body, headers: {}, unexpected: false };
  }
  if (isMalformedMultipart(e)) {
    const detail = 'The multipart body is malformed.';
    const errors = [{ path: 'body', message: String(e.message) }];
    const body = problemBody('validation_failed', detail, { ...extra, errors });
    return { status: 400, body, headers: {}, unexpected: false };
  }
  const mapped = typeof e.code === 'string' ? FASTIFY_CODES[e.code] : undefined;
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (mapped !== undefined || (status >= 400 && status < 500)) {
    const code = mapped ?? codeForStatus(status);
    // a status our codes do not name (405, 406, 408, 414, 431, …) is kept as it is
    const exact = mapped === undefined ? status : PROBLEMS[code].status;
    const detail = typeof e.message === 'string' && e.message ? e.message : PROBLEMS[code].title;
    return {
      status: exact,
      body: problemBody(code, detail, { ...extra, status: exact }),
      headers: {},
      unexpected: false,
    };
  }
  return problemOf(error, instance);
}
