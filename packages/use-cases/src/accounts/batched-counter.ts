import type { CounterState, SharedCounter } from '@svc/portfolio-store';

/** Options of {@link batchCounter}. */
export interface BatchCounterOptions {
  /**
   * Milliseconds a process may count locally before it writes its additions to the shared
   * counter; 0 writes every addition (exact). Default {@link DEFAULT_COUNTER_SYNC_MS}.
   */
  readonly syncMs?: number;
  /** Keys remembered locally at most (the oldest are dropped). Default 10 000. */
  readonly maxKeys?: number;
  /** Clock in milliseconds; default `Date.now`. */
  readonly now?: () => number;
}

/** Default batching interval of {@link batchCounter}: 100 ms. */
export const DEFAULT_COUNTER_SYNC_MS = 100;

interface LocalWindow {
  /** The shared count at the last write, this process's written additions included. */
  shared: number;
  /** Additions not yet written. */
  pending: number;
  /** When the window ends (epoch ms). */
  endsAt: number;
  /** When the additions were last written (epoch ms). */
  syncedAt: number;
  /** The write under way, if any. */
  writing: Promise<void> | undefined;
}

/**
 * Puts a local tally in front of a {@link SharedCounter}, so that a busy key costs one database
 * write per `syncMs` per process instead of one per request (the per-user request limit is
 * counted on every signed-in request). A key's first addition in a process, and any addition
 * after `syncMs`, waits for the write and answers the shared count; additions in between answer
 * the last shared count plus the local ones and are written with the next write. Across P
 * processes a window can so admit at most what P processes count within `syncMs` beyond the
 * limit; with `syncMs` 0 every addition is written and the count is exact.
 *
 * @example
 * const requests = batchCounter(counters({ keyPrefix: 'requests', points: 300, durationSeconds: 60 }));
 */
export function batchCounter(
  counter: SharedCounter,
  options: BatchCounterOptions = {},
): SharedCounter {
  const syncMs = options.syncMs ?? DEFAULT_COUNTER_SYNC_MS;
  if (syncMs <= 0) return counter;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, LocalWindow>();

  const write = (key: string, local: LocalWindow): Promise<void> => {
    const points = local.pending;
    local.pending = 0;
    local.writing = counter.add(key, points).then(
      (state) => {
        local.shared = state.consumed;
        local.endsAt = now() + state.msBeforeReset;
        local.syncedAt = now();
        local.writing = undefined;
      },
      (error: unknown) => {
        local.pending += points;
        local.writing = undefined;
        throw error;
      },
    );
    return local.writing;
  };

  const state = (local: LocalWindow): CounterState => ({
    consumed: local.shared + local.pending,
    msBeforeReset: Math.max(0, local.endsAt - now()),
  });

  return {
    async add(key, points = 1) {
      let local = windows.get(key);
      if (local && local.endsAt <= now() && !local.writing) {
        windows.delete(key);
        local = undefined;
      }
      if (!local) {
        if (windows.size >= maxKeys) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
        local = { shared: 0, pending: points, endsAt: 0, syncedAt: 0, writing: undefined };
        windows.set(key, local);
        await write(key, local);
        return state(local);
      }
      local.pending += points;
      if (!local.writing && now() - local.syncedAt >= syncMs) await write(key, local);
      return state(local);
    },
    peek: (key) => counter.peek(key),
    async reset(key) {
      windows.delete(key);
      await counter.reset(key);
    },
  };
}
