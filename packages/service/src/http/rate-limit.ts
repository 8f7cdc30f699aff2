import fastifyRateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { type BatchedCounter, batchCounter, UseCaseError } from '@svc/use-cases';
import type { FastifyInstance } from 'fastify';
import type { CounterFactory } from '../accounts.js';

/**
 * A `@fastify/rate-limit` store over the database's shared counters: every process counts a
 * user's requests in the same row (`rate_limits`), so N processes together allow `max` per
 * window, not N × `max` (give or take what each counts locally within 100 ms, see
 * `batchCounter`: one database write per user per 100 ms, not one per request, and below half the
 * limit a request does not wait for it). One counter per window length, created on first use.
 */
function sharedStore(counters: CounterFactory): FastifyRateLimitStoreCtor {
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
        { waitFrom: Math.floor(max / 2) },
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
  options: { counters: CounterFactory },
): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    store: sharedStore(options.counters),
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
