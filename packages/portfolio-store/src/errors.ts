/**
 * Codes of {@link StoreError}:
 * - `conflict`: a unique constraint was violated (an e-mail already registered, a duplicate token hash).
 * - `not_found`: the row does not exist or does not belong to the user (the two are not told apart).
 * - `invalid_input`: an argument the store cannot use (a bad cursor, a page `limit` above 100,
 *   a malformed schema name, a value the database rejected as out of range or malformed).
 * - `migration_failed`: a migration failed; `cause` carries the database error.
 * - `locked`: the embedded database folder is in use by another process (or another open
 *   database in this one); one owner at a time.
 */
export type StoreErrorCode =
  | 'conflict'
  | 'not_found'
  | 'invalid_input'
  | 'migration_failed'
  | 'locked';

/**
 * The one error class of `@svc/portfolio-store`. Database errors that are not mapped to a code are
 * rethrown unchanged.
 *
 * @example
 * ```ts
 * try { await repos.users.create({ email }) }
 * catch (error) { if (error instanceof StoreError && error.code === 'conflict') reply.code(409) }
 * ```
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  /** A stable code, see {@link StoreErrorCode}. */
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** PostgreSQL SQLSTATE codes the store maps (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';
const INVALID_INPUT_CLASSES = ['22', '23'];

function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && code.length === 5 ? code : undefined;
}

/**
 * Maps a database error to a {@link StoreError}: unique violations to `conflict`, other data
 * exceptions (class 22) and integrity violations (class 23) to `invalid_input`. Anything else is
 * returned unchanged.
 */
export function toStoreError(error: unknown, what: string): unknown {
  const state = sqlState(error);
  if (state === undefined) return error;
  if (state === UNIQUE_VIOLATION) {
    return new StoreError('conflict', `${what}: already exists`, { cause: error });
  }
  if (INVALID_INPUT_CLASSES.includes(state.slice(0, 2))) {
    return new StoreError('invalid_input', `${what}: rejected by the database`, { cause: error });
  }
  return error;
}

/**
 * SQLSTATEs that mean "the database cannot serve now, try again": class 08 (connection
 * exception), 53300 (too many connections), 57P01–57P03 (terminated by an administrator, a
 * crash shutdown, not accepting connections yet) and 57014 (statement cancelled, as by
 * `statement_timeout`). Source: https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const UNAVAILABLE_STATES = ['53300', '57P01', '57P02', '57P03', '57014'];

/** Node socket errors of a server that is down or unreachable. */
const UNAVAILABLE_ERRNOS = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
];

/** Messages node-postgres and pg-pool give for a connection lost or never obtained. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

function unavailableHere(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_ERRNOS.includes(code)) return true;
  const state = sqlState(error);
  if (state !== undefined) return state.startsWith('08') || UNAVAILABLE_STATES.includes(state);
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message));
}

/**
 * Whether `error` (or an error in its `cause` chain, or one of an `AggregateError`'s errors) says
 * that the PostgreSQL server is down, restarting, unreachable, out of connections or too slow
 * (a connection or statement timeout), as opposed to a bad query or bad data. Such errors are
 * transient: the pool reconnects by itself when the server is back, so callers answer "try again
 * later" (HTTP 503) rather than failing hard.
 *
 * @example
 * ```ts
 * catch (error) { if (isDatabaseUnavailable(error)) reply.code(503).header('retry-after', '5') }
 * ```
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    if (unavailableHere(next)) return true;
    pending.push((next as { cause?: unknown }).cause);
    if (next instanceof AggregateError) pending.push(...next.errors);
  }
  return false;
}
