/** Options of {@link createLoginThrottle}. */
export interface LoginThrottleOptions {
  /** Failures allowed per key and window before 429. Default 5 (OWASP: a small number). */
  readonly maxFailures?: number;
  /** Window length in seconds, counted from the first failure. Default 900 (15 minutes). */
  readonly windowSeconds?: number;
  /** Keys remembered at most (oldest evicted first). Default 10 000. */
  readonly maxKeys?: number;
}

/** Counts failed logins per key (client IP + lower-cased e-mail) in a fixed window, in memory. */
export interface LoginThrottle {
  /** Seconds until `key` may try again, or `undefined` when it may try now. */
  blockedFor(key: string, now: Date): number | undefined;
  /** Records a failed attempt. */
  recordFailure(key: string, now: Date): void;
  /** Forgets the failures of `key` (after a successful login). */
  reset(key: string): void;
}

/**
 * Creates an in-memory failed-login counter. Per process: with several processes each allows
 * `maxFailures`, which still bounds guessing (documented in the README).
 *
 * @example
 * const throttle = createLoginThrottle({ maxFailures: 5, windowSeconds: 900 });
 * const wait = throttle.blockedFor(`${ip}|${email}`, new Date());
 */
export function createLoginThrottle(options: LoginThrottleOptions = {}): LoginThrottle {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = (options.windowSeconds ?? 900) * 1000;
  const maxKeys = options.maxKeys ?? 10_000;
  const entries = new Map<string, { failures: number; since: number }>();

  const live = (key: string, now: Date) => {
    const entry = entries.get(key);
    if (entry && now.getTime() - entry.since >= windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  return {
    blockedFor(key, now) {
      const entry = live(key, now);
      if (!entry || entry.failures < maxFailures) return undefined;
      return Math.max(1, Math.ceil((entry.since + windowMs - now.getTime()) / 1000));
    },
    recordFailure(key, now) {
      const entry = live(key, now);
      if (entry) {
        entry.failures += 1;
        return;
      }
      if (entries.size >= maxKeys) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(key, { failures: 1, since: now.getTime() });
    },
    reset(key) {
      entries.delete(key);
    },
  };
}
