import type { FastifySerializerCompiler } from 'fastify';

// biome-ignore lint/suspicious/noExplicitAny: Fastify's own type for a serializer of any schema
type SerializerCompiler = FastifySerializerCompiler<any>;

/**
 * The UTF-8 JSON bodies of frozen answers, per answer object: a flow that serves the same frozen
 * object again (a memoised read of `@svc/use-cases`: holdings, cash, a transactions page; a
 * cached evaluation) is neither serialized nor encoded again. A frozen answer cannot change (the
 * flows freeze theirs deep, `freezeAnswer`), so its body stays true; an entry goes with its
 * object. The REST side of the read path's one rule: bytes made once per frozen answer.
 */
const frozenBodies = new WeakMap<object, Buffer>();

/**
 * The UTF-8 JSON body of an answer: `serialize(data)` as bytes, made once per frozen object or
 * array and reused ({@link frozenBodies}); an answer that is not frozen is serialized every time.
 * One answer object has one body: a route that checks or encodes its answer first passes that
 * as `serialize` (e.g. through its response schema), always the same for its answers.
 *
 * @example
 * reply.type('application/json; charset=utf-8').send(jsonBody(served, (s) => JSON.stringify(Schema.encode(s))));
 */
export function jsonBody(
  data: unknown,
  serialize: (data: never) => string = JSON.stringify,
): Buffer {
  const make = serialize as (data: unknown) => string;
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) {
    return Buffer.from(make(data), 'utf8');
  }
  let body = frozenBodies.get(data);
  if (body === undefined) {
    body = Buffer.from(make(data), 'utf8');
    frozenBodies.set(data, body);
  }
  return body;
}

/**
 * The body of a 2xx answer: `JSON.stringify(data)`, or, for a frozen object or array, those same
 * characters as UTF-8 bytes, made once per object and reused ({@link jsonBody}). Fastify writes
 * a `Buffer` payload as it is (as `reply.send(buffer)` does), so a body served again costs
 * neither the serialization nor the encoding nor the length count of the text (a holdings answer
 * of 3,400 rows is 1.4 MB); the serializer's type says string, hence the cast.
 */
function jsonBodyOf(data: unknown): string {
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) {
    return JSON.stringify(data);
  }
  return jsonBody(data) as unknown as string;
}

/**
 * A Fastify `serializerCompiler` for a route whose success answer is built by a use-case mapper
 * that already answers exactly the response schema (e.g. `toHolding`, `decodeTransaction`): a 2xx
 * answer is written with `JSON.stringify`, without encoding it through the schema again; every
 * other status (the problems) goes through `checked`, the app's own serializer, as before. The
 * schema still describes the route in OpenAPI. The app's default (`fastify-type-provider-zod`)
 * encodes every answer through its zod schema first, which for a list of 34 holdings or a page of
 * 50 transactions cost more server CPU than the rest of the request; the mappers' output is held
 * to the schemas by tests instead (a strict parse of what they return).
 *
 * A frozen answer (the memoised reads of `@svc/use-cases` answer the same deep-frozen object
 * while its rows are unchanged) is serialized once: its UTF-8 bytes are kept per object and
 * written again, the same bytes as `JSON.stringify` of it. Never freeze an answer only at the
 * top while its parts may still change.
 *
 * @example
 * app.get('/holdings', { serializerCompiler: mapperAnswers(serializerCompiler), schema, handler });
 */
export function mapperAnswers(checked: SerializerCompiler): SerializerCompiler {
  return (route) => (String(route.httpStatus).startsWith('2') ? jsonBodyOf : checked(route));
}
