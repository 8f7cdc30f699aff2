import type {
  ScreenerMeta,
  ScreenerPage,
  ScreenerQuery,
  ScreenerRepository,
} from '@svc/portfolio-store';
import { LRUCache } from 'lru-cache';

/** Default number of distinct screener answers a process keeps in memory. */
export const DEFAULT_SCREENER_MEMO_ENTRIES = 500;

/** A screener repository with a short in-process memory, and a way to forget it. */
export interface MemoizedScreener {
  readonly screener: Pick<ScreenerRepository, 'screen' | 'meta'>;
  /** Forgets every remembered answer (called when this process writes the evaluation cache). */
  clear(): void;
}

/**
 * Remembers screener pages and the `meta` statistics for `ttlMs`, keyed by the parsed query,
 * so that the same screen asked again (a page refresh, many agents) costs no query. The cache
 * behind it changes only when evaluations are stored: `clear()` is called on every store through
 * this process, and a store by another process is seen within `ttlMs`. `ttlMs` 0 disables it.
 * `now` (milliseconds, monotonic) replaces `performance.now()` for the TTL, in tests.
 */
export function memoizeScreener(
  screener: Pick<ScreenerRepository, 'screen' | 'meta'>,
  options: { ttlMs: number; maxEntries?: number; now?: () => number },
): MemoizedScreener {
  if (options.ttlMs <= 0) return { screener, clear: () => undefined };
  const answers = new LRUCache<string, ScreenerPage | ScreenerMeta>({
    max: options.maxEntries ?? DEFAULT_SCREENER_MEMO_ENTRIES,
    ttl: options.ttlMs,
    // the clock read on every check: lru-cache's default (`ttlResolution` 1) caches it for 1 ms
    // behind a `setTimeout`, a timer made and fired per millisecond of a busy server (issue 37)
    ttlResolution: 0,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
  async function remembered<T extends ScreenerPage | ScreenerMeta>(
    key: string,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = answers.get(key);
    if (hit) return hit as T;
    const answer = await load();
    answers.set(key, answer);
    return answer;
  }
  return {
    screener: {
      screen: (query: ScreenerQuery = {}) =>
        remembered(`screen:${stableKey(query)}`, () => screener.screen(query)),
      meta: () => remembered('meta', () => screener.meta()),
    },
    clear: () => answers.clear(),
  };
}

/** The query's defined fields in a fixed order, so equal queries share one entry. */
function stableKey(query: ScreenerQuery): string {
  const entries = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}
