import type { Schema } from './operations.js';

/**
 * Values that break a JSON Schema, as schema-driven fuzzers make negative data: each candidate
 * targets one keyword (type, bounds, pattern, enum, format, required, unknown properties). The
 * caller keeps only those its validator really rejects.
 */
export function invalidValuesFor(schema: Schema | undefined): unknown[] {
  if (schema === undefined) return [];
  const out: unknown[] = [];
  const type = schema.type;
  const enumValues = (schema.enum ?? (schema.const === undefined ? undefined : [schema.const])) as
    | unknown[]
    | undefined;
  if (enumValues) out.push('zz-not-listed', 12_345);
  if (type === 'string' || type === undefined) {
    if (typeof schema.maxLength === 'number') out.push('a'.repeat(schema.maxLength + 1));
    if (typeof schema.minLength === 'number' && schema.minLength > 0) {
      out.push('a'.repeat(schema.minLength - 1));
    }
    if (typeof schema.pattern === 'string' || typeof schema.format === 'string') {
      out.push(
        '',
        ' ',
        '-1',
        '0',
        '!!',
        'a b',
        '..',
        'x@example-.com',
        '2024-13-45',
        'é'.repeat(3),
      );
    }
    out.push(42, true, null, ['a']);
  }
  if (type === 'integer' || type === 'number') {
    if (typeof schema.minimum === 'number') out.push(schema.minimum - 1);
    if (typeof schema.maximum === 'number') out.push(schema.maximum + 1);
    if (typeof schema.exclusiveMinimum === 'number') out.push(schema.exclusiveMinimum);
    if (type === 'integer') out.push(1.5);
    out.push('not-a-number', null);
  }
  if (type === 'boolean') out.push('yes', 2);
  if (type === 'array') {
    if (typeof schema.maxItems === 'number') out.push(Array(schema.maxItems + 1).fill('a'));
    out.push('not-an-array', {});
  }
  if (type === 'object') {
    out.push([], 'not-an-object', 7);
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required ?? []) as string[];
    for (const name of required) out.push(withoutKey(schema, name));
    if (schema.additionalProperties === false) out.push({ ...exampleOf(schema), zzUnknown: 1 });
    for (const [name, property] of Object.entries(properties)) {
      for (const bad of invalidValuesFor(property).slice(0, 4)) {
        out.push({ ...exampleOf(schema), [name]: bad });
      }
    }
  }
  return out;
}

/** A rough object of the required properties' placeholder values (the rest is judged by ajv). */
function exampleOf(schema: Schema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  return Object.fromEntries(required.map((name) => [name, placeholder(properties[name])]));
}

function withoutKey(schema: Schema, key: string): Record<string, unknown> {
  const { [key]: _removed, ...rest } = exampleOf(schema);
  return rest;
}

function placeholder(schema: Schema | undefined): unknown {
  if (schema?.const !== undefined) return schema.const;
  if (Array.isArray(schema?.enum)) return schema.enum[0];
  switch (schema?.type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'a';
  }
}
