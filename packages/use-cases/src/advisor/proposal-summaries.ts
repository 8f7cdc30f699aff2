import type { NewTransaction } from '@svc/portfolio';

/** Longest user or model text (a name, a tag, a note) quoted in a proposal summary. */
export const MAX_QUOTED_CHARS = 200;

/** `text` as a summary quotes it: one line, bounded, in typographic quotes. */
export function quoted(text: string): string {
  const line = text.replace(/[\r\n\t]+/g, ' ').trim();
  const cut = line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS)}…` : line;
  return `“${cut}”`;
}

function note(transaction: NewTransaction): string {
  return transaction.note ? ` with the note ${quoted(transaction.note)}` : '';
}

/**
 * The summary of a proposal to record a transaction: everything it would write — the type, the
 * instrument, every amount with its currency (quantity and price, fee, amount, split ratio), the
 * date and the note — so that the user accepts what is written, not a description of it.
 *
 * @example
 * transactionSummary({ type: 'withdrawal', amount: '500', currency: 'EUR', executedAt: '2024-03-01T10:00:00Z' }, 'Main');
 * // 'Record a withdrawal of 500 EUR on 2024-03-01T10:00:00Z from “Main”'
 */
export function transactionSummary(transaction: NewTransaction, portfolioName: string): string {
  const t = transaction;
  const where = quoted(portfolioName);
  const when = `on ${t.executedAt}`;
  switch (t.type) {
    case 'buy':
    case 'sell': {
      const fee = t.fee ? ` plus a fee of ${t.fee} ${t.currency}` : '';
      return `Record a ${t.type} of ${t.quantity} ${t.symbol} at ${t.price} ${t.currency} each${fee} ${when} in ${where}${note(t)}`;
    }
    case 'dividend':
      return `Record a dividend of ${t.amount} ${t.currency} from ${t.symbol} ${when} in ${where}${note(t)}`;
    case 'deposit':
      return `Record a deposit of ${t.amount} ${t.currency} ${when} into ${where}${note(t)}`;
    case 'withdrawal':
      return `Record a withdrawal of ${t.amount} ${t.currency} ${when} from ${where}${note(t)}`;
    case 'fee': {
      const about = t.symbol ? ` for ${t.symbol}` : '';
      return `Record a fee of ${t.amount} ${t.currency}${about} ${when} in ${where}${note(t)}`;
    }
    case 'split':
      return `Record a split of ${t.symbol} at ${t.ratio} new units per old unit ${when} in ${where}${note(t)}`;
  }
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
