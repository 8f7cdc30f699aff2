import { z } from 'zod';

/** A JSON Schema document as `tools/list` carries it. */
export type JsonSchemaObject = { [keyword: string]: unknown };

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value is one subschema (`items` may also be an array of them, draft-07). */
const SCHEMA_SINGLES = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'additionalItems',
];
/** Keywords that may be a bare boolean instead of a schema. */
const BOOLEAN_ALLOWED = new Set(['additionalProperties', 'additionalItems']);

function isObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One schema node made portable (recursively):
 * - `type: ["number", "null"]` (zod 4 compacts `nullable()` that way) becomes
 *   `anyOf: [{ type: "number" }, { type: "null" }]`, since single-`type` dialects (the OpenAPI
 *   subset of Gemini function declarations, for one) reject or drop a `type` array;
 * - `additionalProperties: {}` (zod's loose objects) becomes `additionalProperties: true`, the same
 *   contract spelled as a boolean instead of a schema that constrains nothing.
 */
function portableNode(node: unknown, keyword: string | undefined): unknown {
  if (!isObject(node)) return node;
  const out: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, portableNode(sub, key)]),
      );
    } else if (SCHEMA_ARRAYS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => portableNode(sub, key));
    } else if (key === 'items' && Array.isArray(value)) {
      out[key] = value.map((sub) => portableNode(sub, key));
    } else if (SCHEMA_SINGLES.includes(key)) {
      out[key] = portableNode(value, key);
    } else {
      out[key] = value;
    }
  }
  if (Array.isArray(out.type) && out.anyOf === undefined) {
    out.anyOf = out.type.map((type) => ({ type }));
    delete out.type;
  }
  if (keyword !== undefined && BOOLEAN_ALLOWED.has(keyword) && Object.keys(out).length === 0) {
    return true;
  }
  return out;
}

/**
 * The JSON Schema (draft-07, as the MCP SDK emits for tools) of a zod schema, in the spelling the
 * MCP Inspector's schema-portability check accepts without warnings: nullable fields as `anyOf`
 * branches with one `type` each, loose objects as `additionalProperties: true`. Named schemas
 * (`.meta({ id })`) stay `$ref`s into `definitions`.
 *
 * @param schema a zod object schema (tool schemas must be `type: "object"` at the top)
 * @param io `input` for an `inputSchema` (what callers may send: defaults optional), `output` for
 *   an `outputSchema` (what the tool answers)
 * @example
 * portableJsonSchema(z.object({ pe: z.number().nullable() }), 'output');
 * // { $schema: …, type: 'object', properties: { pe: { anyOf: [{ type: 'number' }, { type: 'null' }] } }, … }
 */
export function portableJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const json = z.toJSONSchema(schema, { target: 'draft-07', io, unrepresentable: 'any' });
  return portableNode(json, undefined) as JsonSchemaObject;
}
