import { UseCaseError } from '@svc/use-cases';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A field error of the guard: where the bad text is and what is wrong with it. */
interface BadText {
  readonly path: string;
  readonly message: string;
}

const NUL_MESSAGE = 'must not contain a NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must be well-formed Unicode (no lone surrogate)';
const UTF8_MESSAGE = 'must be valid UTF-8';
/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A `%` escape or a UTF-16 surrogate (paired or not) anywhere in a raw URL. */
const ESCAPE_OR_SURROGATE = /[%\uD800-\uDFFF]/;
/** Nesting depth beyond which a body is not walked further (JSON.parse itself allows more). */
const MAX_DEPTH = 64;

/** What is wrong with one string, if anything: a NUL character or a lone UTF-16 surrogate. */
export function badText(value: string): string | undefined {
  if (value.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  return undefined;
}

/**
 * The first string in `value` (object keys included) that {@link badText} refuses, with its dotted
 * path under `path`; `undefined` when every string is clean.
 */
export function findBadText(value: unknown, path: string, depth = 0): BadText | undefined {
  if (typeof value === 'string') {
    const message = badText(value);
    return message === undefined ? undefined : { path, message };
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return undefined;
  if (Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = badText(key);
    if (keyProblem !== undefined) return { path: `${path}.${key}`, message: keyProblem };
    const found = findBadText(item, `${path}.${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether the query string of a raw URL decodes to valid UTF-8 text: every `%XX` escape well
 * formed and every escaped byte sequence valid UTF-8 (`decodeURIComponent` throws otherwise).
 */
function queryDecodes(url: string): boolean {
  const mark = url.indexOf('?');
  if (mark < 0) return true;
  try {
    decodeURIComponent(url.slice(mark + 1).replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
}

/** The 400 `validation_failed` of refused text, naming the field. */
const refuse = (bad: BadText): UseCaseError =>
  new UseCaseError('validation_failed', `The request holds text that is refused: ${bad.message}.`, {
    errors: [bad],
  });

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The refusal of hostile text in a request's query string or path parameters (both known before
 * any body is read), or `undefined` when they are clean; see {@link registerInputGuard}.
 */
export function refusedUrlText(request: FastifyRequest): UseCaseError | undefined {
  const { url } = request;
  // The query's values and the path parameters are pieces of the raw URL, decoded only at `%`
  // escapes (and `+`): a URL without an escape, a NUL or a surrogate cannot give one (an HTTP
  // request's URL never holds a raw NUL; `inject` may pass any text, hence those two checks).
  // This spares nearly every request the decode and the walk (about 2% of a cached read, issue 37).
  if (!url.includes('\u0000') && !ESCAPE_OR_SURROGATE.test(url)) return undefined;
  if (!queryDecodes(url)) return refuse({ path: 'querystring', message: UTF8_MESSAGE });
  const bad = findBadText(request.params, 'params') ?? findBadText(request.query, 'querystring');
  return bad === undefined ? undefined : refuse(bad);
}

/** Methods whose routes read no body: their requests are checked in `onRequest` alone. */
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Hostile text refused at the boundary, before any route or store sees it (400
 * `validation_failed` with the field): NUL characters (PostgreSQL cannot store them in `text`,
 * SQLSTATE 22021), lone surrogates, and bytes that are not UTF-8, in the query string, the path
 * parameters and bodies (JSON keys included), for REST routes and the MCP endpoint alike.
 * This registers the body half: JSON bodies are decoded strictly (a body that is not UTF-8 is
 * refused, not patched with U+FFFD) and then parsed by Fastify's own parser, prototype-poisoning
 * protection included; every route with a method that takes a body (not GET, HEAD, OPTIONS)
 * gets a `preValidation` hook that walks the parsed body. The query string and the path
 * parameters are checked by {@link refusedUrlText} in the one `onRequest` hook of
 * `registerRequestHooks`, so a GET runs no hook of this guard. Register it before the routes.
 */
export function registerInputGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = fatalUtf8.decode(body as Buffer);
    } catch {
      done(refuse({ path: 'body', message: UTF8_MESSAGE }), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  const checkBody = (request: FastifyRequest, _reply: unknown, done: (error?: Error) => void) => {
    const bad = findBadText(request.body, 'body');
    done(bad === undefined ? undefined : refuse(bad));
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((method) => BODYLESS.has(method))) return;
    const own = route.preValidation;
    route.preValidation = own === undefined ? [checkBody] : [checkBody, ...[own].flat()];
  });
}
