import { invalidValuesFor } from './negative.js';
import type { Schema } from './operations.js';

/** A path into a JSON value: property names and array indexes. */
type Path = readonly (string | number)[];

/** One edit of a valid value: the value at `path` replaced (or, with `remove`, deleted). */
interface Edit {
  readonly path: Path;
  readonly value?: unknown;
  readonly remove?: true;
}

/** An emoji: one code point, two UTF-16 code units (JSON Schema counts it once, as zod 4 does). */
const ASTRAL = '😀';

/**
 * Values at the edges of a (dereferenced) schema that the document allows: each string bound
 * exactly (in ASCII and in astral characters, which JSON Schema counts as one character each),
 * each numeric bound exactly, each array at its largest. The caller keeps those its validator
 * accepts (a pattern may refuse them).
 */
export function edgeValuesFor(schema: Schema): unknown[] {
  const out: unknown[] = [];
  if (typeof schema.maxLength === 'number') {
    out.push('a'.repeat(schema.maxLength), ASTRAL.repeat(schema.maxLength));
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    out.push('a'.repeat(schema.minLength), ASTRAL.repeat(schema.minLength));
  }
  for (const key of ['minimum', 'maximum'] as const) {
    if (typeof schema[key] === 'number') out.push(schema[key], String(schema[key]));
  }
  return out;
}

/** Values just past the edges: each string bound +1 in astral characters (`maxLength` + 1 code points). */
function pastEdgesFor(schema: Schema): unknown[] {
  const out: unknown[] = [];
  if (typeof schema.maxLength === 'number') out.push(ASTRAL.repeat(schema.maxLength + 1));
  if (typeof schema.exclusiveMaximum === 'number') out.push(schema.exclusiveMaximum);
  return out;
}

/**
 * Edits of a valid value `value` of `schema` (dereferenced), each breaking or stretching one
 * place of it, as schema-driven fuzzers mutate positive data: for every property and item
 * reached, its {@link invalidValuesFor} candidates and the values just past its edges
 * (`invalid`), or its {@link edgeValuesFor} (`edges`); for objects also each required property
 * removed and an unknown property added (`invalid`). `oneOf`/`anyOf` branches are not entered.
 */
export function editsOf(schema: Schema, value: unknown, mode: 'invalid' | 'edges'): Edit[] {
  const edits: Edit[] = [];
  const walk = (s: Schema, v: unknown, path: Path, depth: number): void => {
    if (depth > 6) return;
    const leaf =
      mode === 'invalid' ? [...invalidValuesFor(s), ...pastEdgesFor(s)] : edgeValuesFor(s);
    for (const candidate of leaf) edits.push({ path, value: candidate });
    if (s.type === 'object' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const record = v as Record<string, unknown>;
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      if (mode === 'invalid') {
        for (const name of (s.required ?? []) as string[]) {
          edits.push({ path: [...path, name], remove: true });
        }
        if (s.additionalProperties === false) {
          edits.push({ path: [...path, 'zzUnknown'], value: 'x' });
        }
      }
      for (const [name, property] of Object.entries(properties)) {
        walk(property, record[name], [...path, name], depth + 1);
      }
    }
    if (s.type === 'array' && Array.isArray(v) && typeof s.items === 'object') {
      const items = s.items as Schema;
      if (v.length > 0) walk(items, v[0], [...path, 0], depth + 1);
      if (typeof s.maxItems === 'number' && v.length > 0) {
        const longest = Array.from({ length: s.maxItems }, (_, i) => v[i % v.length]);
        const tooLong = Array.from({ length: s.maxItems + 1 }, (_, i) => v[i % v.length]);
        edits.push({ path, value: mode === 'invalid' ? tooLong : longest });
      }
    }
  };
  walk(schema, value, [], 0);
  return edits;
}

/** `value` with `edit` applied (a copy; `value` is not changed). */
export function applyEdit(value: unknown, edit: Edit): unknown {
  if (edit.path.length === 0) return edit.remove ? undefined : edit.value;
  const [head, ...rest] = edit.path as [string | number, ...(string | number)[]];
  const container = (
    Array.isArray(value)
      ? [...value]
      : typeof value === 'object' && value !== null
        ? { ...(value as Record<string, unknown>) }
        : {}
  ) as Record<string | number, unknown>;
  if (rest.length === 0 && edit.remove) {
    delete container[head];
    return container;
  }
  container[head] = applyEdit(container[head], { ...edit, path: rest });
  return container;
}
