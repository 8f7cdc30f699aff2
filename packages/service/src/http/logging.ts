import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import pretty from 'pino-pretty';
import { LOG_FORMATS, LOG_LEVELS } from '../config.js';

/** The header a request id is taken from (when well-formed) and echoed in on every answer. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An incoming request id is kept when it is 1–128 characters of `A–Z a–z 0–9 . _ : @ -`. */
const SAFE_REQUEST_ID = /^[\w.:@-]{1,128}$/;

/**
 * The request id of a request: the caller's `X-Request-Id` when well-formed (so a proxy's or
 * client's id follows the request into our logs), else a random UUID. A malformed or oversized
 * header is ignored rather than logged.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Fastify server options for request ids: {@link requestIdOf} as `genReqId` (Fastify's own
 * header reading is off, so the header is validated), logged as `reqId` (Fastify's default label) on every line of
 * `request.log`, which Fastify's request logs and the route handlers use.
 */
export const REQUEST_ID_OPTIONS = {
  requestIdHeader: false,
  genReqId: requestIdOf,
} as const;

/**
 * Paths pino replaces with `[Redacted]` wherever a log line carries them: credentials in
 * headers (cookies, `Authorization` with a session or a PAT, API keys), in bodies (passwords)
 * and in objects (tokens, secrets). Fastify's request logs carry no headers or bodies; these
 * paths protect lines that log them anyway.
 */
export const REDACT_PATHS: readonly string[] = [
  ...['req.headers', 'headers', 'request.headers', 'res.headers', 'reply.headers'].flatMap((at) => [
    `${at}.authorization`,
    `${at}.cookie`,
    `${at}["set-cookie"]`,
    `${at}["proxy-authorization"]`,
    `${at}["x-api-key"]`,
  ]),
  ...[
    'password',
    'newPassword',
    'currentPassword',
    'token',
    'accessToken',
    'refreshToken',
    'idToken',
    'apiKey',
    'secret',
    'clientSecret',
    'sessionSecret',
    'cookie',
    'authorization',
  ].flatMap((key) => [key, `*.${key}`]),
];

/** Query parameters whose values are replaced in logged URLs (OIDC codes, tokens). */
const SECRET_QUERY = /([?&](?:code|state|token|access_token|id_token|api_key|key)=)[^&#]*/gi;

/** A URL as logged: the values of secret query parameters replaced by `[Redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[Redacted]');
}

/** The request as Fastify logs it, with {@link redactUrl}. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Settings of {@link createLogger}. */
export interface LogSettings {
  readonly logLevel: (typeof LOG_LEVELS)[number];
  readonly logFormat: (typeof LOG_FORMATS)[number];
}

/**
 * The log settings of an environment, tolerant of bad values (defaults `info` and `auto`): the
 * logger exists before the configuration is validated, which then reports the bad value.
 */
export function logSettingsOf(env: Record<string, string | undefined>): LogSettings {
  const level = LOG_LEVELS.find((candidate) => candidate === env.LOG_LEVEL) ?? 'info';
  const format = LOG_FORMATS.find((candidate) => candidate === env.LOG_FORMAT) ?? 'auto';
  return { logLevel: level, logFormat: format };
}

/** pino options: level, request/reply/error serializers, {@link REDACT_PATHS}. */
export function loggerOptions(settings: Pick<LogSettings, 'logLevel'>): LoggerOptions {
  return {
    level: settings.logLevel,
    redact: { paths: [...REDACT_PATHS] },
    serializers: {
      req: serializeRequest as never,
      res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
}

/**
 * The service's logger: JSON lines (one object per line, for log shippers), or a readable,
 * coloured log through `pino-pretty` when `LOG_FORMAT=pretty`, or `auto` (the default) and
 * stdout is a terminal (a developer's shell; under a process manager or in a container stdout
 * is not a terminal, so production stays JSON). Redaction applies to both.
 *
 * @param destination where lines go; default stdout (tests pass a stream to read them back).
 * @example
 * const logger = createLogger(logSettingsOf(process.env));
 */
export function createLogger(
  settings: LogSettings,
  destination?: DestinationStream,
  isTerminal = process.stdout.isTTY === true,
): Logger {
  const prettyPrint =
    settings.logFormat === 'pretty' || (settings.logFormat === 'auto' && isTerminal);
  const options = loggerOptions(settings);
  if (!prettyPrint) return destination ? pino(options, destination) : pino(options);
  return pino(
    options,
    pretty({
      colorize: destination === undefined && isTerminal,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      ...(destination ? { destination } : {}),
      sync: true,
    }),
  );
}
