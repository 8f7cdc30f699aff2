import type { FastifyInstance } from 'fastify';
import { ApiError, PROBLEM_CONTENT_TYPE, toProblem } from '../../problem.js';

const pathOf = (url: string): string => url.split('?')[0] ?? url;

/**
 * The one place errors become HTTP answers: every thrown error and every unknown route is
 * answered as problem+json ({@link toProblem}); unexpected errors are logged with their stack,
 * which never reaches the client.
 */
export function registerProblemHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const answer = toProblem(error, pathOf(request.url));
    if (answer.unexpected) request.log.error({ err: error }, 'unexpected error');
    else if (answer.status >= 500) request.log.warn({ err: error }, 'upstream error');
    reply.code(answer.status).headers(answer.headers).type(PROBLEM_CONTENT_TYPE);
    return reply.send(answer.body);
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError('not_found', `No route ${request.method} ${pathOf(request.url)}.`);
    const answer = toProblem(error, pathOf(request.url));
    return reply.code(answer.status).type(PROBLEM_CONTENT_TYPE).send(answer.body);
  });
}
