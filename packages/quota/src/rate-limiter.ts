import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** A request let through. */
export interface RateLimitAllowed {
  ok: true;
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** ISO-8601 end of the current window. */
  resetsAt: string;
}

/** A request refused: the window is used up. */
export interface RateLimitDenied {
  ok: false;
  limit: number;
  remaining: 0;
  resetsAt: string;
  /** Seconds until the window ends, at least 1: the `Retry-After` header. */
  retryAfterSeconds: number;
}

/** Outcome of {@link RateLimiter.hit}. */
export type RateLimitDecision = RateLimitAllowed | RateLimitDenied;

/**
 * A per-key request rate limiter (key: the user id, or the client address for anonymous calls).
 * Implement it over a shared store (Redis, PostgreSQL) to count across processes;
 * {@link createMemoryRateLimiter} counts in this process only.
 */
export interface RateLimiter {
  /** Counts one request (or `cost`) for `key` and answers whether it may proceed. */
  hit(key: string, cost?: number): Promise<RateLimitDecision>;
}

/** Options of {@link createMemoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /** Requests per window; default 120. */
  points?: number;
  /** Window length in seconds; default 60. */
  durationSeconds?: number;
}

/**
 * Adapts any `rate-limiter-flexible` limiter (memory, Redis, PostgreSQL, …: a fixed window of
 * `points` per `duration` seconds per key) to {@link RateLimiter}. Store errors are rethrown.
 */
export function fromRateLimiterFlexible(limiter: RateLimiterAbstract): RateLimiter {
  const limit = limiter.points;
  return {
    async hit(key, cost = 1) {
      try {
        const res = await limiter.consume(key, cost);
        const resetsAt = new Date(Date.now() + res.msBeforeNext).toISOString();
        return { ok: true, limit, remaining: res.remainingPoints, resetsAt };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const resetsAt = new Date(Date.now() + error.msBeforeNext).toISOString();
        const retryAfterSeconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        return { ok: false, limit, remaining: 0, resetsAt, retryAfterSeconds };
      }
    },
  };
}

/**
 * An in-process fixed-window rate limiter (`rate-limiter-flexible`'s `RateLimiterMemory`).
 * Defaults to 120 requests per 60 s per key, our own choice (the interface spec leaves rate-limit
 * numbers open, §8): generous for a person in a browser, a brake on a runaway agent.
 *
 * @example
 * ```ts
 * const limiter = createMemoryRateLimiter({ points: 120, durationSeconds: 60 });
 * const decision = await limiter.hit(user.id);
 * if (!decision.ok) reply.header('retry-after', String(decision.retryAfterSeconds)).code(429); // the app maps it
 * ```
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiter {
  return fromRateLimiterFlexible(
    new RateLimiterMemory({
      points: options.points ?? 120,
      duration: options.durationSeconds ?? 60,
    }),
  );
}
