import type { RevocableMemo, SessionChangeFeed } from '@svc/use-cases';
import type { AppConfig } from './config.js';

/** A memo of verified credentials and how to stop following the database's announcements. */
export interface OpenedCredentialMemo<M> {
  readonly memo: M;
  /** Unsubscribes from the session-change feed (call when the server closes). */
  close(): void;
}

/**
 * A memo of verified credentials (sessions or personal access tokens) for one server process. On
 * the embedded database (one process owns every session and token) a plain memo of
 * `SESSION_CACHE_SECONDS`; with `DATABASE_URL` one that forgets what the database announces
 * (logout, revocation, token deletion: `deps.sessionChanges`) and remembers nothing while the
 * announcements cannot be received (no feed: no memo), so a revocation in any process acts at once
 * in every other.
 */
export function openCredentialMemo<M extends RevocableMemo<object>>(
  deps: {
    readonly config: Pick<AppConfig, 'sessionCacheSeconds' | 'databaseUrl'>;
    readonly sessionChanges?: SessionChangeFeed | undefined;
  },
  create: (options: { ttlMs: number; suspended?: boolean }) => M,
): OpenedCredentialMemo<M> {
  const ttlMs = deps.config.sessionCacheSeconds * 1000;
  if (deps.config.databaseUrl === undefined) return { memo: create({ ttlMs }), close: () => {} };
  const feed = deps.sessionChanges;
  if (!feed) return { memo: create({ ttlMs: 0 }), close: () => {} };
  const memo = create({ ttlMs, suspended: !feed.listening });
  const unsubscribe = feed.subscribe({
    onChange: (change) => memo.forget(change),
    onListening: (listening) => (listening ? memo.resume() : memo.suspend()),
  });
  return { memo, close: unsubscribe };
}
