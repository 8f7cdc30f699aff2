import { UseCaseError } from '@svc/use-cases';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refusedUrlText } from './input-guard.js';
import { REQUEST_ID_HEADER } from './logging.js';
import { pathOf } from './problem-handler.js';

/** The methods a route of this app may have, in the order `Allow` lists them. */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Seconds a client is asked to wait before retrying a request refused during shutdown. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 1;

/**
 * 405 `method_not_allowed` with `Allow` when `request` matched no route but its path is one of
 * this app's, asked with a method it does not have (RFC 9110 §15.5.6); `undefined` otherwise
 * (the not-found handler answers 404).
 */
function methodNotAllowed(app: FastifyInstance, request: FastifyRequest): UseCaseError | undefined {
  const path = pathOf(request.url);
  const allowed = ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
  if (allowed.length === 0) return undefined;
  return new UseCaseError('method_not_allowed', `${request.method} is not a method of ${path}.`, {
    headers: { allow: allowed.join(', ') },
  });
}

/**
 * The checks every request of both servers goes through, as ONE `onRequest` hook, in this order:
 *
 * 1. `X-Request-Id` is echoed (the caller's when well-formed, else the generated one; see
 *    `REQUEST_ID_OPTIONS`), so every answer carries it, errors and 404 included;
 * 2. once the server is closing (`preClose`), a request that still arrives on a keep-alive
 *    connection answers 503 `upstream_unavailable` with `Retry-After: 1` and `Connection: close`,
 *    so a load balancer sends it elsewhere; requests already in flight finish;
 * 3. the query string must decode to UTF-8, and the query and path parameters must hold no NUL or
 *    lone surrogate (400 `validation_failed` naming the field; `refusedUrlText` of the input
 *    guard, whose body half is `registerInputGuard`);
 * 4. a request that matched no route, on a path this app has, answers 405 `method_not_allowed`
 *    with `Allow`, before any body is read (a `QUERY` without Content-Type would otherwise
 *    answer 400); other unknown routes go on to the not-found handler (404).
 *
 * Why one hook: Fastify runs each hook through its hook runner, which cost about 1.5 µs of server
 * CPU per hook per request on the 2-vCPU bench machine whatever the hook did, sync or async
 * (issue 22: the four separate hooks these were, with the input guard's `preValidation` and the
 * 401 challenge's `onSend`, were about 15% of a cached evaluation's CPU). Register it first,
 * before the routes; errors go to the app's error handler (`registerProblemHandler`).
 */
export function registerRequestHooks(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook(
    'onRequest',
    (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      if (closing) {
        done(
          new UseCaseError('upstream_unavailable', 'The server is shutting down; try again.', {
            retryAfterSeconds: SHUTDOWN_RETRY_AFTER_SECONDS,
            headers: { connection: 'close' },
          }),
        );
        return;
      }
      done(refusedUrlText(request) ?? (request.is404 ? methodNotAllowed(app, request) : undefined));
    },
  );
}
