import type { SharedCounter, SharedCounterOptions } from '@svc/portfolio-store';

/** Options of {@link createLoginThrottle}. */
export interface LoginThrottleOptions {
  /** Failures allowed per key and window before 429. Default 5 (OWASP: a small number). */
  readonly maxFailures?: number;
  /** Window length in seconds, counted from the first failure. Default 900 (15 minutes). */
  readonly windowSeconds?: number;
}

/**
 * Counts failed logins per key (client IP + lower-cased e-mail) in a fixed window, in the
 * database, so that every server process counts the same failures.
 */
export interface LoginThrottle {
  /** Seconds until `key` may try again, or `undefined` when it may try now. */
  blockedFor(key: string): Promise<number | undefined>;
  /** Records a failed attempt. */
  recordFailure(key: string): Promise<void>;
  /** Forgets the failures of `key` (after a successful login). */
  reset(key: string): Promise<void>;
}

/**
 * Creates the failed-login throttle over a shared counter (`createSharedCounter` of
 * `@svc/portfolio-store`: the `rate_limits` table), so that N processes together allow
 * `maxFailures` per key and window, not N × `maxFailures`.
 *
 * @example
 * const throttle = createLoginThrottle((o) => createSharedCounter(database, o), { maxFailures: 5 });
 * const wait = await throttle.blockedFor(`${ip}|${email}`);
 */
export function createLoginThrottle(
  counters: (options: SharedCounterOptions) => SharedCounter,
  options: LoginThrottleOptions = {},
): LoginThrottle {
  const maxFailures = options.maxFailures ?? 5;
  const failures = counters({
    keyPrefix: 'login',
    points: maxFailures,
    durationSeconds: options.windowSeconds ?? 900,
  });
  return {
    async blockedFor(key) {
      const { consumed, msBeforeReset } = await failures.peek(key);
      if (consumed < maxFailures) return undefined;
      return Math.max(1, Math.ceil(msBeforeReset / 1000));
    },
    async recordFailure(key) {
      await failures.add(key);
    },
    reset: (key) => failures.reset(key),
  };
}
