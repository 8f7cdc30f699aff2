import type { CachedEvaluation, EvaluationCacheRepository } from '@svc/portfolio-store';
import { LRUCache } from 'lru-cache';

/** The part of the evaluation cache the evaluation flow reads. */
type EvaluationCacheReader = Pick<EvaluationCacheRepository, 'get' | 'getMany'>;

/** The memoised reader, and how to forget a symbol once its row was written. */
export interface MemoizedEvaluationCache extends EvaluationCacheReader {
  /** Forgets `symbol`'s remembered row (call it after the row was written and committed). */
  forget(symbol: string): void;
}

/** Default number of cached evaluations a process keeps in memory (about 10 kB each). */
export const DEFAULT_EVALUATION_MEMO_ENTRIES = 2_000;

/** Options of {@link memoizeEvaluationCache}. */
export interface EvaluationMemoOptions {
  /** How long a row read from the shared cache is reused, milliseconds; 0 disables. */
  readonly ttlMs: number;
  /** Most rows kept (least recently used evicted); default {@link DEFAULT_EVALUATION_MEMO_ENTRIES}. */
  readonly maxEntries?: number;
}

/**
 * Puts a short in-process memory in front of the shared evaluation cache (the database table),
 * so that a cached `GET /api/stock-evaluation` costs no query while the row is remembered.
 *
 * Only hits are remembered: a miss always asks the database (another process may have filled
 * it). Requests for a symbol that arrive while its row is being read share that read (when a
 * remembered row ends, the requests arriving together make one query, not one each). A process
 * that keeps an evaluation calls `forget` after the write, so it serves the new row at once: a
 * read that began before the forget is neither joined nor remembered. A row written by another
 * process replaces the remembered one here after `ttlMs` at most. Rows are shared between requests and must not be mutated:
 * the evaluation flow makes its served answer once per row and freezes it (`freezeAnswer`). Keys
 * are tickers as the flow normalised them (`tickerOf` of `@svc/use-cases`), not normalised again.
 *
 * @example
 * const cache = memoizeEvaluationCache(repos.evaluations, { ttlMs: 10_000 });
 */
export function memoizeEvaluationCache(
  cache: EvaluationCacheReader,
  options: EvaluationMemoOptions,
): MemoizedEvaluationCache {
  if (options.ttlMs <= 0)
    return {
      get: (symbol) => cache.get(symbol),
      getMany: (symbols) => cache.getMany(symbols),
      forget: () => {},
    };
  const rows = new LRUCache<string, CachedEvaluation>({
    max: options.maxEntries ?? DEFAULT_EVALUATION_MEMO_ENTRIES,
    ttl: options.ttlMs,
    // the clock read on every check: lru-cache's default (`ttlResolution` 1) caches it for 1 ms
    // behind a `setTimeout`, a timer made and fired per millisecond of a busy server (issue 37)
    ttlResolution: 0,
  });
  /** The reads under way, by symbol (one per symbol; dropped by `forget`). */
  const reading = new Map<string, Promise<CachedEvaluation | undefined>>();
  return {
    // Keyed by the ticker as the flow normalised it once at its boundary (`tickerOf`), the
    // spelling the evaluations and the table carry.
    async get(symbol) {
      const remembered = rows.get(symbol);
      if (remembered) return remembered;
      const running = reading.get(symbol);
      if (running) return running;
      const read = cache.get(symbol).then(
        (row) => {
          // a forget since the read began: answer it, but neither remember it nor forget anew
          if (reading.get(symbol) === read) {
            reading.delete(symbol);
            if (row) rows.set(symbol, row);
          }
          return row;
        },
        (error: unknown) => {
          if (reading.get(symbol) === read) reading.delete(symbol);
          throw error;
        },
      );
      reading.set(symbol, read);
      return read;
    },
    // The remembered rows first, one read of the cache for the others (the portfolio X-ray).
    async getMany(symbols) {
      const found: CachedEvaluation[] = [];
      const asked: string[] = [];
      for (const symbol of symbols) {
        const remembered = rows.get(symbol);
        if (remembered) found.push(remembered);
        else asked.push(symbol);
      }
      if (asked.length === 0) return found;
      for (const row of await cache.getMany(asked)) {
        rows.set(row.symbol, row);
        found.push(row);
      }
      return found;
    },
    forget(symbol) {
      rows.delete(symbol);
      reading.delete(symbol);
    },
  };
}
