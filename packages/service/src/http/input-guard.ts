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

const refuse = (bad: BadText): UseCaseError =>
  new UseCaseError('validation_failed', `The request holds text that is refused: ${bad.message}.`, {
    errors: [bad],
  });

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Hostile text refused at the boundary, before any route or store sees it (400
 * `validation_failed` with the field): NUL characters (PostgreSQL cannot store them in `text`,
 * SQLSTATE 22021), lone surrogates, and bytes that are not UTF-8, in the query string, the path
 * parameters and JSON bodies (keys included), for REST routes and the MCP endpoint alike.
 * JSON bodies are decoded strictly (a body that is not UTF-8 is refused, not patched with U+FFFD)
 * and then parsed by Fastify's own parser, prototype-poisoning protection included.
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

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!queryDecodes(request.url)) throw refuse({ path: 'querystring', message: UTF8_MESSAGE });
  });

  app.addHook('preValidation', async (request: FastifyRequest) => {
    const bad =
      findBadText(request.params, 'params') ??
      findBadText(request.query, 'querystring') ??
      findBadText(request.body, 'body');
    if (bad !== undefined) throw refuse(bad);
  });
}
