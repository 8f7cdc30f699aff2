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
  /**
   * The count from which a due write is waited for. Below it, an addition that falls due for a
   * write starts the write and answers at once from the local tally (the write's answer updates
   * the tally for the next addition), so a request far from its limit never waits for the
   * database; from it on, the addition waits and answers the shared count, as every due addition
   * does with the default 0. A key's first addition in a process always waits.
   */
  readonly waitFrom?: number;
}

/**
 * A {@link SharedCounter} with a local tally in front (see {@link batchCounter}), whose `tally`
 * answers without a promise when the addition need not wait for the database.
 */
export interface BatchedCounter extends SharedCounter {
  /**
   * The same addition as `add`, answered synchronously (a {@link CounterState}) when it waits for
   * no write, else the promise `add` would answer. For callers on every request (the rate limit),
   * where a promise per call is measurable CPU (issue 22).
   */
  tally(key: string, points?: number): CounterState | Promise<CounterState>;
}

/** Default batching interval of {@link batchCounter}: 100 ms. */
export const DEFAULT_COUNTER_SYNC_MS = 100;

interface LocalWindow {
  /** The shared count at the last write, this process's written additions included. */
  shared: number;
  /** Additions not yet written. */
  pending: number;
  /** Additions of the write under way. */
  inFlight: number;
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
 * after `syncMs`, writes the additions counted so far: it waits for the write and answers the
 * shared count, except while the local tally is below `waitFrom`, where it answers the tally and
 * the write goes on in the background (see {@link BatchCounterOptions.waitFrom}). Additions in
 * between answer the last shared count plus the local ones and are written with the next write.
 * Across P processes a window can so admit at most what P processes count within `syncMs`
 * beyond the limit; with `syncMs` 0 every addition is written and the count is exact.
 *
 * @example
 * const requests = batchCounter(counters({ keyPrefix: 'requests', points: 300, durationSeconds: 60 }));
 */
export function batchCounter(
  counter: SharedCounter,
  options: BatchCounterOptions = {},
): BatchedCounter {
  const syncMs = options.syncMs ?? DEFAULT_COUNTER_SYNC_MS;
  if (syncMs <= 0) {
    return {
      add: (key, points) => counter.add(key, points),
      tally: (key, points) => counter.add(key, points),
      peek: (key) => counter.peek(key),
      reset: (key) => counter.reset(key),
    };
  }
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, LocalWindow>();

  const waitFrom = options.waitFrom ?? 0;

  const write = (key: string, local: LocalWindow): Promise<void> => {
    const points = local.pending;
    local.pending = 0;
    local.inFlight = points;
    local.writing = counter.add(key, points).then(
      (state) => {
        local.shared = state.consumed;
        local.inFlight = 0;
        local.endsAt = now() + state.msBeforeReset;
        local.syncedAt = now();
        local.writing = undefined;
      },
      (error: unknown) => {
        local.pending += points;
        local.inFlight = 0;
        local.writing = undefined;
        throw error;
      },
    );
    return local.writing;
  };

  const state = (local: LocalWindow): CounterState => ({
    consumed: local.shared + local.inFlight + local.pending,
    msBeforeReset: Math.max(0, local.endsAt - now()),
  });

  const tally = (key: string, points = 1): CounterState | Promise<CounterState> => {
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
      const fresh: LocalWindow = {
        shared: 0,
        pending: points,
        inFlight: 0,
        endsAt: 0,
        syncedAt: 0,
        writing: undefined,
      };
      windows.set(key, fresh);
      return write(key, fresh).then(() => state(fresh));
    }
    local.pending += points;
    if (!local.writing && now() - local.syncedAt >= syncMs) {
      const estimate = state(local);
      if (estimate.consumed < waitFrom) {
        // a failed write keeps its additions pending for the next one
        write(key, local).catch(() => {});
        return estimate;
      }
      const due = local;
      return write(key, due).then(() => state(due));
    }
    return state(local);
  };

  return {
    tally,
    add: async (key, points) => tally(key, points),
    peek: (key) => counter.peek(key),
    async reset(key) {
      windows.delete(key);
      await counter.reset(key);
    },
  };
}
