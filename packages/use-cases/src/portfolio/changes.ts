import { NewTransaction, type Transaction } from '@svc/portfolio';
import {
  type ChangeSource,
  createRepositories,
  type Transaction as StoredTransaction,
} from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { UseCaseError } from '../errors.js';
import { changeLedger, type LedgerChangeDeps, type LedgerUnit, patched } from './change-ledger.js';
import {
  describeEdit,
  describeTransaction,
  toPortfolioChange,
  transactionTag,
} from './change-summaries.js';
import { requireMatch } from './entity-tags.js';
import { type InstrumentHint, instrumentSymbol } from './instruments.js';
import { fromStoreError } from './ledger.js';
import { decodeTransaction, encodeTransaction, toLedgerTransaction } from './ledger-codec.js';
import {
  ChangeListQuery,
  type PortfolioChange,
  type PortfolioChangePage,
  TransactionPatch,
} from './schemas.js';

/**
 * Who makes a change through the flows below (the REST API, default, or a confirmed proposal),
 * and on what condition.
 */
export interface ChangeContext {
  readonly source?: ChangeSource;
  /**
   * The request's `If-Match` (RFC 9110 §13.1.1): an edit or delete of a transaction applies only
   * while the transaction's entity tag (`transactionTag`) is one of these (or `*`); checked under
   * the portfolio's lock, else `precondition_failed` and nothing written. Absent: unconditional.
   */
  readonly ifMatch?: string;
  /**
   * Runs in the change's database transaction right after the portfolio is locked (see
   * `LedgerChange.guard`): how a confirmed proposal marks itself applied and checks that the
   * rows its summary described are unchanged, in the same unit of work as the change.
   */
  readonly guard?: (unit: LedgerUnit) => Promise<void>;
}

/**
 * What {@link createChangeFlows} needs: `changeLedger`'s database, market data and clock, and
 * the resolver of a symbol an edit gives a transaction (issue 38); without it the edited row
 * keeps no instrument until the start-up pass resolves it.
 */
export interface ChangeFlowDeps extends LedgerChangeDeps {
  readonly resolveInstrument?: (userId: string, hint: InstrumentHint) => Promise<Instrument>;
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

/** The row `transactionId` of `rows`, or `not_found`. */
function rowOf(rows: readonly StoredTransaction[], transactionId: string): StoredTransaction {
  const row = rows.find((r) => r.id === transactionId);
  if (!row) throw new UseCaseError('not_found', `transaction ${transactionId} not found`);
  return row;
}

/** The patch's id fields must name the row of the path (ids cannot be changed). */
function checkIds(
  patch: TransactionPatch,
  transactionId: string,
  portfolioId: string,
): Omit<TransactionPatch, 'id' | 'portfolioId' | 'instrument'> {
  // `instrument` is read-only: it follows the symbol (issue 38)
  const { id: sentId, portfolioId: sentPortfolio, instrument: _readOnly, ...changes } = patch;
  for (const [key, sent, path] of [
    ['id', sentId, transactionId],
    ['portfolioId', sentPortfolio, portfolioId],
  ] as const) {
    if (sent !== undefined && sent !== path) {
      invalid([{ path: [key], message: `must be ${path} (ids cannot be changed)` }], 'ids');
    }
  }
  return changes;
}

/**
 * The correction flows of a portfolio's ledger (CONTRACT §6): edit and delete a transaction,
 * list the portfolio's changes, revert one. Every write is one `changeLedger`: quotes and rates
 * gathered first, then one database transaction that locks the portfolio row (so two writers of
 * one portfolio serialise), writes the rows and the journal (`portfolio_changes`), derives the
 * ledger once, checks it as recording does and stores the revalued holdings and cash. The ledger
 * and positions version counters are bumped by the database in the same transaction, so every
 * read (holdings, cash, transactions, performance, MCP) of any process sees the change at once.
 * An edit or delete honours `context.ifMatch` (the transaction's `ETag`) under the lock.
 */
export function createChangeFlows(deps: ChangeFlowDeps) {
  const write = <T>(
    userId: string,
    portfolioId: string,
    change: Parameters<typeof changeLedger<T>>[3],
  ): Promise<T> => changeLedger(deps, userId, portfolioId, change).then(({ result }) => result);

  return {
    /**
     * Edits one transaction: the fields of `patch` (see `TransactionPatch`) replace the stored
     * ones; the result must be a valid `NewTransaction` and keep the ledger sound.
     * @throws UseCaseError `validation_failed` (patch or result invalid), `not_found` (portfolio
     *   or transaction, also another user's), `precondition_failed` (`context.ifMatch` no longer
     *   matches), `conflict` (a sale would exceed what is held; `transactions` names it).
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
      const changes = checkIds(fields.data, transactionId, portfolioId);
      // a new symbol names a new instrument: resolved before the lock (it may ask a service)
      let resolved: Instrument | undefined;
      const nextOf = (current: StoredTransaction) => {
        const next = NewTransaction.safeParse(merged(asInput(current), changes));
        if (!next.success) invalid(next.error.issues, 'transaction after the edit');
        const symbolChanged = next.data.symbol !== (current.symbol ?? undefined);
        const edited =
          symbolChanged && resolved && next.data.symbol
            ? { ...next.data, symbol: instrumentSymbol(resolved, next.data.symbol) }
            : next.data;
        const instrument = symbolChanged ? (edited.symbol ? (resolved ?? null) : null) : undefined;
        return { edited, instrument };
      };
      const stored = await write(userId, portfolioId, {
        breaks: { conflict: 'the edit', namesChanges: false },
        guard: context.guard,
        project: async (before) => {
          const current = before.find((r) => r.id === transactionId);
          if (current && typeof changes.symbol === 'string' && deps.resolveInstrument) {
            resolved = await deps.resolveInstrument(userId, {
              symbol: changes.symbol,
              currency: typeof changes.currency === 'string' ? changes.currency : current.currency,
            });
          }
          const next = current && NewTransaction.safeParse(merged(asInput(current), changes));
          const ledger = before.map(toLedgerTransaction);
          if (!current || !next?.success) return ledger;
          const { edited } = nextOf(current);
          return ledger.map((t) => (t.id === transactionId ? { ...edited, id: t.id } : t));
        },
        write: async ({ writes }, before) => {
          const current = rowOf(before, transactionId);
          const decoded = decodeTransaction(current);
          requireMatch(context.ifMatch, transactionTag(decoded), `transaction ${transactionId}`);
          const { edited, instrument } = nextOf(current);
          const { transaction } = await writes.update(
            userId,
            portfolioId,
            current,
            encodeTransaction(edited, instrument),
            {
              source: context.source ?? 'rest',
              summary: describeEdit(decodeTransaction(current, false), edited),
            },
          );
          return {
            result: transaction,
            after: patched(before, [{ id: transactionId, row: transaction }]),
          };
        },
      });
      return decodeTransaction(stored);
    },

    /**
     * One transaction of the user's portfolio, as the contract shows it, with its `ETag`.
     * @throws UseCaseError `not_found` (portfolio or transaction, also another user's).
     */
    async getTransaction(
      userId: string,
      portfolioId: string,
      transactionId: string,
    ): Promise<Transaction> {
      const row = await createRepositories(deps.db).transactions.get(
        userId,
        portfolioId,
        transactionId,
      );
      if (!row) throw new UseCaseError('not_found', `transaction ${transactionId} not found`);
      return decodeTransaction(row);
    },

    /**
     * Deletes one transaction (journalled: a revert brings it back with its id).
     * @throws UseCaseError `not_found` (portfolio or transaction, also another user's),
     *   `precondition_failed` (`context.ifMatch` no longer matches), `conflict` (a later sale
     *   needs its units; `transactions` names it).
     */
    async deleteTransaction(
      userId: string,
      portfolioId: string,
      transactionId: string,
      context: ChangeContext = {},
    ): Promise<void> {
      await write(userId, portfolioId, {
        breaks: { conflict: 'the delete', namesChanges: false },
        guard: context.guard,
        write: async ({ writes }, before) => {
          const current = decodeTransaction(rowOf(before, transactionId));
          requireMatch(context.ifMatch, transactionTag(current), `transaction ${transactionId}`);
          await writes.delete(userId, portfolioId, transactionId, {
            source: context.source ?? 'rest',
            summary: `Deleted ${describeTransaction(current)}`,
          });
          return { result: undefined, after: patched(before, [{ id: transactionId, row: null }]) };
        },
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
      const repos = createRepositories(deps.db);
      const change = await write(userId, portfolioId, {
        breaks: { conflict: 'the revert', namesChanges: true },
        guard: context.guard,
        inputPath: 'change',
        project: async (before) => {
          const rows = await repos.transactions.rowsBefore(userId, portfolioId, changeId);
          return patched(before, rows).map(toLedgerTransaction);
        },
        write: async (unit, before) => {
          const target = await unit.repos.transactions.getChange(userId, portfolioId, changeId);
          if (!target) throw new UseCaseError('not_found', `change ${changeId} not found`);
          const outcome = await unit.writes.revert(userId, portfolioId, changeId, {
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
          return { result: outcome.change, after: patched(before, outcome.rows ?? []) };
        },
      });
      return toPortfolioChange(change);
    },
  };
}

/** The correction flows; see {@link createChangeFlows}. */
export type ChangeFlows = ReturnType<typeof createChangeFlows>;
