import type { NewTransaction, Transaction } from '@svc/portfolio';

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

/** The fields of a transaction a summary compares, in the order it names them. */
const FIELDS = [
  'type',
  'symbol',
  'quantity',
  'price',
  'fee',
  'amount',
  'ratio',
  'currency',
  'executedAt',
  'note',
] as const;

/** A field's value as a summary shows it: user text quoted, an instant as ISO 8601 UTC. */
function shown(field: (typeof FIELDS)[number], value: unknown): string {
  if (field === 'note' || field === 'symbol') return quoted(String(value));
  if (field === 'executedAt') return new Date(String(value)).toISOString();
  return String(value);
}

/**
 * Every field an edit changes, adds or removes, in words: `price 150 → 151.25`, `fee set to 1.5`,
 * `note removed (was “rent”)`; `nothing would change` when none does. Text fields are
 * {@link quoted}, so removing a note never reads as a change of a value to itself.
 */
export function fieldChanges(before: Transaction, after: NewTransaction): string {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of FIELDS) {
    const [was, now] = [a[field], b[field]];
    const same =
      field === 'executedAt'
        ? new Date(String(was)).getTime() === new Date(String(now)).getTime()
        : was === now;
    if (same || (was === undefined && now === undefined)) continue;
    if (now === undefined) parts.push(`${field} removed (was ${shown(field, was)})`);
    else if (was === undefined) parts.push(`${field} set to ${shown(field, now)}`);
    else parts.push(`${field} ${shown(field, was)} → ${shown(field, now)}`);
  }
  return parts.length === 0 ? 'nothing would change' : parts.join(', ');
}

/**
 * The note a transaction would be written with, as a summary ends: ` with the note “…”` (quoted,
 * bounded), or nothing. A proposal's summary names everything it would write; the amounts come
 * from `describeTransaction`.
 */
export function noteOf(transaction: NewTransaction | Transaction): string {
  return transaction.note ? ` with the note ${quoted(transaction.note)}` : '';
}

/**
 * The summary of a proposal to save a moat report: the company, its score, and every tag it
 * would write (quoted), or that it writes none.
 *
 * @example
 * saveReportSummary('MCD', 64.82, 87.5, ['quality']); // 'Save the moat report of MCD (64.82/87.5) with the tags “quality”'
 */
export function saveReportSummary(
  symbol: string,
  totalScore: number,
  maxScore: number,
  tags: readonly string[],
): string {
  const withTags =
    tags.length === 0
      ? 'with no tags'
      : `with the tag${tags.length === 1 ? '' : 's'} ${tags.map(quoted).join(', ')}`;
  return `Save the moat report of ${symbol} (${totalScore}/${maxScore}) ${withTags}`;
}
