/**
 * Codes of {@link StoreError}:
 * - `conflict`: a unique constraint was violated (an e-mail already registered, a duplicate token hash).
 * - `not_found`: the row does not exist or does not belong to the user (the two are not told apart).
 * - `invalid_input`: an argument the store cannot use (a bad cursor, a page `limit` above 100,
 *   a malformed schema name, a value the database rejected as out of range or malformed).
 * - `migration_failed`: a migration failed; `cause` carries the database error.
 */
export type StoreErrorCode = 'conflict' | 'not_found' | 'invalid_input' | 'migration_failed';

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
