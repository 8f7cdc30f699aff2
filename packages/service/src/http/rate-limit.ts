import fastifyRateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import {
  type BatchedCounter,
  batchCounter,
  DEFAULT_COUNTER_SYNC_MS,
  UseCaseError,
} from '@svc/use-cases';
import type { FastifyInstance } from 'fastify';
import type { CounterFactory } from '../accounts.js';

/** How often a process writes its request counts to the embedded database (PGlite), ms. */
export const EMBEDDED_RATE_LIMIT_SYNC_MS = 1_000;

/**
 * How often a process writes its count of a user's requests to the shared counter, ms (the
 * `syncMs` of `batchCounter`): {@link DEFAULT_COUNTER_SYNC_MS} (100) with PostgreSQL
 * (`DATABASE_URL`), where several processes count in one row and each may admit, beyond the
 * limit, what it counted since its last write; {@link EMBEDDED_RATE_LIMIT_SYNC_MS} (1,000) with the
 * embedded PGlite, which one process opens: there the counts of its servers are all in memory
 * and the write keeps them across a restart (a crash forgets at most the last second's). Each
 * PGlite write runs in the server's own CPU: at 10 writes a second they were 3–5% of the samples
 * of a CPU profile of the cached evaluation under load (issue 37), a fixed cost per second that
 * weighs on every request the more the fewer requests share it.
 */
export function rateLimitSyncMs(config: { readonly databaseUrl?: string | undefined }): number {
  return config.databaseUrl === undefined ? EMBEDDED_RATE_LIMIT_SYNC_MS : DEFAULT_COUNTER_SYNC_MS;
}

/**
 * A `@fastify/rate-limit` store over the database's shared counters: every process counts a
 * user's requests in the same row (`rate_limits`), so N processes together allow `max` per
 * window, not N × `max` (give or take what each counts locally within `syncMs`, see
 * `batchCounter`: one database write per user per `syncMs`, not one per request, and below half
 * the limit a request does not wait for it). One counter per window length, created on first use.
 */
function sharedStore(counters: CounterFactory, syncMs: number): FastifyRateLimitStoreCtor {
  const byWindow = new Map<number, BatchedCounter>();
  const counterFor = (timeWindow: number, max: number) => {
    let counter = byWindow.get(timeWindow);
    if (!counter) {
      counter = batchCounter(
        counters({
          keyPrefix: 'requests',
          points: Math.max(1, max),
          durationSeconds: timeWindow / 1000,
        }),
        // below half the limit a due write does not hold the request up (an isolated request
        // would otherwise wait for a database round trip every time); near the limit it does
        { waitFrom: Math.floor(max / 2), syncMs },
      );
      byWindow.set(timeWindow, counter);
    }
    return counter;
  };
  class SharedRateLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      // a request that need not wait for the database is counted without a promise (issue 22)
      const counted = counterFor(timeWindow, max).tally(key);
      if (!(counted instanceof Promise)) {
        callback(null, { current: counted.consumed, ttl: counted.msBeforeReset });
        return;
      }
      counted.then(
        (state) => callback(null, { current: state.consumed, ttl: state.msBeforeReset }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return SharedRateLimitStore;
}

/**
 * Registers `@fastify/rate-limit` on a Fastify server of this service (the REST app and the
 * standalone MCP server alike), not global: session routes opt in per route (see the session guard),
 * keyed by user id and counted in the database (shared by every process). Exceeding answers 429
 * `rate_limited` problem+json with `Retry-After`. When the database cannot count (an outage), the
 * request goes on unlimited rather than failing here (`skipOnError`): the route then answers
 * from what it can reach.
 */
export async function registerSharedRateLimit(
  app: FastifyInstance,
  options: {
    counters: CounterFactory;
    /** Batching interval of the counts, ms; default 100 (see {@link rateLimitSyncMs}). */
    syncMs?: number;
  },
): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    store: sharedStore(options.counters, options.syncMs ?? DEFAULT_COUNTER_SYNC_MS),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new UseCaseError(
        'rate_limited',
        `Too many requests: at most ${context.max} per ${context.after}.`,
        {
          retryAfterSeconds: Math.ceil(context.ttl / 1000),
        },
      ),
  });
}
