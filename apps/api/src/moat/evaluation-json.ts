import type { ServedEvaluation } from '@svc/schemas';
import { LRUCache } from 'lru-cache';
import { StockEvaluation } from '../schemas/moat.js';

/** Default number of serialized cached evaluations kept (about 8 kB each). */
export const DEFAULT_EVALUATION_JSON_ENTRIES = 1_000;

/** Turns a served evaluation into its UTF-8 JSON answer; see {@link createEvaluationJson}. */
export type EvaluationJson = (served: ServedEvaluation) => Buffer;

/**
 * The JSON body of `GET /api/stock-evaluation`, checked against the route's response schema
 * ({@link StockEvaluation}, the same check the zod serializer makes) and serialized once per
 * cached row: a cache hit is identified by its symbol and `_cachedAt` (the instant the row was
 * stored), so repeated hits reuse the bytes instead of encoding about 8 kB each time (the body
 * is kept as UTF-8 bytes: evaluations carry non-ASCII text such as "≥" and "—", and a string
 * would be re-encoded on every write). Fresh answers (`_cached: false`) are checked and
 * serialized every time.
 *
 * @throws ZodError when an evaluation does not match the response schema (a 500, as with the
 *   serializer).
 * @example
 * const toJson = createEvaluationJson();
 * reply.type('application/json; charset=utf-8').send(toJson(served));
 */
export function createEvaluationJson(maxEntries = DEFAULT_EVALUATION_JSON_ENTRIES): EvaluationJson {
  const bodies = new LRUCache<string, Buffer>({ max: maxEntries });
  const serialize = (served: ServedEvaluation) =>
    Buffer.from(JSON.stringify(StockEvaluation.encode(served)), 'utf8');
  return (served) => {
    if (!served._cached) return serialize(served);
    const key = `${served.symbol}\u0000${served._cachedAt}`;
    let body = bodies.get(key);
    if (body === undefined) {
      body = serialize(served);
      bodies.set(key, body);
    }
    return body;
  };
}
