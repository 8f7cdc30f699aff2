import type { Repositories } from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { instrumentsOf } from '../portfolio/change-ledger.js';
import { transactionTag } from '../portfolio/change-summaries.js';
import { decodeTransaction } from '../portfolio/ledger-codec.js';

/**
 * Issue 41: what an edit or delete proposal recorded of the row its summary describes: its
 * entity tag (`transactionTag`, the `ETag` of the REST routes) and the row as it was shown.
 * Confirming applies the proposal only while the row still has that tag (else 409, naming the
 * fields that changed). Optional only for proposals stored before it existed.
 */
export const RowVersion = z.object({
  version: z.string().optional(),
  before: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Refuses (409 `conflict`, nothing written) a proposal whose transaction no longer is as its
 * summary showed it: deleted, or with another entity tag than the one recorded; the answer names
 * the fields that changed. Run as the change's guard (`repos` of its transaction, the portfolio
 * row locked), so no write can slip in between the check and the change.
 * @throws UseCaseError `not_found` (portfolio), `conflict`.
 */
export async function requireRowUnchanged(
  repos: Repositories,
  userId: string,
  portfolioId: string,
  transactionId: string,
  recorded: z.output<typeof RowVersion>,
): Promise<void> {
  if (recorded.version === undefined) return;
  const row = await repos.transactions.get(userId, portfolioId, transactionId);
  if (!row) {
    throw new UseCaseError(
      'conflict',
      `transaction ${transactionId} was deleted after this proposal was made; nothing was written`,
      { transactions: [transactionId] },
    );
  }
  const current = decodeTransaction(row);
  if (transactionTag(current) === recorded.version) return;
  const fields = changedFields(recorded.before ?? {}, current);
  throw new UseCaseError(
    'conflict',
    `transaction ${transactionId} changed after this proposal was made (${fields.length > 0 ? fields.join(', ') : 'its values'}); nothing was written: ask for a new proposal`,
    { transactions: [transactionId] },
  );
}

/**
 * Issue 38: refuses (409 `conflict`, nothing written) an instrument assignment whose instrument is
 * no longer the one its summary showed (`before`): reassigned, resolved or gone since. Run as the
 * change's guard, like {@link requireRowUnchanged}.
 * @throws UseCaseError `conflict`.
 */
export async function requireInstrumentUnchanged(
  repos: Repositories,
  userId: string,
  portfolioId: string,
  symbol: string,
  before: Instrument | undefined,
): Promise<void> {
  if (before === undefined) return;
  const current = instrumentsOf(await repos.transactions.listAll(userId, portfolioId)).get(symbol);
  if (current !== undefined && canonical(current) === canonical(before)) return;
  throw new UseCaseError(
    'conflict',
    current === undefined
      ? `the portfolio no longer holds ${symbol} under that symbol; nothing was written`
      : `the instrument of ${symbol} changed after this proposal was made (${changedFields(before, current).join(', ')}); nothing was written: ask for a new proposal`,
  );
}

/** JSON of an object with its keys sorted (two instruments with the same fields compare equal). */
function canonical(value: object): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))),
  );
}

/** The fields (but ids) whose values differ between two transactions, sorted. */
function changedFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => k !== 'id' && k !== 'portfolioId')
    .filter((k) => JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null))
    .sort();
}
