import type { QuotaDenied } from './quota-service.js';
import type { RateLimitDenied } from './rate-limiter.js';

/** An RFC 9457 problem for a 429 (CONTRACT §1), with the headers to send. */
export interface TooManyRequests<TBody> {
  status: 429;
  /** `retry-after`: whole seconds. `content-type`: `application/problem+json`. */
  headers: { 'retry-after': string; 'content-type': 'application/problem+json' };
  body: TBody;
}

/** Problem body of an exhausted quota (CONTRACT §1). */
export interface QuotaProblemBody {
  type: string;
  title: string;
  status: 429;
  detail: string;
  code: 'quota_exceeded';
  instance?: string;
  quota: { name: string; limit: number; used: number; resetsAt: string };
}

/** Problem body of a request-rate limit (CONTRACT §1). */
export interface RateLimitProblemBody {
  type: string;
  title: string;
  status: 429;
  detail: string;
  code: 'rate_limited';
  instance?: string;
}

/** Options of the problem builders. */
export interface ProblemOptions {
  /** Problem type URI; default `about:blank` (RFC 9457 §4.2.1: the title is then the status phrase). */
  type?: string;
  /** The request path, for `instance`. */
  instance?: string;
}

function headers(seconds: number): TooManyRequests<unknown>['headers'] {
  return { 'retry-after': String(seconds), 'content-type': 'application/problem+json' };
}

/**
 * The 429 answer for a refused consumption: `code: 'quota_exceeded'`, the quota's name, limit,
 * used and reset instant in `quota`, and `Retry-After` in seconds until the reset.
 *
 * @example
 * ```ts
 * const result = await quotas.consume(user.id, user.plan, 'ai_consult');
 * if (!result.ok) {
 *   const problem = quotaProblem(result, { instance: request.url });
 *   return reply.code(problem.status).headers(problem.headers).send(problem.body);
 * }
 * ```
 */
export function quotaProblem(
  denied: QuotaDenied,
  options: ProblemOptions = {},
): TooManyRequests<QuotaProblemBody> {
  return {
    status: 429,
    headers: headers(denied.retryAfterSeconds),
    body: {
      type: options.type ?? 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: `The ${denied.name} quota of ${denied.limit} per period is used up; it resets at ${denied.resetsAt}.`,
      code: 'quota_exceeded',
      ...(options.instance ? { instance: options.instance } : {}),
      quota: {
        name: denied.name,
        limit: denied.limit,
        used: denied.used,
        resetsAt: denied.resetsAt,
      },
    },
  };
}

/** The 429 answer for a refused request under the per-user rate limit (`code: 'rate_limited'`). */
export function rateLimitProblem(
  denied: RateLimitDenied,
  options: ProblemOptions = {},
): TooManyRequests<RateLimitProblemBody> {
  return {
    status: 429,
    headers: headers(denied.retryAfterSeconds),
    body: {
      type: options.type ?? 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: `More than ${denied.limit} requests in the window; retry in ${denied.retryAfterSeconds} s.`,
      code: 'rate_limited',
      ...(options.instance ? { instance: options.instance } : {}),
    },
  };
}
