import type { NewTransaction } from '@svc/portfolio';

/** Longest user or model text (a name, a tag, a note) quoted in a proposal summary. */
export const MAX_QUOTED_CHARS = 200;

/** `text` as a summary quotes it: one line, bounded, in typographic quotes. */
export function quoted(text: string): string {
  const line = text.replace(/[\r\n\t]+/g, ' ').trim();
  const cut = line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}…` : line;
  return `“${cut}”`;
}

/**
 * The note a transaction would be written with, as a summary ends: ` with the note “…”` (quoted,
 * bounded), or nothing. A proposal's summary names everything it would write; the amounts come
 * from `describeTransaction`.
 */
export function noteOf(transaction: NewTransaction): string {
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
