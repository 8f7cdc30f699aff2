import type { Authenticated } from './ports.js';
import { createRevocableMemo, DEFAULT_MEMO_ENTRIES, type RevocableMemo } from './revocable-memo.js';

/** Options of {@link createSessionCache}. */
export interface SessionCacheOptions {
  /** How long a verified session is reused, milliseconds; 0 disables the cache. */
  readonly ttlMs: number;
  /** Most sessions kept (least recently used evicted); default {@link DEFAULT_MEMO_ENTRIES}. */
  readonly maxEntries?: number;
  /** Start suspended (remember nothing until `resume`); default false. */
  readonly suspended?: boolean;
}

/**
 * The in-process memory of verified session cookies (keyed by the whole JWT, one per session
 * row): a {@link RevocableMemo} of sessions, see there for when it forgets.
 */
export type SessionCache = RevocableMemo<Authenticated>;

/**
 * Creates a {@link SessionCache}. With `ttlMs` 0 it remembers nothing.
 *
 * @example
 * const cache = createSessionCache({ ttlMs: 5_000 });
 */
export function createSessionCache(options: SessionCacheOptions): SessionCache {
  return createRevocableMemo<Authenticated>({
    ...options,
    kind: 'session',
    identify: (auth) => ({
      id: auth.session.id,
      userId: auth.user.id,
      expiresAt: auth.session.expiresAt,
    }),
  });
}
