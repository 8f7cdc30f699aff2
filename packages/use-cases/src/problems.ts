import { FundamentalsError } from '@svc/fundamentals-client';
import { MarketDataError } from '@svc/market-data';
import { MoatScoringError } from '@svc/moat-scoring';
import { PortfolioError } from '@svc/portfolio';
import { isDatabaseUnavailable, StoreError } from '@svc/portfolio-store';
import { QuotaError } from '@svc/quota';
import { z } from 'zod';
import { UseCaseError } from './errors.js';

/**
 * The stable problem codes of CONTRACT §1. Each maps to one HTTP status ({@link STATUS_OF_CODE}):
 * - `unauthorized` (401): no valid session or token.
 * - `forbidden` (403): signed in but not allowed (cross-site request, sign-up disabled).
 * - `insufficient_scope` (403): the personal access token lacks a scope the call needs (RFC 6750
 *   §3.1); `scope` names the missing scopes.
 * - `not_found` (404): unknown route, resource or docs section, or another user's row.
 * - `validation_failed` (400): the request does not match its schema; `errors` lists fields.
 * - `insufficient_data` (404): not enough fundamentals to evaluate a company.
 * - `quota_exceeded` (429): a plan quota is used up; the body carries `quota`.
 * - `rate_limited` (429): too many requests (or failed logins); `Retry-After` says when to retry.
 * - `payload_too_large` (413), `unsupported_media_type` (415).
 * - `upstream_unavailable` (503): a data provider, model endpoint or the database is unavailable
 *   (with `Retry-After` when a wait is known).
 * - `conflict` (409): the resource exists or changed (e.g. the email is taken).
 * - `internal` (500): anything else; never carries a stack trace.
 */
export const PROBLEM_CODES = [
  'unauthorized',
  'forbidden',
  'insufficient_scope',
  'not_found',
  'validation_failed',
  'insufficient_data',
  'quota_exceeded',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
  'upstream_unavailable',
  'conflict',
  'internal',
] as const;

/** One of {@link PROBLEM_CODES}. */
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** HTTP status of each problem code (CONTRACT §1; spec §7 for 401/404/429). */
export const STATUS_OF_CODE: Readonly<Record<ProblemCode, number>> = {
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  validation_failed: 400,
  insufficient_data: 404,
  quota_exceeded: 429,
  rate_limited: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  upstream_unavailable: 503,
  conflict: 409,
  internal: 500,
};

export const TITLE_OF_CODE: Readonly<Record<ProblemCode, string>> = {
  unauthorized: 'Not signed in',
  forbidden: 'Forbidden',
  insufficient_scope: 'Insufficient scope',
  not_found: 'Not found',
  validation_failed: 'Invalid request',
  insufficient_data: 'Insufficient data',
  quota_exceeded: 'Quota exceeded',
  rate_limited: 'Too many requests',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  upstream_unavailable: 'Upstream unavailable',
  conflict: 'Conflict',
  internal: 'Internal server error',
};

/** A field error of a `validation_failed` problem: a dotted `path` (`body.email`) and a message. */
export const FieldError = z
  .object({
    path: z.string().describe('Dotted path of the field, prefixed by the request part'),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });

/** The quota a `quota_exceeded` problem is about (CONTRACT §1). */
export const QuotaState = z
  .object({
    name: z.string().describe('Quota name: stock_evaluation or ai_consult'),
    limit: z.number().int().describe('Units allowed per period'),
    used: z.number().int().describe('Units used in the current period'),
    resetsAt: z.string().describe('ISO 8601 instant the period ends (UTC)'),
  })
  .meta({ id: 'QuotaState' });

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
    quota: QuotaState.optional().describe('The exhausted quota (quota_exceeded only)'),
    scope: z
      .string()
      .optional()
      .describe('The missing token scopes, space-separated (insufficient_scope only)'),
  })
  .meta({
    id: 'ProblemDetails',
    description: 'RFC 9457 problem details, served as application/problem+json',
  });

/** A problem details body. */
export type ProblemDetails = z.infer<typeof ProblemDetails>;

/** Media type of every error body. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Options of an {@link ServiceError} beyond its code and detail. */
export interface ServiceErrorOptions {
  readonly cause?: unknown;
  readonly errors?: readonly { path: string; message: string }[];
  readonly quota?: z.infer<typeof QuotaState>;
  /** The missing token scopes, space-separated (`insufficient_scope`). */
  readonly scope?: string;
  /** Seconds until a retry may succeed; sent as `Retry-After`. */
  readonly retryAfterSeconds?: number;
  /** Extra response headers, e.g. `WWW-Authenticate`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The domain error of the service's flows that is already a problem (accounts, tokens, the
 * fundamentals provider's availability): a stable `code` of {@link PROBLEM_CODES} and a detail
 * meant for the user. The apps map it (REST: problem+json with `status`; MCP: the problem object
 * as the tool result's text). `status` follows from `code` ({@link STATUS_OF_CODE}).
 *
 * @example
 * throw new ServiceError('not_found', 'No token with this id.');
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ProblemCode;
  readonly status: number;
  readonly options: ServiceErrorOptions;

  constructor(code: ProblemCode, detail: string, options: ServiceErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = STATUS_OF_CODE[code];
    this.options = options;
  }

  /** The HTTP status (`status`), under the name HTTP frameworks read from thrown errors. */
  get statusCode(): number {
    return this.status;
  }
}

/**
 * Builds a problem body for `code`; `type` points at the error list of the docs. `status` is the
 * code's ({@link STATUS_OF_CODE}) unless `extra.status` names a more precise HTTP status of the
 * same class (414 or 431 for `validation_failed`, …).
 */
export function problemBody(
  code: ProblemCode,
  detail: string,
  extra: Partial<Pick<ProblemDetails, 'instance' | 'errors' | 'quota' | 'scope' | 'status'>> = {},
): ProblemDetails {
  return {
    type: `/api/docs/overview#problem-${code.replaceAll('_', '-')}`,
    title: TITLE_OF_CODE[code],
    status: extra.status ?? STATUS_OF_CODE[code],
    detail,
    code,
    ...(extra.instance === undefined ? {} : { instance: extra.instance }),
    ...(extra.errors === undefined ? {} : { errors: extra.errors }),
    ...(extra.quota === undefined ? {} : { quota: extra.quota }),
    ...(extra.scope === undefined ? {} : { scope: extra.scope }),
  };
}

/** The problem code used for a bare HTTP status (errors that carry no code of ours). */
export function codeForStatus(status: number): ProblemCode {
  switch (status) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 502:
    case 503:
    case 504:
      return 'upstream_unavailable';
    default:
      return status >= 400 && status < 500 ? 'validation_failed' : 'internal';
  }
}

export function withRetryAfter(seconds: number | undefined): Record<string, string> {
  return seconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(seconds))) };
}

/** `StoreError` → 409 / 404 / 400; `migration_failed` and `locked` are deployment errors (500). */
function fromStoreError(error: StoreError): ServiceError | undefined {
  switch (error.code) {
    case 'conflict':
      return new ServiceError('conflict', 'The resource exists or changed meanwhile.', {
        cause: error,
      });
    case 'not_found':
      return new ServiceError('not_found', 'No such resource.', { cause: error });
    case 'invalid_input':
      return new ServiceError('validation_failed', 'The input was rejected by the store.', {
        cause: error,
      });
    case 'migration_failed':
    case 'locked':
      return undefined;
  }
}

const NO_DATA = 'Insufficient fundamental data to evaluate this symbol.';
const UPSTREAM = 'The fundamentals data provider is unavailable; try again later.';

/**
 * `FundamentalsError`: `invalid_symbol` → 400 with a `symbol` field error, `insufficient_data`
 * → 404, `upstream_unavailable` / `parse_failed` (the source answered something unreadable) →
 * 503. `invalid_config` is a deployment error (500). Provider messages name server paths and
 * URLs, so the details here are fixed texts.
 */
function fromFundamentalsError(error: FundamentalsError): ServiceError | undefined {
  switch (error.code) {
    case 'invalid_symbol':
      return new ServiceError('validation_failed', 'The symbol is not a ticker.', {
        cause: error,
        errors: [{ path: 'symbol', message: 'expected 1–10 characters of A–Z, 0–9, "." or "-"' }],
      });
    case 'insufficient_data':
      return new ServiceError('insufficient_data', NO_DATA, { cause: error });
    case 'upstream_unavailable':
    case 'parse_failed':
      return new ServiceError('upstream_unavailable', UPSTREAM, { cause: error });
    case 'invalid_config':
      return undefined;
  }
}

/**
 * `UseCaseError`: `validation_failed` → 400 with its field errors, `not_found` → 404,
 * `conflict` → 409 (e.g. a proposal already decided or expired), `upstream_unavailable` → 503
 * (the model endpoint failed).
 */
function fromUseCaseError(error: UseCaseError): ServiceError {
  switch (error.code) {
    case 'validation_failed':
      return new ServiceError('validation_failed', error.message, {
        cause: error,
        errors: error.errors,
      });
    case 'not_found':
      return new ServiceError('not_found', 'No such resource.', { cause: error });
    case 'conflict':
      return new ServiceError('conflict', error.message, { cause: error });
    case 'upstream_unavailable':
      return new ServiceError('upstream_unavailable', error.message, { cause: error });
  }
}

/**
 * Seconds a client is asked to wait (`Retry-After`) when the database is unavailable: about the
 * time PostgreSQL takes to restart; the pool reconnects by itself on the next request after it.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly.';

const MARKET_UPSTREAM = 'The market data provider is unavailable; try again later.';

/**
 * `MarketDataError` (quotes, FX rates): `upstream_unavailable` / `parse_failed` (the provider
 * answered something unreadable) → 503, `not_found` → 404, `invalid_symbol` → 400 with a
 * `symbol` field error, `invalid_argument` → 400. Provider messages name files and URLs, so the
 * details here are fixed texts.
 */
function fromMarketDataError(error: MarketDataError): ServiceError {
  switch (error.code) {
    case 'upstream_unavailable':
    case 'parse_failed':
      return new ServiceError('upstream_unavailable', MARKET_UPSTREAM, { cause: error });
    case 'not_found':
      return new ServiceError('not_found', 'No market data for this request.', { cause: error });
    case 'invalid_symbol':
      return new ServiceError('validation_failed', 'The symbol is not a ticker.', {
        cause: error,
        errors: [{ path: 'symbol', message: 'not a plausible ticker symbol' }],
      });
    case 'invalid_argument':
      return new ServiceError('validation_failed', 'The market data request was malformed.', {
        cause: error,
      });
  }
}

/**
 * `PortfolioError` (a ledger that cannot be derived: a malformed transaction, or a sell of more
 * units than held) → 400 with the domain message on `transaction`.
 */
function fromPortfolioError(error: PortfolioError): ServiceError {
  return new ServiceError('validation_failed', error.message, {
    cause: error,
    errors: [{ path: 'transaction', message: error.message }],
  });
}

/**
 * Maps the error classes of the packages to {@link ServiceError}:
 * - `StoreError` `conflict` → 409, `not_found` → 404, `invalid_input` → 400;
 * - `QuotaError` `quota_exceeded` → 429 with the quota and `Retry-After`;
 * - `FundamentalsError` `invalid_symbol` → 400 (`errors: [{ path: 'symbol' }]`),
 *   `insufficient_data` → 404 `insufficient_data`, `upstream_unavailable` / `parse_failed` → 503;
 * - `MoatScoringError` `insufficient_data` (fewer than 3 usable fiscal years) → 404
 *   `insufficient_data`;
 * - `UseCaseError` `validation_failed` → 400 with its `errors`, `not_found` → 404;
 * - `MarketDataError` `upstream_unavailable` / `parse_failed` → 503, `not_found` → 404,
 *   `invalid_symbol` / `invalid_argument` → 400;
 * - `PortfolioError` (`invalid_transaction`, `insufficient_quantity`) → 400;
 * - a database that is down, restarting, unreachable or too slow ({@link isDatabaseUnavailable},
 *   wherever it surfaces) → 503 `upstream_unavailable` with `Retry-After`
 *   ({@link DATABASE_RETRY_AFTER_SECONDS}).
 * Other codes of theirs are programming or configuration errors (`undefined`: a 500).
 */
export function toServiceError(error: unknown): ServiceError | undefined {
  if (error instanceof StoreError) return fromStoreError(error);
  if (error instanceof FundamentalsError) return fromFundamentalsError(error);
  if (error instanceof UseCaseError) return fromUseCaseError(error);
  if (error instanceof MarketDataError) return fromMarketDataError(error);
  if (error instanceof PortfolioError) return fromPortfolioError(error);
  if (error instanceof MoatScoringError && error.code === 'insufficient_data') {
    return new ServiceError('insufficient_data', NO_DATA, { cause: error });
  }
  if (error instanceof QuotaError && error.code === 'quota_exceeded' && error.denied) {
    const { name, limit, used, resetsAt, retryAfterSeconds } = error.denied;
    return new ServiceError(
      'quota_exceeded',
      `The ${name} quota of your plan is used up until ${resetsAt}.`,
      {
        cause: error,
        quota: { name, limit, used, resetsAt },
        retryAfterSeconds,
      },
    );
  }
  if (isDatabaseUnavailable(error)) {
    return new ServiceError('upstream_unavailable', DATABASE_UNAVAILABLE, {
      cause: error,
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    });
  }
  return undefined;
}

/** An error turned into an answer: status, problem body and extra headers. */
export interface ProblemAnswer {
  readonly status: number;
  readonly body: ProblemDetails;
  readonly headers: Readonly<Record<string, string>>;
  /** True when the error was unexpected and must be logged with its stack. */
  readonly unexpected: boolean;
}

/**
 * The mapping of anything a flow threw to a problem, outside any HTTP framework (the MCP server
 * uses it as it is; the REST app first maps its framework's own errors): package errors through
 * {@link toServiceError}, a {@link ServiceError} keeps its code, anything else is a 500 `internal`
 * whose detail never includes the message or stack of the original error.
 */
export function problemOf(thrown: unknown, instance?: string): ProblemAnswer {
  const error = toServiceError(thrown) ?? thrown;
  const extra = instance === undefined ? {} : { instance };
  if (error instanceof ServiceError) {
    const { errors, quota, scope, retryAfterSeconds, headers } = error.options;
    return {
      status: error.status,
      body: problemBody(error.code, error.message, {
        ...extra,
        ...(errors ? { errors: [...errors] } : {}),
        ...(quota ? { quota } : {}),
        ...(scope ? { scope } : {}),
      }),
      headers: { ...withRetryAfter(retryAfterSeconds), ...headers },
      unexpected: error.code === 'internal',
    };
  }
  return {
    status: 500,
    body: problemBody('internal', 'An unexpected error occurred. It has been logged.', extra),
    headers: {},
    unexpected: true,
  };
}
