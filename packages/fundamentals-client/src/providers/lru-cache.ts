/**
 * A small least-recently-used map with an optional time-to-live, for parsed documents. Bounded:
 * inserting past `maxEntries` evicts the least recently read entry.
 */
export class LruCache<V> {
  readonly #map = new Map<string, { value: V; expiresAt: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: { maxEntries: number; ttlMs?: number; now?: () => number }) {
    this.#maxEntries = Math.max(1, Math.floor(options.maxEntries));
    this.#ttlMs = options.ttlMs ?? Number.POSITIVE_INFINITY;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    this.#map.delete(key);
    if (entry.expiresAt <= this.#now()) return undefined;
    this.#map.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, { value, expiresAt: this.#now() + this.#ttlMs });
    while (this.#map.size > this.#maxEntries) {
      const oldest = this.#map.keys().next().value;
      if (oldest === undefined) break;
      this.#map.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#map.delete(key);
  }
}

/**
 * Memoises an async loader per key in an {@link LruCache}: concurrent calls share one promise; a
 * rejected promise is evicted so that the next call retries.
 */
export function memoiseAsync<V>(
  cache: LruCache<Promise<V>>,
  key: string,
  load: () => Promise<V>,
): Promise<V> {
  const hit = cache.get(key);
  if (hit) return hit;
  const promise = load();
  cache.set(key, promise);
  promise.catch(() => {
    if (cache.get(key) === promise) cache.delete(key);
  });
  return promise;
}
