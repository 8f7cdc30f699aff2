import { hash } from 'node:crypto';
import type { SharedCounter, SharedCounterOptions } from '@svc/portfolio-store';

/**
 * The part of a shared counter's key (`rate_limits.key`) that stands for a person: a SHA-256
 * digest (32 hex characters) of `value` (an e-mail address, trimmed and lower-cased, or a user
 * id), so that no counter row names anyone in clear; erasing an account deletes the rows whose
 * key contains the digests of its e-mail and id.
 */
export function counterKeyDigest(value: string): string {
  // one-shot `crypto.hash` (Node ≥ 21.7): no Hash object per call
  return hash('sha256', `svc-counter-key:${value.trim().toLowerCase()}`, 'hex').slice(0, 32);
}

/** The login throttle's key of a client IP and an e-mail address: `<ip>|<digest of the e-mail>`. */
export function loginThrottleKey(ip: string, email: string): string {
  return `${ip}|${counterKeyDigest(email)}`;
}

/** Options of {@link createLoginThrottle}. */
export interface LoginThrottleOptions {
  /** Failures allowed per key and window before 429. Default 5 (OWASP: a small number). */
  readonly maxFailures?: number;
  /** Window length in seconds, counted from the first failure. Default 900 (15 minutes). */
  readonly windowSeconds?: number;
}

/**
 * Counts failed logins per key (client IP + digest of the lower-cased e-mail, {@link loginThrottleKey}) in a fixed window, in the
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
 * const wait = await throttle.blockedFor(loginThrottleKey(ip, email));
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
