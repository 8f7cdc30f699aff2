import pRetry, { AbortError } from 'p-retry';
import pThrottle from 'p-throttle';
import { FundamentalsError } from '../errors.js';

/** A `fetch`-compatible function (the global one, or a test double). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Options of {@link createJsonClient}. */
export interface JsonClientOptions {
  readonly userAgent: string;
  readonly fetch: FetchLike;
  /** Requests started per rolling second, retries included. */
  readonly maxRequestsPerSecond: number;
  /** Per-attempt timeout, milliseconds. */
  readonly timeoutMs: number;
  /** Retries after the first attempt, on 429, 5xx, network errors and timeouts. */
  readonly retries: number;
  /** First backoff delay, milliseconds; doubles per retry. */
  readonly retryMinTimeoutMs: number;
  /**
   * Awaited before every attempt, after the per-process throttle: a budget shared with other
   * processes (SEC's 10 requests a second in total, see `takeSecSlot` of `@svc/portfolio-store`).
   */
  readonly acquire?: (signal?: AbortSignal) => Promise<void>;
}

/** Outcome of a text GET: the body, or the status of an answer that says "not there (yet)". */
export type TextResult =
  | { readonly found: true; readonly text: string }
  | { readonly found: false; readonly status: number };

/** GETs text documents politely, as {@link JsonClient} does JSON. */
export type TextClient = (url: string, signal?: AbortSignal) => Promise<TextResult>;

/** Outcome of a GET: the parsed JSON, or `not_found` for a 404. */
export type JsonResult =
  | { readonly found: true; readonly json: unknown }
  | { readonly found: false };

/** GETs JSON documents politely: rate-limited, retried with backoff, each attempt timed out. */
export type JsonClient = (url: string, signal?: AbortSignal) => Promise<JsonResult>;

class RetryableHttpError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryableHttpError';
  }
}

/**
 * Creates a {@link JsonClient}: every attempt passes a strict rolling-window throttle (p-throttle),
 * failures on 429, 5xx, network errors and timeouts are retried with exponential backoff
 * (p-retry), 404 answers `{ found: false }`, other 4xx fail at once.
 *
 * @throws {FundamentalsError} from the client: `upstream_unavailable` after the retries or on an
 *   unexpected status, `parse_failed` when the body is not JSON. A caller abort rejects with the
 *   signal's reason.
 */
export function createJsonClient(options: JsonClientOptions): JsonClient {
  const get = createGetClient(options, [404], 'application/json');
  return async (url, signal) => {
    const result = await get(url, signal);
    if (!result.found) return { found: false };
    try {
      return { found: true, json: JSON.parse(result.text) };
    } catch (error) {
      throw new FundamentalsError('parse_failed', `${url} did not answer JSON`, { cause: error });
    }
  };
}

/**
 * Creates a {@link TextClient} as {@link createJsonClient} does (throttle, shared budget,
 * retries, timeouts); an answer whose status is in `missing` is `{ found: false, status }`.
 */
export function createTextClient(
  options: JsonClientOptions & { readonly missing: readonly number[] },
): TextClient {
  return createGetClient(options, options.missing, 'text/plain, */*');
}

function createGetClient(
  options: JsonClientOptions,
  missing: readonly number[],
  accept: string,
): TextClient {
  const throttle = pThrottle({ limit: options.maxRequestsPerSecond, interval: 1000, strict: true });
  const throttledFetch = throttle(async (url: string, init: RequestInit) => {
    await options.acquire?.(init.signal ?? undefined);
    return options.fetch(url, init);
  });
  return async (url, signal) => {
    try {
      return await pRetry(() => attempt(url, signal), {
        retries: options.retries,
        minTimeout: options.retryMinTimeoutMs,
        factor: 2,
        randomize: true,
        signal,
        shouldRetry: ({ error }) => error instanceof RetryableHttpError,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof FundamentalsError) throw error;
      throw new FundamentalsError(
        'upstream_unavailable',
        `GET ${url} failed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  };

  async function attempt(url: string, signal: AbortSignal | undefined): Promise<TextResult> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await throttledFetch(url, {
        headers: { 'User-Agent': options.userAgent, Accept: accept },
        signal: combined,
      });
      if (missing.includes(response.status)) {
        await response.body?.cancel();
        return { found: false, status: response.status };
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel();
        throw new RetryableHttpError(`HTTP ${response.status} from ${url}`);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new AbortError(
          new FundamentalsError('upstream_unavailable', `HTTP ${response.status} from ${url}`),
        );
      }
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw new AbortError(signal.reason as Error);
      if (error instanceof RetryableHttpError || error instanceof AbortError) throw error;
      const reason = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : 'network error';
      throw new RetryableHttpError(`GET ${url}: ${reason}`, { cause: error });
    }
    return { found: true, text };
  }
}
