import { z } from 'zod';

/**
 * A number that may arrive as text (a REST query value) or as a JSON number (an MCP argument):
 * non-blank text is read with `Number` (`'60'` → 60, `'1e3'` → 1000), anything else is checked as
 * it is. Unlike `z.coerce.number()`, `null`, booleans and blank text stay what they are and are
 * refused, as the JSON Schema `type: number` (`integer`) of the documents says (ajv's type
 * coercion of query values reads `''` as no number too). A default goes inside (`schema`), so the
 * JSON Schema states it.
 *
 * @example
 * ```ts
 * const Page = numberFromText(z.number().int().min(1).default(1));
 * Page.parse('2');  // 2
 * Page.safeParse(null).success; // false
 * ```
 */
export function numberFromText<T extends z.ZodType<number | undefined, number | undefined>>(
  schema: T,
) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
    schema,
  );
}
