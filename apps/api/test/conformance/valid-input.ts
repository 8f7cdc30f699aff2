import { generateSync } from 'json-schema-faker';
import { dereference, type OpenApiDocument, type Operation, type Schema } from './operations.js';

/** One request's inputs: path and query values, and the JSON body (undefined: none). */
export interface ValidInput {
  readonly path: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly body?: unknown;
}

/** A small seeded PRNG (mulberry32): the draw's choices, and json-schema-faker's seed, follow fast-check's. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const cache = new WeakMap<Operation, Map<string, Schema>>();

/** The operation's schemas whole (no `$ref`), dereferenced once: `path:id`, `query:x`, `body`. */
export function schemasOf(op: Operation, doc: OpenApiDocument): Map<string, Schema> {
  let schemas = cache.get(op);
  if (!schemas) {
    schemas = new Map<string, Schema>();
    for (const p of op.parameters)
      schemas.set(`${p.in}:${p.name}`, dereference(p.schema, doc) as Schema);
    if (op.body) schemas.set('body', dereference(op.body, doc) as Schema);
    cache.set(op, schemas);
  }
  return schemas;
}

function generate(schema: Schema, random: () => number): unknown {
  return generateSync(schema, {
    seed: Math.floor(random() * 2 ** 31),
    optionalsProbability: 0.5,
    failOnInvalidTypes: false,
    maxItems: 3,
    maxDepth: 8,
  });
}

/**
 * Inputs for `op` generated from its own schemas by json-schema-faker, drawn from `seed`; optional
 * query values sometimes left out. Undefined when the generator could not produce values that the
 * document's validator accepts (a pattern it cannot invert, say): such draws are discarded.
 */
export function validInputFor(
  op: Operation,
  doc: OpenApiDocument,
  seed: number,
): ValidInput | undefined {
  const random = seeded(seed);
  const schemas = schemasOf(op, doc);
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const parameter of op.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    if (!parameter.required && random() < 0.5) continue;
    const schema = schemas.get(`${parameter.in}:${parameter.name}`) ?? {};
    const value = generate(schema, random);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (!op.validParameter(parameter.name, text)) return undefined;
    if (parameter.in === 'path' && ['', '.', '..'].includes(text)) return undefined;
    (parameter.in === 'path' ? path : query)[parameter.name] = text;
  }
  if (!op.body) return { path, query };
  if (!op.bodyRequired && random() < 0.2) return { path, query };
  const body = generate(schemas.get('body') ?? {}, random);
  return op.validBody(body) ? { path, query, body } : undefined;
}
