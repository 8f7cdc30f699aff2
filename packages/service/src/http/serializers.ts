import type { FastifySerializerCompiler } from 'fastify';

// biome-ignore lint/suspicious/noExplicitAny: Fastify's own type for a serializer of any schema
type SerializerCompiler = FastifySerializerCompiler<any>;

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
  return (route) =>
    String(route.httpStatus).startsWith('2') ? (data) => JSON.stringify(data) : checked(route);
}
