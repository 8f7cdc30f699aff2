import { createHash } from 'node:crypto';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Database } from '../database.js';
import { StoreError } from '../errors.js';

/** A window's state: points counted so far and milliseconds until the window ends. */
export interface CounterState {
  /** Points counted in the current window (0 when there is none). */
  readonly consumed: number;
  /** Milliseconds until the current window ends (0 when there is none). */
  readonly msBeforeReset: number;
}

/**
 * A fixed-window counter kept in the `rate_limits` table, so that every server process counts
 * against the same rows (a login throttle, a per-user request limit). Each key's window starts at
 * its first point and lasts `durationSeconds`; adding is one atomic `INSERT … ON CONFLICT`
 * statement (`rate-limiter-flexible`'s PostgreSQL store).
 */
export interface SharedCounter {
  /** Adds `points` (default 1) to `key` and answers the window after the addition. */
  add(key: string, points?: number): Promise<CounterState>;
  /** The window of `key` without changing it. */
  peek(key: string): Promise<CounterState>;
  /** Forgets `key`'s window. */
  reset(key: string): Promise<void>;
}

/** Options of {@link createSharedCounter}. */
export interface SharedCounterOptions {
  /** Namespace of the keys (`<keyPrefix>:<key>`), one per use, e.g. `login`. */
  readonly keyPrefix: string;
  /** Window length in seconds, from a key's first point. */
  readonly durationSeconds: number;
  /** The count at which callers consider a key exhausted (reported, not enforced here). */
  readonly points: number;
}

const KEY_PREFIX = /^[a-z][a-z0-9_-]{0,31}$/;
const PLAIN_KEY = /^[\x20-\x7e]{1,200}$/;

/** A key as stored: printable ASCII up to 200 characters as it is, anything else as its SHA-256. */
const storedKey = (key: string) =>
  PLAIN_KEY.test(key) ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;

/** The row `rate-limiter-flexible`'s upsert inserts (`VALUES ($1, $2, $3)`). */
const UPSERT_VALUES = 'VALUES ($1, $2, $3)';
/**
 * The same row, selected beside `set_config('synchronous_commit', 'off', true)`: the statement's
 * own transaction then commits without waiting for its WAL record to reach the disk.
 */
const UPSERT_VALUES_ASYNC_COMMIT =
  "SELECT $1::varchar, $2::integer, $3::bigint FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit";

/**
 * The pool as `rate-limiter-flexible` sees it, with its counter upserts committed asynchronously
 * (`synchronous_commit` off for that statement's transaction only). A request that adds to a
 * counter waits for the statement, no longer for a disk flush of it: a crash of the database
 * server may forget the last fraction of a second of additions, which a rate limit or a login
 * throttle can afford (a quota, counted elsewhere, cannot). Every other statement, and every
 * other user of the pool, keeps synchronous commits; the answer and the atomicity of the
 * `INSERT … ON CONFLICT` are unchanged.
 */
function asynchronousCommits(pool: Pick<Database, 'pool'>['pool']) {
  return {
    query(query: { text: string; values?: unknown[]; name?: string }) {
      if (!query.name?.includes('rlflx-upsert') || !query.text.includes(UPSERT_VALUES)) {
        return pool.query(query);
      }
      return pool.query({
        ...query,
        name: `${query.name}:async-commit`,
        text: query.text.replace(UPSERT_VALUES, UPSERT_VALUES_ASYNC_COMMIT),
      });
    },
  };
}

/**
 * Creates a {@link SharedCounter} over the store's `rate_limits` table (migration 0006) on either
 * engine. A key of other than printable ASCII, or longer than 200 characters, is counted under its
 * SHA-256 (the column holds 255 characters, and PostgreSQL text cannot hold NUL).
 *
 * @throws {StoreError} `invalid_input` for a malformed `keyPrefix` or non-positive numbers.
 * @example
 * ```ts
 * const failures = createSharedCounter(database, { keyPrefix: 'login', points: 5, durationSeconds: 900 });
 * const { consumed, msBeforeReset } = await failures.add(`${ip}|${email}`);
 * ```
 */
export function createSharedCounter(
  database: Pick<Database, 'pool' | 'schema'>,
  options: SharedCounterOptions,
): SharedCounter {
  if (!KEY_PREFIX.test(options.keyPrefix)) {
    throw new StoreError('invalid_input', `keyPrefix must match ${KEY_PREFIX}`);
  }
  if (!(options.durationSeconds > 0) || !(options.points > 0)) {
    throw new StoreError('invalid_input', 'durationSeconds and points must be positive');
  }
  const limiter = new RateLimiterPostgres({
    storeClient: asynchronousCommits(database.pool),
    storeType: 'pool',
    tableName: 'rate_limits',
    ...(database.schema ? { schemaName: database.schema } : {}),
    tableCreated: true,
    // Expired rows are removed by the limiter hourly (a `delete … where expire < now - 1 h`).
    clearExpiredByTimeout: true,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
  });
  const state = (res: { consumedPoints: number; msBeforeNext: number } | null): CounterState =>
    res === null
      ? { consumed: 0, msBeforeReset: 0 }
      : { consumed: res.consumedPoints, msBeforeReset: Math.max(0, res.msBeforeNext) };
  return {
    add: async (key, points = 1) => state(await limiter.penalty(storedKey(key), points)),
    peek: async (key) => state(await limiter.get(storedKey(key))),
    reset: async (key) => {
      await limiter.delete(storedKey(key));
    },
  };
}
