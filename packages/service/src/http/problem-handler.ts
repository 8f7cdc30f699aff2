import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemBody } from '@svc/schemas';
import { UseCaseError } from '@svc/use-cases';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from './problem.js';

/** The path of a raw URL, without its query string. */
export const pathOf = (url: string): string => url.split('?')[0] ?? url;

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
 * stack, which never reaches the client. The challenge is set here, where the 401 is written,
 * not by an `onSend` hook that every answer would run (issue 22). Fastify's own early errors are answered by {@link frameworkErrorHandler} and
 * {@link clientErrorHandler}, passed to the Fastify factory.
 */
export function registerProblemHandler(
  app: FastifyInstance,
  options: ProblemHandlerOptions = {},
): void {
  const { challenge } = options;
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error, pathOf(request.url));
    const answer =
      (error as { code?: unknown }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? { ...problem, body: { ...problem.body, detail: unsupportedMediaDetail(request) } }
        : problem;
    if (answer.unexpected)
      request.log.error({ err: error }, options.unexpectedMessage ?? 'unexpected error');
    else if (answer.status >= 500) request.log.warn({ err: error }, 'upstream error');
    reply.code(answer.status).headers(answer.headers).type(PROBLEM_CONTENT_TYPE);
    if (answer.status === 401 && challenge !== undefined && !reply.hasHeader('www-authenticate')) {
      reply.header('www-authenticate', challenge);
    }
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
}

/** Body types a route may take, in the order a newcomer should read them. */
const CANDIDATE_TYPES = [
  'application/json',
  'text/csv',
  'multipart/form-data',
  'text/plain',
  'application/x-www-form-urlencoded',
] as const;

/**
 * The detail of a 415: the type sent and the types the route takes (those its instance has a
 * body parser for), with the curl hint when the type is the one `curl -d`/`--data-binary`
 * sends by default.
 */
function unsupportedMediaDetail(request: FastifyRequest): string {
  const sent =
    String(request.headers['content-type'] ?? 'none')
      .split(';')[0]
      ?.trim() || 'none';
  const accepted = CANDIDATE_TYPES.filter((type) => request.server.hasContentTypeParser(type));
  const hint =
    sent === 'application/x-www-form-urlencoded'
      ? ' (curl -d and --data-binary send form data unless told otherwise: add -H "Content-Type: …")'
      : '';
  return `Content-Type ${sent} is not accepted here; send ${accepted.join(', ') || 'no body'}${hint}.`;
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
