import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemBody } from '@svc/schemas';
import { UseCaseError } from '@svc/use-cases';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from './problem.js';

const pathOf = (url: string): string => url.split('?')[0] ?? url;

/** The methods a route of this app may have, in the order `Allow` lists them. */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Seconds a client is asked to wait before retrying a request refused during shutdown. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 1;

/** Options of {@link registerProblemHandler}. */
export interface ProblemHandlerOptions {
  /**
   * `WWW-Authenticate` of a 401 that set none itself (the REST app's session challenge); unset,
   * 401 answers carry only what their guard set (the PAT guard's `Bearer`).
   */
  readonly challenge?: string;
  /** Log line of an unexpected error; default `unexpected error`. */
  readonly unexpectedMessage?: string;
}

/**
 * The one place errors become HTTP answers, for both servers: every thrown error and every unknown
 * route is answered as problem+json ({@link toProblem}); every 401 carries `WWW-Authenticate`
 * (`options.challenge` unless the answer set its own); unexpected errors are logged with their
 * stack, which never reaches the client. Requests that arrive once the server is closing (on a
 * keep-alive connection) answer 503 `upstream_unavailable` with `Retry-After` and
 * `Connection: close`, so a load balancer sends them elsewhere; requests already in flight finish.
 * Fastify's own early errors are answered by {@link frameworkErrorHandler} and
 * {@link clientErrorHandler}, passed to the Fastify factory.
 */
export function registerProblemHandler(
  app: FastifyInstance,
  options: ProblemHandlerOptions = {},
): void {
  const { challenge } = options;
  app.setErrorHandler((error, request, reply) => {
    const answer = toProblem(error, pathOf(request.url));
    if (answer.unexpected)
      request.log.error({ err: error }, options.unexpectedMessage ?? 'unexpected error');
    else if (answer.status >= 500) request.log.warn({ err: error }, 'upstream error');
    reply.code(answer.status).headers(answer.headers).type(PROBLEM_CONTENT_TYPE);
    return reply.send(answer.body);
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new UseCaseError(
      'not_found',
      `No route ${request.method} ${pathOf(request.url)}.`,
    );
    const answer = toProblem(error, pathOf(request.url));
    return reply.code(answer.status).type(PROBLEM_CONTENT_TYPE).send(answer.body);
  });
  if (challenge !== undefined) {
    app.addHook('onSend', async (_request, reply) => {
      if (reply.statusCode === 401 && !reply.hasHeader('www-authenticate')) {
        reply.header('www-authenticate', challenge);
      }
    });
  }

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (!closing) return;
    throw new UseCaseError('upstream_unavailable', 'The server is shutting down; try again.', {
      retryAfterSeconds: SHUTDOWN_RETRY_AFTER_SECONDS,
      headers: { connection: 'close' },
    });
  });
}

/**
 * 405 `method_not_allowed` with `Allow` for a path this app has, asked with a method it does not
 * have (RFC 9110 §15.5.6), checked before any body is read (a `QUERY` without Content-Type would
 * otherwise answer 400). Other unknown routes go on to the not-found handler (404). Register it
 * after the hooks every answer needs (request id, metrics).
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!request.is404) return;
    const path = pathOf(request.url);
    const allowed = ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length === 0) return;
    throw new UseCaseError('method_not_allowed', `${request.method} is not a method of ${path}.`, {
      headers: { allow: allowed.join(', ') },
    });
  });
}

/**
 * Fastify's `frameworkErrors` option: errors raised before routing (a URL that does not decode,
 * `FST_ERR_BAD_URL`; a path parameter longer than `maxParamLength`, 414) answered as
 * problem+json instead of Fastify's own JSON.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const answer = toProblem(error, pathOf(request.url));
  reply.code(answer.status).headers(answer.headers).type(PROBLEM_CONTENT_TYPE);
  reply.send(JSON.stringify(answer.body));
}

/** Status and detail of the HTTP parser errors Fastify answers itself. */
function clientErrorAnswer(code: string | undefined): { status: number; detail: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'The request was not received in time.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'The request headers are too large.' };
    case 'HPE_URI_TOO_LONG':
      return { status: 414, detail: 'The request URL is too long.' };
    default:
      return { status: 400, detail: 'The request is not valid HTTP.' };
  }
}

/**
 * Fastify's `clientErrorHandler` option: a request the HTTP parser refuses (headers too large,
 * malformed, too slow to arrive) is answered on the raw socket as problem+json
 * (`validation_failed`, with the parser's status 400/408/414/431), then the socket is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = clientErrorAnswer(error.code);
  if (socket.writable) {
    const body = JSON.stringify(problemBody('validation_failed', detail, { status }));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
