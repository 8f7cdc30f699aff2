import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import type { AppConfig } from '../config.js';
import { createLogger, REQUEST_ID_OPTIONS } from './logging.js';
import { clientErrorHandler, frameworkErrorHandler } from './problem-handler.js';

/** Milliseconds between Node's checks of request and header timeouts on open connections. */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/**
 * Fastify server options for timeouts (milliseconds). `requestTimeout` bounds receiving a request,
 * headers and body (not streaming a response, so SSE answers are unaffected): a client that sends
 * too slowly gets 408 problem+json and the socket is closed. Node enforces it only when
 * `headersTimeout` is not longer (Fastify sets `requestTimeout` after creating the server, leaving
 * `headersTimeout` at 60 s, which let a slow body hold a connection for over a minute), and checks
 * every `connectionsCheckingInterval` (30 s by default; 1 s here). Keep-alive outlives common
 * proxy idle timeouts (60 s).
 *
 * @example
 * const app = await buildApp(deps, { server: serverTimeouts(30_000) });
 */
export function serverTimeouts(requestTimeoutMs = 30_000) {
  return {
    connectionTimeout: 0,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: 72_000,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    },
  } as const;
}

/** {@link serverTimeouts} of the running servers: 30 s to receive a request. */
export const SERVER_TIMEOUTS = serverTimeouts();

/**
 * Largest request line plus headers, bytes (64 KiB; Node's default is 16 KiB). A query value
 * within its documented `maxLength` (`mapping` 4,000 and `tags` 2,000 characters) may take 12
 * bytes a character once UTF-8 is percent-encoded; this leaves room for it and 16 KiB of other
 * headers, so such a request is never refused with 431.
 */
export const MAX_HEADER_BYTES = 65_536;

/**
 * Longest path parameter, characters as sent (Fastify's default is 100, beyond which it answers
 * 414): a docs section name of 64 characters, each up to 12 once percent-encoded, fits.
 */
export const MAX_PARAM_LENGTH = 1_024;

/** Largest accepted request body, in bytes (1 MiB); beyond: 413 `payload_too_large`. */
export const BODY_LIMIT_BYTES = 1_048_576;

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Fastify logger option; default `createLogger(config)` (redaction, format). Tests pass `false`. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Extra Fastify server options (timeouts, `loggerInstance`, …), laid over the defaults. */
  readonly server?: Omit<FastifyServerOptions, 'logger'> & { loggerInstance?: FastifyBaseLogger };
}

const httpOptionsOf = (server: ServerOptions['server']): object =>
  (server as { http?: object } | undefined)?.http ?? {};

/**
 * The Fastify instance both servers start from: the service's logger (`createLogger`: `LOG_LEVEL`,
 * `LOG_FORMAT`, credentials redacted) unless `options` give one, request ids
 * (`REQUEST_ID_OPTIONS`), a 1 MiB body limit, `TRUST_PROXY`, Fastify's own early answers as
 * problem+json (bad URL, 414, 431, 408: `frameworkErrorHandler`, `clientErrorHandler`), path
 * parameters up to {@link MAX_PARAM_LENGTH} and headers up to {@link MAX_HEADER_BYTES}; requests
 * arriving while it closes are answered by `registerRequestHooks` (503), not by Fastify.
 * Timeouts are the caller's (`SERVER_TIMEOUTS` in `startServer`; none in tests unless given).
 *
 * @example
 * const app = createServer(config, { logger: false });
 */
export function createServer(config: AppConfig, options: ServerOptions = {}): FastifyInstance {
  const logging = options.server?.loggerInstance
    ? {}
    : options.logger === undefined
      ? { loggerInstance: createLogger(config) }
      : { logger: options.logger };
  return Fastify({
    ...logging,
    ...REQUEST_ID_OPTIONS,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ...options.server,
    http: { maxHeaderSize: MAX_HEADER_BYTES, ...httpOptionsOf(options.server) },
  }) as unknown as FastifyInstance; // pino's Logger is a FastifyBaseLogger
}
