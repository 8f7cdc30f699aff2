import { LRUCache } from 'lru-cache';

/** A bounded cache of loads in flight or done, per key (`lru-cache`: LRU order, optional TTL). */
export type LoadCache<V> = LRUCache<string, Promise<V>>;

/**
 * A {@link LoadCache} of at most `maxEntries` entries (least recently read evicted first), each
 * kept at most `ttlMs` (default: no expiry); `now` swaps the clock in tests (milliseconds).
 */
export function createLoadCache<V>(options: {
  maxEntries: number;
  ttlMs?: number;
  now?: () => number;
}): LoadCache<V> {
  return new LRUCache<string, Promise<V>>({
    max: Math.max(1, Math.floor(options.maxEntries)),
    ...(options.ttlMs !== undefined && Number.isFinite(options.ttlMs)
      ? { ttl: options.ttlMs }
      : {}),
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
}

/**
 * Memoises an async loader per key in a {@link LoadCache}: concurrent calls share one promise; a
 * rejected promise is evicted so that the next call retries.
 */
export function memoiseAsync<V>(
  cache: LoadCache<V>,
  key: string,
  load: () => Promise<V>,
): Promise<V> {
  const hit = cache.get(key);
  if (hit) return hit;
  const promise = load();
  cache.set(key, promise);
  promise.catch(() => {
    if (cache.peek(key) === promise) cache.delete(key);
  });
  return promise;
}
