import { NarrativeError } from './errors.js';

/** True for a UTF-16 high surrogate (the first half of a character outside the BMP). */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Where the chunk starting at `start` ends: after the last newline that fits, else at `size`. */
function chunkEnd(text: string, start: number, size: number): number {
  const limit = start + size;
  if (limit >= text.length) return text.length;
  const newline = text.lastIndexOf('\n', limit - 1);
  if (newline >= start) return newline + 1;
  // No line break fits: cut at the limit, but never between the halves of a surrogate pair.
  const cut = isHighSurrogate(text.charCodeAt(limit - 1)) && limit - 1 > start ? limit - 1 : limit;
  return cut;
}

/**
 * Splits markdown into chunks of at most `size` UTF-16 code units, for streaming (e.g. one SSE
 * `data:` event per chunk). A chunk ends after the last line break that fits; a line longer
 * than `size` is cut at `size` (never inside a surrogate pair, unless `size` is 1). Joining the
 * chunks gives back `text` exactly; an empty text gives no chunks.
 *
 * @param text - The markdown to split.
 * @param size - Largest chunk length in UTF-16 code units; an integer ≥ 1.
 * @throws {NarrativeError} `invalid_argument` when `size` is not an integer ≥ 1.
 * @example
 * chunkMarkdown('## A\nbody\n', 6); // ['## A\n', 'body\n']
 */
export function chunkMarkdown(text: string, size: number): string[] {
  if (!Number.isInteger(size) || size < 1) {
    throw new NarrativeError('invalid_argument', `chunk size must be an integer ≥ 1, got ${size}`);
  }
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = chunkEnd(text, start, size);
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}
