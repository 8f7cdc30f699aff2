import type { NewTransaction, Transaction } from '@svc/portfolio';
import type { PortfolioChange as StoredChange } from '@svc/portfolio-store';
import { entityTag } from './entity-tags.js';
import { symbolText } from './quoted-text.js';
import type { PortfolioChange } from './schemas.js';

/** The entity tag (`ETag`) of a transaction: {@link entityTag} of its contract representation. */
export function transactionTag(transaction: Transaction): string {
  return entityTag(transaction);
}

/**
 * A transaction in words with every amount it carries, for a change's summary:
 * `buy 10 AAPL at 180 USD (fee 1 USD) on 2024-03-01T15:00:00.000Z`.
 */
export function describeTransaction(tx: Transaction | NewTransaction): string {
  const on = ` on ${new Date(tx.executedAt).toISOString()}`;
  const what = tx.symbol ? ` ${symbolText(tx.symbol)}` : '';
  switch (tx.type) {
    case 'buy':
    case 'sell': {
      const fee = tx.fee ? ` (fee ${tx.fee} ${tx.currency})` : '';
      return `${tx.type} ${tx.quantity}${what} at ${tx.price} ${tx.currency}${fee}${on}`;
    }
    case 'split':
      return `split${what} ${tx.ratio} for 1${on}`;
    default:
      return `${tx.type} of ${'amount' in tx ? tx.amount : ''} ${tx.currency}${what}${on}`;
  }
}

/**
 * The summary of an edit: the transaction before and after ({@link describeTransaction}), and the
 * names of the fields that changed, so an edit of the note alone (which the descriptions leave
 * out, being user text) still says what it changed.
 */
export function describeEdit(before: Transaction, after: NewTransaction): string {
  const text = (tx: Record<string, unknown>, key: string) =>
    key === 'executedAt' ? new Date(String(tx[key])).toISOString() : String(tx[key] ?? '');
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => key !== 'id' && key !== 'portfolioId' && text(a, key) !== text(b, key))
    .sort();
  const changed = fields.length > 0 ? ` (changed: ${fields.join(', ')})` : ' (nothing changed)';
  return `Edited ${describeTransaction(before)} → ${describeTransaction(after)}${changed}`;
}

/** A stored change as the contract's `PortfolioChange` (absent, not null, optional fields). */
export function toPortfolioChange(change: StoredChange): PortfolioChange {
  return {
    id: change.id,
    kind: change.kind,
    at: change.at,
    source: change.source,
    summary: change.summary,
    transactionCount: change.transactionCount,
    ...(change.revertedBy === null ? {} : { revertedBy: change.revertedBy }),
    ...(change.reverts === null ? {} : { reverts: change.reverts }),
  };
}
