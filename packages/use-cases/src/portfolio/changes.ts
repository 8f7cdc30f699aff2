import {
  type LedgerTransaction,
  NewTransaction,
  PortfolioError,
  type Transaction,
} from '@svc/portfolio';
import {
  type ChangeSource,
  createRepositories,
  type Executor,
  type PortfolioChange as StoredChange,
  type Transaction as StoredTransaction,
} from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { UseCaseError } from '../errors.js';
import { type InstrumentHint, instrumentSymbol } from './instruments.js';
import { deriveChecked, fromStoreError, readLedger } from './ledger.js';
import { decodeTransaction, encodeTransaction } from './ledger-codec.js';
import {
  ChangeListQuery,
  type PortfolioChange,
  type PortfolioChangePage,
  TransactionPatch,
} from './schemas.js';

/** Who makes a change through the flows below: the REST API (default) or a confirmed proposal. */
export interface ChangeContext {
  readonly source?: ChangeSource;
}

/** What {@link createChangeFlows} needs. */
export interface ChangeFlowDeps {
  readonly db: Executor;
  readonly now: () => Date;
  /** Re-derives and revalues the portfolio after a committed change (`revaluePortfolio`). */
  readonly revalue: (userId: string, portfolioId: string, at: Date) => Promise<unknown>;
  /**
   * Resolves the instrument of a symbol an edit gives a transaction (issue 38); absent: the
   * edited row keeps no instrument until the start-up pass resolves it.
   */
  readonly resolveInstrument?: (userId: string, hint: InstrumentHint) => Promise<Instrument>;
}

/**
 * A transaction in words with every amount it carries, for a change's summary:
 * `buy 10 AAPL at 180 USD (fee 1 USD) on 2024-03-01T15:00:00.000Z`.
 */
export function describeTransaction(tx: Transaction | NewTransaction): string {
  const on = ` on ${new Date(tx.executedAt).toISOString()}`;
  const what = tx.symbol ? ` ${tx.symbol}` : '';
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

/** The stored transaction as the `NewTransaction` input it would be recorded from. */
function asInput(row: StoredTransaction): Record<string, unknown> {
  const { id: _id, portfolioId: _portfolioId, ...fields } = decodeTransaction(row, false);
  return fields;
}

/** `patch` applied to `current`: given fields replace, null removes. */
function merged(
  current: Record<string, unknown>,
  patch: Omit<TransactionPatch, 'id' | 'portfolioId'>,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

function invalid(issues: { path: PropertyKey[]; message: string }[], what: string): never {
  throw new UseCaseError('validation_failed', `invalid ${what}`, {
    errors: issues.map((i) => ({
      path: ['body', ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  });
}

/**
 * The ledger of the portfolio read in `repos`' transaction, checked as recording checks it; a
 * sale beyond what is held is a `conflict` naming the sale (and, through `dependsOn`, the
 * changes that wrote it), anything else the `validation_failed` of `deriveChecked`.
 */
async function checkLedger(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  portfolioId: string,
  what: string,
  namesChanges: boolean,
): Promise<void> {
  const ledger: LedgerTransaction[] = await readLedger(repos.transactions, userId, portfolioId);
  try {
    deriveChecked(ledger, 'ledger');
  } catch (error) {
    const cause = error instanceof UseCaseError ? error.options.cause : undefined;
    if (!(cause instanceof PortfolioError) || cause.code !== 'insufficient_quantity') throw error;
    const transactions = cause.transactionId === undefined ? [] : [cause.transactionId];
    const changes = namesChanges
      ? await repos.transactions.lastWriters(userId, portfolioId, transactions)
      : undefined;
    throw new UseCaseError(
      'conflict',
      `${what} would break the ledger: ${cause.message}; nothing was changed`,
      { cause, transactions, ...(changes === undefined ? {} : { changes }) },
    );
  }
}

/**
 * The correction flows of a portfolio's ledger (CONTRACT §6): edit and delete a transaction,
 * list the portfolio's changes, revert one. Every write runs in one database transaction that
 * locks the portfolio row (so two writers of one portfolio serialise), journals the change
 * (`portfolio_changes`) and checks the whole ledger as recording does, then the portfolio is
 * re-derived and revalued before the answer. The ledger and positions version counters are
 * bumped by the database in the same transaction, so every read (holdings, cash, transactions,
 * performance, MCP) of any process sees the change at once.
 */
export function createChangeFlows(deps: ChangeFlowDeps) {
  const write = async <T>(
    userId: string,
    portfolioId: string,
    work: (repos: ReturnType<typeof createRepositories>) => Promise<T>,
  ): Promise<T> => {
    const result = await deps.db
      .transaction()
      .execute((trx) => work(createRepositories(trx)))
      .catch((error: unknown) => fromStoreError(error, 'transaction'));
    await deps.revalue(userId, portfolioId, deps.now());
    return result;
  };

  return {
    /**
     * Edits one transaction: the fields of `patch` (see `TransactionPatch`) replace the stored
     * ones; the result must be a valid `NewTransaction` and keep the ledger sound.
     * @throws UseCaseError `validation_failed` (patch or result invalid), `not_found` (portfolio
     *   or transaction, also another user's), `conflict` (a sale would exceed what is held;
     *   `transactions` names it).
     */
    async editTransaction(
      userId: string,
      portfolioId: string,
      transactionId: string,
      patch: unknown,
      context: ChangeContext = {},
    ): Promise<Transaction> {
      const fields = TransactionPatch.safeParse(patch);
      if (!fields.success) invalid(fields.error.issues, 'transaction patch');
      const {
        id: sentId,
        portfolioId: sentPortfolio,
        instrument: _readOnly,
        ...changes
      } = fields.data;
      for (const [key, sent, path] of [
        ['id', sentId, transactionId],
        ['portfolioId', sentPortfolio, portfolioId],
      ] as const) {
        if (sent !== undefined && sent !== path) {
          invalid([{ path: [key], message: `must be ${path} (ids cannot be changed)` }], 'ids');
        }
      }
      // a new symbol names a new instrument: resolved before the write (it may ask a service)
      const before =
        typeof changes.symbol === 'string' && deps.resolveInstrument
          ? await createRepositories(deps.db).transactions.get(userId, portfolioId, transactionId)
          : undefined;
      const resolved =
        before && typeof changes.symbol === 'string' && deps.resolveInstrument
          ? await deps.resolveInstrument(userId, {
              symbol: changes.symbol,
              currency: typeof changes.currency === 'string' ? changes.currency : before.currency,
            })
          : undefined;
      const stored = await write(userId, portfolioId, async (repos) => {
        if (!(await repos.portfolios.lockForUpdate(userId, portfolioId))) {
          throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
        }
        const current = await repos.transactions.get(userId, portfolioId, transactionId);
        if (!current) throw new UseCaseError('not_found', `transaction ${transactionId} not found`);
        const next = NewTransaction.safeParse(merged(asInput(current), changes));
        if (!next.success) invalid(next.error.issues, 'transaction after the edit');
        const symbolChanged = next.data.symbol !== (current.symbol ?? undefined);
        const edited =
          symbolChanged && resolved && next.data.symbol
            ? { ...next.data, symbol: instrumentSymbol(resolved, next.data.symbol) }
            : next.data;
        const { transaction } = await repos.transactions.update(
          userId,
          portfolioId,
          transactionId,
          encodeTransaction(
            edited,
            symbolChanged ? (edited.symbol ? (resolved ?? null) : null) : undefined,
          ),
          {
            source: context.source ?? 'rest',
            summary: describeEdit(decodeTransaction(current, false), edited),
          },
        );
        await checkLedger(repos, userId, portfolioId, 'the edit', false);
        return transaction;
      });
      return decodeTransaction(stored);
    },

    /**
     * Deletes one transaction (journalled: a revert brings it back with its id).
     * @throws UseCaseError `not_found` (portfolio or transaction, also another user's),
     *   `conflict` (a later sale needs its units; `transactions` names it).
     */
    async deleteTransaction(
      userId: string,
      portfolioId: string,
      transactionId: string,
      context: ChangeContext = {},
    ): Promise<void> {
      await write(userId, portfolioId, async (repos) => {
        if (!(await repos.portfolios.lockForUpdate(userId, portfolioId))) {
          throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
        }
        const current = await repos.transactions.get(userId, portfolioId, transactionId);
        if (!current) throw new UseCaseError('not_found', `transaction ${transactionId} not found`);
        await repos.transactions.delete(userId, portfolioId, transactionId, {
          source: context.source ?? 'rest',
          summary: `Deleted ${describeTransaction(decodeTransaction(current))}`,
        });
        await checkLedger(repos, userId, portfolioId, 'the delete', false);
      });
    },

    /**
     * The portfolio's changes, newest first, one keyset page at a time.
     * @throws UseCaseError `not_found` (portfolio), `validation_failed` (limit, cursor).
     */
    async listChanges(
      userId: string,
      portfolioId: string,
      query: ChangeListQuery = {},
    ): Promise<PortfolioChangePage> {
      const parsed = ChangeListQuery.safeParse(query);
      if (!parsed.success) invalid(parsed.error.issues, 'query');
      const repos = createRepositories(deps.db);
      if ((await repos.portfolios.versions(userId, { portfolioId })).length === 0) {
        throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      }
      const page = await repos.transactions
        .listChanges(userId, portfolioId, parsed.data)
        .catch((error: unknown) => fromStoreError(error, 'cursor'));
      return { items: page.items.map(toPortfolioChange), nextCursor: page.nextCursor };
    },

    /**
     * Reverts one change: the transactions it touched are put back as they were before it (an
     * import's rows, and only those, are removed; an edit's old values return; a deleted row
     * comes back with its id); the revert is itself a change (and can be reverted).
     * @throws UseCaseError `not_found` (portfolio or change, also another user's), `conflict`
     *   (already reverted, or a later change depends on it: `changes` names them, and
     *   `transactions` the rows concerned).
     */
    async revertChange(
      userId: string,
      portfolioId: string,
      changeId: string,
      context: ChangeContext = {},
    ): Promise<PortfolioChange> {
      const change = await write(userId, portfolioId, async (repos) => {
        if (!(await repos.portfolios.lockForUpdate(userId, portfolioId))) {
          throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
        }
        const target = await repos.transactions.getChange(userId, portfolioId, changeId);
        if (!target) throw new UseCaseError('not_found', `change ${changeId} not found`);
        const outcome = await repos.transactions.revertChange(userId, portfolioId, changeId, {
          source: context.source ?? 'rest',
          summary: `Reverted: ${target.summary}`,
        });
        if (outcome.outcome === 'already_reverted') {
          throw new UseCaseError('conflict', `change ${changeId} was already reverted`, {
            changes: outcome.changes,
          });
        }
        if (outcome.outcome === 'depends') {
          throw new UseCaseError(
            'conflict',
            `later changes depend on change ${changeId}; revert them first`,
            { changes: outcome.changes, transactions: outcome.transactions },
          );
        }
        await checkLedger(repos, userId, portfolioId, 'the revert', true);
        return outcome.change;
      });
      return toPortfolioChange(change);
    },
  };
}

/** The correction flows; see {@link createChangeFlows}. */
export type ChangeFlows = ReturnType<typeof createChangeFlows>;
