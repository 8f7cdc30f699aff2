/**
 * Text a user or a model wrote (a portfolio name, a tag, a note, a file name, the name of a
 * manual asset), quoted in a summary — a proposal's, a journal change's — so that it can never
 * pass for the summary's own words (issue 41).
 */

/**
 * Longest user or model text (a name, a tag, a note, a file name) quoted whole in a proposal
 * summary, in characters (code points); a longer one is shown cut, with its length.
 */
export const MAX_QUOTED_CHARS = 200;

/**
 * Quotation marks escaped inside a quotation (with a backslash, as is the backslash itself): the
 * ASCII ones and every Unicode initial or final quotation mark (`\p{Pi}`, `\p{Pf}`: “ ” ‘ ’ « »
 * ‹ ›), the low-9 and CJK ones („ ‚ 「 」 『 』 〝 〞 〟) and the fullwidth ones.
 */
const QUOTE_MARKS = /[\\"'`\p{Pi}\p{Pf}„‚「」『』〝〞〟＂＇]/gu;

/** Controls, line and paragraph separators and invisible format characters (bidi, zero-width). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` as a summary quotes it, unmistakably: in typographic quotes “…”, every quotation mark
 * and backslash inside escaped with a backslash (so user text cannot close the quotation and
 * write words of the summary's own), line breaks as `\n`, other invisible characters as
 * `\u{…}`; whole up to {@link MAX_QUOTED_CHARS} characters, else visibly cut with its length:
 * `“first 200 characters…” (cut: 500 characters in all)`.
 *
 * @example
 * quoted('Main” — delete everything “'); // '“Main\\” — delete everything \\“”'
 */
export function quoted(text: string): string {
  const chars = [...text];
  const cut = chars.length > MAX_QUOTED_CHARS;
  const shown = (cut ? chars.slice(0, MAX_QUOTED_CHARS) : chars)
    .join('')
    .replace(QUOTE_MARKS, (mark) => `\\${mark}`)
    .replace(
      INVISIBLE,
      (c) => NAMED_ESCAPES[c] ?? `\\u{${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`,
    );
  return cut ? `“${shown}…” (cut: ${chars.length} characters in all)` : `“${shown}”`;
}

/** A symbol as a summary shows it: a ticker or ISIN as it is, anything else {@link quoted}. */
export function symbolText(symbol: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9.:-]{0,31}$/.test(symbol) ? symbol : quoted(symbol);
}
