import { randomUUID } from 'node:crypto';
import type { Instrument } from '@svc/schemas';
import { type Transaction as KyselyTransaction, sql } from 'kysely';
import type { DB } from '../db-types.js';
import { StoreError, toStoreError } from '../errors.js';
import {
  type ChangeOptions,
  journalIn,
  ledgerVersionIn,
  type PortfolioChange,
  type RevertOutcome,
} from './journal.js';
import { replacePositionsIn } from './positions.js';
import {
  IMPORT_CHUNK,
  type NewTransaction,
  type Transaction,
  toRow,
  toTransaction,
} from './transaction-rows.js';
import { changedRows } from './transactions.js';

/**
 * A unit of work: the database transaction a flow opened (`db.transaction().execute(trx => …)`).
 * The ledger's writes take it, so that they can only run inside the caller's transaction.
 */
export type UnitOfWork = KyselyTransaction<DB>;

/** Options of {@link LedgerWrites.insert}: the change's kind, source, summary and batch. */
export interface InsertOptions extends ChangeOptions {
  /** `record` (one row, default) or `import` (rows of one batch). */
  readonly kind?: 'record' | 'import';
  /** The rows' import batch (an `import` generates one unless given). */
  readonly importBatchId?: string;
}

/**
 * The writes of a portfolio's ledger, its journal and its derived positions, all in the unit of
 * work `trx` the caller opened. They decide nothing: no lock (the caller locked the portfolio
 * row, which also proved the user owns it), no check of the ledger, no transaction of their own.
 * Every write of a transaction row is journalled in `trx` (`portfolio_changes`), so a rollback
 * takes back the row and its journal together. Database rejections become `StoreError`s
 * (`invalid_input`, `conflict`).
 *
 * @example
 * ```ts
 * await db.transaction().execute(async (trx) => {
 *   if (!(await createRepositories(trx).portfolios.lockForUpdate(userId, portfolioId))) throw …;
 *   const { inserted, change } = await createLedgerWrites(trx).insert(userId, portfolioId, [row]);
 * });
 * ```
 */
export function createLedgerWrites(trx: UnitOfWork) {
  const guard = <T>(work: Promise<T>, what: string): Promise<T> =>
    work.catch((error: unknown) => {
      throw toStoreError(error, what);
    });

  return {
    /**
     * Inserts rows into the portfolio (in chunks of 1,000) and journals them as one change of
     * `kind`; an import's rows carry one `importBatchId`.
     */
    insert(
      userId: string,
      portfolioId: string,
      txs: readonly NewTransaction[],
      options: InsertOptions = {},
    ): Promise<{ inserted: Transaction[]; change: PortfolioChange; importBatchId: string | null }> {
      const kind = options.kind ?? 'record';
      const importBatchId = kind === 'import' ? (options.importBatchId ?? randomUUID()) : null;
      return guard(
        (async () => {
          const versionBefore = await ledgerVersionIn(trx, portfolioId);
          const inserted: Transaction[] = [];
          for (let start = 0; start < txs.length; start += IMPORT_CHUNK) {
            const chunk = txs.slice(start, start + IMPORT_CHUNK);
            const rows = await trx
              .insertInto('transactions')
              .values(chunk.map((tx) => toRow(userId, portfolioId, tx, importBatchId)))
              .returningAll()
              .execute();
            inserted.push(...rows.map(toTransaction));
          }
          const change = await journalIn(trx, userId, portfolioId).inserted(
            kind,
            inserted.map((t) => t.id),
            options,
            versionBefore,
          );
          return { inserted, change, importBatchId };
        })(),
        'transaction',
      );
    },

    /**
     * Replaces every field of the transaction `current` with `tx` (its id, import batch and
     * fingerprint stay; its name unless `tx` gives one), journalled as an `edit` with the row
     * before and after. `executedAt` is stored as its UTC instant.
     */
    update(
      userId: string,
      portfolioId: string,
      current: Transaction,
      tx: NewTransaction,
      options: ChangeOptions = {},
    ): Promise<{ transaction: Transaction; change: PortfolioChange }> {
      return guard(
        (async () => {
          const { change, result } = await journalIn(trx, userId, portfolioId).around(
            'edit',
            current.id,
            options,
            () =>
              trx
                .updateTable('transactions')
                .set({
                  ...toRow(userId, portfolioId, tx, current.importBatchId),
                  fingerprint: current.fingerprint,
                  name: tx.name === undefined ? current.name : tx.name,
                  instrument:
                    tx.instrument === undefined
                      ? current.instrument && JSON.stringify(current.instrument)
                      : tx.instrument && JSON.stringify(tx.instrument),
                })
                .where('id', '=', current.id)
                .where('portfolio_id', '=', portfolioId)
                .returningAll()
                .executeTakeFirstOrThrow(),
          );
          return { transaction: toTransaction(result), change };
        })(),
        'transaction',
      );
    },

    /**
     * Deletes one transaction, journalled as a `delete` with the whole row (a revert brings it
     * back with its id).
     */
    delete(
      userId: string,
      portfolioId: string,
      transactionId: string,
      options: ChangeOptions = {},
    ): Promise<PortfolioChange> {
      return guard(
        journalIn(trx, userId, portfolioId)
          .around('delete', transactionId, options, () =>
            trx
              .deleteFrom('transactions')
              .where('id', '=', transactionId)
              .where('portfolio_id', '=', portfolioId)
              .execute(),
          )
          .then(({ change }) => change),
        'transaction',
      );
    },

    /**
     * Reverts one change of the portfolio (see `RevertOutcome`), journalled as a new `revert`;
     * a `reverted` outcome also answers every transaction the revert touched with its row after
     * it (null: removed).
     * @throws {StoreError} `not_found` for a change of another portfolio or user.
     */
    revert(
      userId: string,
      portfolioId: string,
      changeId: string,
      options: ChangeOptions = {},
    ): Promise<RevertOutcome & { rows?: { id: string; row: Transaction | null }[] }> {
      return guard(
        (async () => {
          const outcome = await journalIn(trx, userId, portfolioId).revert(changeId, options);
          if (outcome.outcome !== 'reverted') return outcome;
          return { ...outcome, rows: await changedRows(trx, [outcome.change.id], 'after') };
        })(),
        'change',
      );
    },

    /**
     * Reassigns every transaction of `symbol` in the portfolio to `to.symbol` and
     * `to.instrument` (the user's correction of a resolution, issue 38), journalled as one
     * `edit` change with every row before and after. Answers how many rows changed and the
     * change.
     * @throws {StoreError} `not_found` for a symbol the portfolio never held.
     */
    reassignInstrument(
      userId: string,
      portfolioId: string,
      symbol: string,
      to: { symbol: string; instrument: Instrument },
      options: ChangeOptions = {},
    ): Promise<{ count: number; change: PortfolioChange }> {
      return guard(
        (async () => {
          const ids = await trx
            .selectFrom('transactions')
            .select('id')
            .where('user_id', '=', userId)
            .where('portfolio_id', '=', portfolioId)
            .where('symbol', '=', symbol)
            .execute();
          if (ids.length === 0) {
            throw new StoreError(
              'not_found',
              `no transaction of ${symbol} in portfolio ${portfolioId}`,
            );
          }
          const { change } = await journalIn(trx, userId, portfolioId).aroundRows(
            ids.map((r) => r.id),
            options,
            () =>
              trx
                .updateTable('transactions')
                .set({ symbol: to.symbol, instrument: JSON.stringify(to.instrument) })
                .where('user_id', '=', userId)
                .where('portfolio_id', '=', portfolioId)
                .where('symbol', '=', symbol)
                .execute(),
          );
          return { count: ids.length, change };
        })(),
        'instrument',
      );
    },

    /**
     * Gives the rows of `from.symbol` in `from.currency` that have no instrument yet (written
     * before migration 0019) their resolved instrument and symbol (the ticker when known, so one
     * instrument held under an ISIN and under its ticker becomes one holding). A data migration,
     * not the user's change: it is not journalled, and the journal's snapshots of those rows are
     * rewritten alike so that reverting an older change still finds them as it left them.
     * Answers how many rows it changed.
     */
    settleInstrument(
      userId: string,
      portfolioId: string,
      from: { symbol: string; currency: string },
      to: { symbol: string; instrument: Instrument },
    ): Promise<number> {
      return guard(
        (async () => {
          const changed = await trx
            .updateTable('transactions')
            .set({ symbol: to.symbol, instrument: JSON.stringify(to.instrument) })
            .where('user_id', '=', userId)
            .where('portfolio_id', '=', portfolioId)
            .where('symbol', '=', from.symbol)
            .where('currency', '=', from.currency)
            .where('instrument', 'is', null)
            .returning('id')
            .execute();
          if (changed.length === 0) return 0;
          const patch = JSON.stringify({ symbol: to.symbol, instrument: to.instrument });
          for (const side of ['before', 'after'] as const) {
            await sql`
              update portfolio_change_rows r set ${sql.id(side)} = r.${sql.id(side)} || ${patch}::jsonb
              from portfolio_changes c
              where c.id = r.change_id and c.portfolio_id = ${portfolioId}::uuid
                and r.transaction_id in (${sql.join(changed.map((c) => sql`${c.id}::uuid`))})
                and r.${sql.id(side)} is not null
                and r.${sql.id(side)}->>'symbol' = ${from.symbol}
                and r.${sql.id(side)}->>'currency' = ${from.currency}
                and jsonb_typeof(r.${sql.id(side)}->'instrument') is distinct from 'object'
            `.execute(trx);
          }
          return changed.length;
        })(),
        'instrument',
      );
    },

    /**
     * Replaces the derived holdings and cash rows of the portfolio: readers see the old set or
     * the new one (the caller's transaction).
     */
    replacePositions: (
      userId: string,
      portfolioId: string,
      positions: Parameters<typeof replacePositionsIn>[3],
    ) => guard(replacePositionsIn(trx, userId, portfolioId, positions), 'positions'),
  };
}

/** The ledger's writes over one unit of work (see {@link createLedgerWrites}). */
export type LedgerWrites = ReturnType<typeof createLedgerWrites>;
