import type { SessionChange } from '@svc/portfolio-store';
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
  /** Start suspended (remember nothing until {@link SessionCache.resume}); default false. */
  readonly suspended?: boolean;
}

/**
 * A short in-process memory of verified session cookies, so that a signed-in request does not
 * read the session and user rows on every call. An entry is keyed by the whole JWT (one JWT per
 * session row), lives `ttlMs` at most and never past the session's own expiry (checked against
 * the service clock). `forget` drops a session or all of a user's sessions at once: on logout
 * in this process, and on every change another process announces through PostgreSQL (see
 * `listenForSessionChanges` of `@svc/portfolio-store`). While those announcements cannot be
 * received the cache is suspended: it remembers nothing, so revocation stays immediate.
 */
export interface SessionCache {
  /** The verified session of `jwt` when it is cached and not expired at `now`. */
  get(jwt: string, now: Date): Authenticated | undefined;
  /**
   * A counter that moves on every forget and suspension: read it before verifying a session and
   * pass it to {@link SessionCache.set}, so that a change announced during the verification is
   * not overwritten by the verification's older answer.
   */
  version(): number;
  /** Remembers a verified session, unless suspended or something was forgotten since `version`. */
  set(jwt: string, auth: Authenticated, version: number): void;
  /** Forgets every cached JWT of a session row (`session`) or of a user (`user`). */
  forget(change: SessionChange): void;
  /** Forgets everything and remembers nothing until {@link SessionCache.resume}. */
  suspend(): void;
  /** Remembers again after {@link SessionCache.suspend}. */
  resume(): void;
}

const NOTHING: SessionCache = {
  get: () => undefined,
  version: () => 0,
  set: () => {},
  forget: () => {},
  suspend: () => {},
  resume: () => {},
};

/**
 * Creates a {@link SessionCache} (`lru-cache`, TTL in real time). With `ttlMs` 0 it remembers
 * nothing.
 *
 * @example
 * const cache = createSessionCache({ ttlMs: 5_000 });
 */
export function createSessionCache(options: SessionCacheOptions): SessionCache {
  if (options.ttlMs <= 0) return NOTHING;
  const entries = new LRUCache<string, Authenticated>({
    max: options.maxEntries ?? DEFAULT_SESSION_CACHE_ENTRIES,
    ttl: options.ttlMs,
  });
  let suspended = options.suspended ?? false;
  let version = 0;
  return {
    get(jwt, now) {
      if (suspended) return undefined;
      const auth = entries.get(jwt);
      if (!auth) return undefined;
      if (Date.parse(auth.session.expiresAt) <= now.getTime()) {
        entries.delete(jwt);
        return undefined;
      }
      return auth;
    },
    version: () => version,
    set: (jwt, auth, since) => {
      if (!suspended && since === version) entries.set(jwt, auth);
    },
    forget(change) {
      version += 1;
      for (const [jwt, auth] of entries.entries()) {
        const id = change.kind === 'session' ? auth.session.id : auth.user.id;
        if (id === change.id) entries.delete(jwt);
      }
    },
    suspend() {
      version += 1;
      suspended = true;
      entries.clear();
    },
    resume() {
      suspended = false;
    },
  };
}
