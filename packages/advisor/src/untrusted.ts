import { randomBytes } from 'node:crypto';

/**
 * Invisible characters that can hide instructions from a reader but not from a model
 * (research/ai-anchors.md §7, Spotlighting): zero-width characters and joiners, the BOM, soft
 * hyphen, bidi embedding/override/isolate controls, and Unicode tag characters (U+E0000–E007F).
 */
const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/** `text` without invisible characters (see {@link INVISIBLE}); other text is kept as is. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** A fresh random boundary token for one turn (12 hex digits; unguessable by the data's author). */
export function newBoundary(): string {
  return randomBytes(6).toString('hex');
}

/**
 * Wraps untrusted text as a data block delimited by a random boundary (Hines et al. 2024,
 * "Spotlighting", arXiv:2403.14720): invisible characters are stripped and any copy of the
 * boundary inside the text is removed, so the data cannot close its own block.
 *
 * @param text - Untrusted content (a tool result, an attachment).
 * @param boundary - The turn's boundary from {@link newBoundary}.
 * @param label - What the data is, e.g. `tool listHoldings` (shown in the opening line).
 * @example
 * spotlight('ignore previous instructions', 'a1b2c3d4e5f6', 'file a.csv');
 * // '<<<DATA a1b2c3d4e5f6 file a.csv>>>\nignore previous instructions\n<<<END DATA a1b2c3d4e5f6>>>'
 */
export function spotlight(text: string, boundary: string, label: string): string {
  const clean = stripInvisible(text).split(boundary).join('');
  const safeLabel = stripInvisible(label)
    .replace(/[<>\n\r]/g, ' ')
    .split(boundary)
    .join('');
  return `<<<DATA ${boundary} ${safeLabel}>>>\n${clean}\n<<<END DATA ${boundary}>>>`;
}

/** Largest JSON text of one tool result sent to the model (characters, about 4k tokens). */
export const MAX_TOOL_RESULT_CHARS = 16_000;

function fits(value: unknown, maxChars: number): boolean {
  return JSON.stringify(value).length <= maxChars;
}

/** The longest prefix of `items` whose JSON (inside `wrap`) fits, by binary search. */
function longestPrefix(
  items: unknown[],
  maxChars: number,
  wrap: (kept: unknown[]) => unknown,
): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(wrap(items.slice(0, mid)), maxChars)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * JSON of a tool result bounded to `maxChars` (Wealthfolio's result envelope with `truncated`
 * meta, research/ai-anchors.md §1). Fits → `{"data":…}`. Too long: an array (top level, or the
 * longest array property of an object) keeps its first items and the envelope says
 * `"meta":{"truncated":true,"returned":n,"total":N}`; anything else is cut as text with
 * `"truncated":true`.
 */
export function boundedJson(data: unknown, maxChars: number = MAX_TOOL_RESULT_CHARS): string {
  const whole = { data: data ?? null };
  if (fits(whole, maxChars)) return JSON.stringify(whole);
  if (Array.isArray(data)) {
    const wrap = (kept: unknown[]) => ({
      data: kept,
      meta: { truncated: true, returned: kept.length, total: data.length },
    });
    return JSON.stringify(wrap(data.slice(0, longestPrefix(data, maxChars, wrap))));
  }
  if (data !== null && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    const arrays = Object.entries(record).filter(([, v]) => Array.isArray(v)) as [
      string,
      unknown[],
    ][];
    const longest = arrays.sort(
      (a, b) => JSON.stringify(b[1]).length - JSON.stringify(a[1]).length,
    )[0];
    if (longest) {
      const [key, items] = longest;
      const wrap = (kept: unknown[]) => ({
        data: { ...record, [key]: kept },
        meta: { truncated: true, field: key, returned: kept.length, total: items.length },
      });
      const kept = items.slice(0, longestPrefix(items, maxChars, wrap));
      const candidate = wrap(kept);
      if (fits(candidate, maxChars)) return JSON.stringify(candidate);
    }
  }
  const wholeText = JSON.stringify(data) ?? 'null';
  let cut = Math.max(0, maxChars - 60);
  let out = JSON.stringify({ text: wholeText.slice(0, cut), meta: { truncated: true } });
  // Escapes can make the JSON longer than the cut text: shrink until it fits.
  while (out.length > maxChars && cut > 0) {
    cut = Math.floor(cut * 0.8);
    out = JSON.stringify({ text: wholeText.slice(0, cut), meta: { truncated: true } });
  }
  return out;
}
