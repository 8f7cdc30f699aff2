import { FundamentalsError } from '@svc/fundamentals-client';
import { MarketDataError } from '@svc/market-data';
import { MoatScoringError } from '@svc/moat-scoring';
import { PortfolioError } from '@svc/portfolio';
import { isDatabaseUnavailable, StoreError } from '@svc/portfolio-store';
import { QuotaError } from '@svc/quota';
import { type ProblemDetails, problemBody, TICKER_SYMBOL_RULE } from '@svc/schemas';
import { UseCaseError } from './errors.js';

// The problem vocabulary (codes, statuses, titles, the body) is `@svc/schemas`' (`PROBLEMS`);
// this module is the one translation table from the packages' errors to it.

/** `StoreError` → 409 / 404 / 400; `migration_failed` and `locked` are deployment errors (500). */
function fromStoreError(error: StoreError): UseCaseError | undefined {
  switch (error.code) {
    case 'conflict':
      return new UseCaseError('conflict', 'The resource exists or changed meanwhile.', {
        cause: error,
      });
    case 'not_found':
      return new UseCaseError('not_found', 'No such resource.', { cause: error });
    case 'invalid_input':
      return new UseCaseError('validation_failed', 'The input was rejected by the store.', {
        cause: error,
      });
    case 'migration_failed':
    case 'locked':
      return undefined;
  }
}

const NO_DATA = 'Insufficient fundamental data to evaluate this symbol.';
const NO_HISTORY =
  'Too few fiscal years had been filed by that date to evaluate this symbol as of it.';
const UPSTREAM = 'The fundamentals data provider is unavailable; try again later.';

/**
 * `FundamentalsError`: `invalid_symbol` → 400 with a `symbol` field error, `insufficient_data`
 * → 404, `insufficient_history` (too few years filed by an `asOf` date) → 422,
 * `upstream_unavailable` / `parse_failed` (the source answered something unreadable) → 503.
 * `invalid_config` is a deployment error (500). Provider messages name server paths and URLs, so
 * the details here are fixed texts.
 */
function fromFundamentalsError(error: FundamentalsError): UseCaseError | undefined {
  switch (error.code) {
    case 'invalid_symbol':
      return new UseCaseError('validation_failed', 'The symbol is not a ticker.', {
        cause: error,
        errors: [{ path: 'symbol', message: TICKER_SYMBOL_RULE }],
      });
    case 'insufficient_data':
      return new UseCaseError('insufficient_data', NO_DATA, { cause: error });
    case 'insufficient_history':
      return new UseCaseError('insufficient_history', NO_HISTORY, { cause: error });
    case 'upstream_unavailable':
    case 'parse_failed':
      return new UseCaseError('upstream_unavailable', UPSTREAM, { cause: error });
    case 'invalid_config':
      return undefined;
  }
}

/**
 * Seconds a client is asked to wait (`Retry-After`) when the database is unavailable: about the
 * time PostgreSQL takes to restart; the pool reconnects by itself on the next request after it.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly.';

const MARKET_UPSTREAM = 'The market data provider is unavailable; try again later.';

/**
 * `MarketDataError` (quotes, FX rates): `upstream_unavailable` / `parse_failed` (the provider
 * answered something unreadable) → 503, `not_found` → 404, `invalid_symbol` → 400 with a
 * `symbol` field error, `invalid_argument` → 400. Provider messages name files and URLs, so the
 * details here are fixed texts.
 */
function fromMarketDataError(error: MarketDataError): UseCaseError {
  switch (error.code) {
    case 'upstream_unavailable':
    case 'parse_failed':
      return new UseCaseError('upstream_unavailable', MARKET_UPSTREAM, { cause: error });
    case 'not_found':
      return new UseCaseError('not_found', 'No market data for this request.', { cause: error });
    case 'invalid_symbol':
      return new UseCaseError('validation_failed', 'The symbol is not a ticker.', {
        cause: error,
        errors: [{ path: 'symbol', message: 'not a plausible ticker symbol' }],
      });
    case 'invalid_argument':
      return new UseCaseError('validation_failed', 'The market data request was malformed.', {
        cause: error,
      });
  }
}

/**
 * `PortfolioError` (a ledger that cannot be derived: a malformed transaction, or a sell of more
 * units than held) → 400 with the domain message on `transaction`.
 */
function fromPortfolioError(error: PortfolioError): UseCaseError {
  return new UseCaseError('validation_failed', error.message, {
    cause: error,
    errors: [{ path: 'transaction', message: error.message }],
  });
}

/**
 * The one translation table from the error classes of the packages to {@link UseCaseError}
 * (a `UseCaseError` is returned as it is):
 * - `StoreError` `conflict` → 409, `not_found` → 404, `invalid_input` → 400;
 * - `QuotaError` `quota_exceeded` → 429 with the quota and `Retry-After`;
 * - `FundamentalsError` `invalid_symbol` → 400 (`errors: [{ path: 'symbol' }]`),
 *   `insufficient_data` → 404 `insufficient_data`, `upstream_unavailable` / `parse_failed` → 503;
 * - `MoatScoringError` `insufficient_data` (fewer than 3 usable fiscal years) → 404
 *   `insufficient_data`;
 * - `MarketDataError` `upstream_unavailable` / `parse_failed` → 503, `not_found` → 404,
 *   `invalid_symbol` / `invalid_argument` → 400;
 * - `PortfolioError` (`invalid_transaction`, `insufficient_quantity`) → 400;
 * - a database that is down, restarting, unreachable or too slow ({@link isDatabaseUnavailable},
 *   wherever it surfaces) → 503 `upstream_unavailable` with `Retry-After`
 *   ({@link DATABASE_RETRY_AFTER_SECONDS}).
 * Other codes of theirs are programming or configuration errors (`undefined`: a 500).
 */
export function toServiceError(error: unknown): UseCaseError | undefined {
  if (error instanceof UseCaseError) return error;
  if (error instanceof StoreError) return fromStoreError(error);
  if (error instanceof FundamentalsError) return fromFundamentalsError(error);
  if (error instanceof MarketDataError) return fromMarketDataError(error);
  if (error instanceof PortfolioError) return fromPortfolioError(error);
  if (error instanceof MoatScoringError && error.code === 'insufficient_data') {
    return new UseCaseError('insufficient_data', NO_DATA, { cause: error });
  }
  if (error instanceof QuotaError && error.code === 'quota_exceeded' && error.denied) {
    const { name, limit, used, resetsAt, retryAfterSeconds } = error.denied;
    return new UseCaseError(
      'quota_exceeded',
      `The ${name} quota of your plan is used up until ${resetsAt}.`,
      {
        cause: error,
        quota: { name, limit, used, resetsAt },
        retryAfterSeconds,
      },
    );
  }
  if (isDatabaseUnavailable(error)) {
    return new UseCaseError('upstream_unavailable', DATABASE_UNAVAILABLE, {
      cause: error,
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    });
  }
  return undefined;
}

/** An error turned into an answer: status, problem body and extra headers. */
export interface ProblemAnswer {
  readonly status: number;
  readonly body: ProblemDetails;
  readonly headers: Readonly<Record<string, string>>;
  /** True when the error was unexpected and must be logged with its stack. */
  readonly unexpected: boolean;
}

/**
 * The mapping of anything a flow threw to a problem, outside any HTTP framework (the MCP server
 * uses it as it is; the REST app first maps its framework's own errors): package errors through
 * {@link toServiceError}, a {@link UseCaseError} keeps its code, anything else is a 500 `internal`
 * whose detail never includes the message or stack of the original error.
 */
export function problemOf(thrown: unknown, instance?: string): ProblemAnswer {
  const error = toServiceError(thrown);
  const extra = instance === undefined ? {} : { instance };
  if (error !== undefined) {
    const { errors, quota, scope, retryAfterSeconds, headers, changes, transactions } =
      error.options;
    return {
      status: error.status,
      body: problemBody(error.code, error.message, {
        ...extra,
        ...(errors ? { errors: [...errors] } : {}),
        ...(quota ? { quota } : {}),
        ...(scope ? { scope } : {}),
        ...(changes ? { changes: [...changes] } : {}),
        ...(transactions ? { transactions: [...transactions] } : {}),
      }),
      headers: { ...withRetryAfter(retryAfterSeconds), ...headers },
      unexpected: error.code === 'internal',
    };
  }
  return {
    status: 500,
    body: problemBody('internal', 'An unexpected error occurred. It has been logged.', extra),
    headers: {},
    unexpected: true,
  };
}

/** The `Retry-After` header for a wait of `seconds` (rounded up, at least 1), or none. */
export function withRetryAfter(seconds: number | undefined): Record<string, string> {
  return seconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(seconds))) };
}
