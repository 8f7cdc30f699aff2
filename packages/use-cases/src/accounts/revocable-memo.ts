import type { SessionChange } from '@svc/portfolio-store';
import { LRUCache } from 'lru-cache';

/** Default number of entries a {@link RevocableMemo} keeps. */
export const DEFAULT_MEMO_ENTRIES = 10_000;

/** What a remembered credential is: its own id, its owner and its expiry (ISO-8601 or null). */
export interface MemoIdentity {
  readonly id: string;
  readonly userId: string;
  readonly expiresAt: string | null;
}

/** Options of {@link createRevocableMemo}. */
export interface RevocableMemoOptions<T> {
  /** How long a verification is reused, milliseconds; 0 disables the memo. */
  readonly ttlMs: number;
  /** The kind of {@link SessionChange} that names these credentials (`session` or `token`). */
  readonly kind: 'session' | 'token';
  /** The identity of a remembered value. */
  readonly identify: (value: T) => MemoIdentity;
  /** Most entries kept (least recently used evicted); default {@link DEFAULT_MEMO_ENTRIES}. */
  readonly maxEntries?: number;
  /** Start suspended (remember nothing until `resume`); default false. */
  readonly suspended?: boolean;
}

/**
 * A short in-process memory of verified credentials (session cookies, personal access tokens),
 * so that a request does not read their rows every time, which forgets a credential at once when
 * told it ended: on logout or revocation in this process, and on every change another process
 * announces through PostgreSQL (`listenForSessionChanges` of `@svc/portfolio-store`). While those
 * announcements cannot be received it is suspended and remembers nothing, so a revocation
 * anywhere stays immediate. An entry lives `ttlMs` at most and never past its own expiry.
 */
export interface RevocableMemo<T> {
  /** The remembered value of `key` when there is one and it has not expired at `now`. */
  get(key: string, now: Date): T | undefined;
  /**
   * A counter that moves on every forget and suspension: read it before verifying and pass it to
   * `set`, so that a change announced during the verification is not overwritten by the
   * verification's older answer.
   */
  version(): number;
  /** Remembers a verified value, unless suspended or something was forgotten since `version`. */
  set(key: string, value: T, version: number): void;
  /**
   * `verify()`'s answer for `key`, shared by every caller that asks for the same key while that
   * verification runs and nothing was forgotten since it began (`version`, read just before):
   * when a remembered entry ends (its `ttlMs`), the requests of that credential arriving together
   * make one verification (one signature check and its row reads), not one each. A forget or a
   * suspension since it began makes the next caller verify anew; a memo that remembers nothing
   * (`ttlMs` 0, suspended) shares nothing either: every call verifies.
   */
  shared(
    key: string,
    version: number,
    verify: () => Promise<T | undefined>,
  ): Promise<T | undefined>;
  /** Forgets every entry of the credential (its kind) or of the user (`user`) named. */
  forget(change: SessionChange): void;
  /** Forgets everything and remembers nothing until `resume`. */
  suspend(): void;
  /** Remembers again after `suspend`. */
  resume(): void;
}

/**
 * Creates a {@link RevocableMemo} (`lru-cache`, TTL in real time). With `ttlMs` 0 it remembers
 * nothing.
 *
 * @example
 * const memo = createRevocableMemo<Authenticated>({ ttlMs: 5_000, kind: 'session', identify });
 */
export function createRevocableMemo<T extends object>(
  options: RevocableMemoOptions<T>,
): RevocableMemo<T> {
  if (options.ttlMs <= 0) {
    return {
      get: () => undefined,
      version: () => 0,
      set: () => {},
      shared: (_key, _version, verify) => verify(),
      forget: () => {},
      suspend: () => {},
      resume: () => {},
    };
  }
  const entries = new LRUCache<string, T>({
    max: options.maxEntries ?? DEFAULT_MEMO_ENTRIES,
    ttl: options.ttlMs,
    // the clock read on every check: lru-cache's default (`ttlResolution` 1) caches it for 1 ms
    // behind a `setTimeout`, a timer made and fired per millisecond of a busy server (issue 37)
    ttlResolution: 0,
  });
  let suspended = options.suspended ?? false;
  let version = 0;
  /** The verifications under way, by key, with the version each began at. */
  const running = new Map<string, { version: number; answer: Promise<T | undefined> }>();
  return {
    get(key, now) {
      if (suspended) return undefined;
      const value = entries.get(key);
      if (!value) return undefined;
      const { expiresAt } = options.identify(value);
      if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime()) {
        entries.delete(key);
        return undefined;
      }
      return value;
    },
    version: () => version,
    set(key, value, since) {
      if (!suspended && since === version) entries.set(key, value);
    },
    shared(key, since, verify) {
      if (suspended || since !== version) return verify();
      const joined = running.get(key);
      if (joined !== undefined && joined.version === since) return joined.answer;
      const answer = verify();
      const entry = { version: since, answer };
      running.set(key, entry);
      const settled = () => {
        if (running.get(key) === entry) running.delete(key);
      };
      answer.then(settled, settled);
      return answer;
    },
    forget(change) {
      version += 1;
      if (change.kind !== options.kind && change.kind !== 'user') return;
      for (const [key, value] of entries.entries()) {
        const identity = options.identify(value);
        const id = change.kind === 'user' ? identity.userId : identity.id;
        if (id === change.id) entries.delete(key);
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
