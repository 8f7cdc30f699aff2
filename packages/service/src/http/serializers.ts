import type { FastifySerializerCompiler } from 'fastify';

// biome-ignore lint/suspicious/noExplicitAny: Fastify's own type for a serializer of any schema
type SerializerCompiler = FastifySerializerCompiler<any>;

/**
 * JSON texts of frozen answers, per answer object: a flow that serves the same frozen object
 * again (a memoised read of `@svc/use-cases`: holdings, cash, a transactions page) is not
 * serialized again. Frozen objects cannot change, so the text stays true; an entry goes with its
 * object.
 */
const frozenTexts = new WeakMap<object, string>();

/**
 * `JSON.stringify(data)`, kept per object when `data` is a frozen object or array (exactly the
 * same text: it is the first call's). Anything else is serialized every time.
 */
function jsonTextOf(data: unknown): string {
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) {
    return JSON.stringify(data);
  }
  let text = frozenTexts.get(data);
  if (text === undefined) {
    text = JSON.stringify(data);
    frozenTexts.set(data, text);
  }
  return text;
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
 * @example
 * app.get('/holdings', { serializerCompiler: mapperAnswers(serializerCompiler), schema, handler });
 */
export function mapperAnswers(checked: SerializerCompiler): SerializerCompiler {
  return (route) => (String(route.httpStatus).startsWith('2') ? jsonTextOf : checked(route));
}
