import { LRUCache } from 'lru-cache';
import type { Authenticated } from './auth-service.js';

/** Default number of verified sessions a process keeps in memory. */
export const DEFAULT_SESSION_CACHE_ENTRIES = 10_000;

/** Options of {@link createSessionCache}. */
export interface SessionCacheOptions {
  /** How long a verified session is reused, milliseconds; 0 disables the cache. */
  readonly ttlMs: number;
  /** Most sessions kept (least recently used evicted); default {@link DEFAULT_SESSION_CACHE_ENTRIES}. */
  readonly maxEntries?: number;
}

/**
 * A short in-process memory of verified session cookies, so that a signed-in request does not
 * read the session and user rows on every call. An entry is keyed by the whole JWT (one JWT per
 * session row), lives `ttlMs` at most and never past the session's own expiry (checked against
 * the service clock). `forget(sessionId)` drops a session at once (logout in this process);
 * a revocation written by another process is seen here after `ttlMs` at most.
 */
export interface SessionCache {
  /** The verified session of `jwt` when it is cached and not expired at `now`. */
  get(jwt: string, now: Date): Authenticated | undefined;
  /** Remembers a verified session. */
  set(jwt: string, auth: Authenticated): void;
  /** Forgets every cached JWT of a session row. */
  forget(sessionId: string): void;
}

/**
 * Creates a {@link SessionCache} (`lru-cache`, TTL in real time). With `ttlMs` 0 it remembers
 * nothing.
 *
 * @example
 * const cache = createSessionCache({ ttlMs: 5_000 });
 */
export function createSessionCache(options: SessionCacheOptions): SessionCache {
  if (options.ttlMs <= 0) return { get: () => undefined, set: () => {}, forget: () => {} };
  const entries = new LRUCache<string, Authenticated>({
    max: options.maxEntries ?? DEFAULT_SESSION_CACHE_ENTRIES,
    ttl: options.ttlMs,
  });
  return {
    get(jwt, now) {
      const auth = entries.get(jwt);
      if (!auth) return undefined;
      if (Date.parse(auth.session.expiresAt) <= now.getTime()) {
        entries.delete(jwt);
        return undefined;
      }
      return auth;
    },
    set: (jwt, auth) => {
      entries.set(jwt, auth);
    },
    forget(sessionId) {
      for (const [jwt, auth] of entries.entries()) {
        if (auth.session.id === sessionId) entries.delete(jwt);
      }
    },
  };
}
