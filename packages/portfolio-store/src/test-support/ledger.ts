/**
 * Test-only: the ledger's writes as a flow makes them (one database transaction, the portfolio
 * row locked once, ownership checked by the lock), for this package's own suites, which test the
 * writes and the journal, not the flows of `@svc/use-cases`.
 */
import { StoreError } from '../errors.js';
import { createRepositories } from '../repositories/index.js';
import type { ChangeOptions } from '../repositories/journal.js';
import { createLedgerWrites, type UnitOfWork } from '../repositories/ledger-writes.js';
import type { NewCashPosition, NewHolding } from '../repositories/positions.js';
import type { Executor } from '../repositories/shared.js';
import type { NewTransaction } from '../repositories/transaction-rows.js';

/** The ledger's writes over `db`, each in a unit of work of its own that locks the portfolio. */
export function testLedger(db: Executor) {
  const unit = <T>(
    userId: string,
    portfolioId: string,
    work: (writes: ReturnType<typeof createLedgerWrites>, trx: UnitOfWork) => Promise<T>,
  ): Promise<T> =>
    db.transaction().execute(async (trx) => {
      if (!(await createRepositories(trx).portfolios.lockForUpdate(userId, portfolioId))) {
        throw new StoreError('not_found', `portfolio ${portfolioId} not found`);
      }
      return work(createLedgerWrites(trx), trx);
    });
  const current = async (trx: UnitOfWork, userId: string, portfolioId: string, id: string) => {
    const row = await createRepositories(trx).transactions.get(userId, portfolioId, id);
    if (!row) throw new StoreError('not_found', `transaction ${id} not found`);
    return row;
  };
  const record = (userId: string, portfolioId: string, tx: NewTransaction, o: ChangeOptions = {}) =>
    unit(userId, portfolioId, async (w) => {
      const { inserted, change } = await w.insert(userId, portfolioId, [tx], o);
      const [transaction] = inserted;
      if (!transaction) throw new Error('not inserted');
      return { transaction, change };
    });
  return {
    record,
    insert: async (userId: string, portfolioId: string, tx: NewTransaction) =>
      (await record(userId, portfolioId, tx)).transaction,
    importMany: (
      userId: string,
      portfolioId: string,
      txs: readonly NewTransaction[],
      options: ChangeOptions & { importBatchId?: string } = {},
    ) =>
      unit(userId, portfolioId, async (w) => {
        const written = await w.insert(userId, portfolioId, txs, { ...options, kind: 'import' });
        return {
          importBatchId: written.importBatchId,
          items: written.inserted,
          change: written.change,
        };
      }),
    update: (
      userId: string,
      portfolioId: string,
      id: string,
      tx: NewTransaction,
      options: ChangeOptions = {},
    ) =>
      unit(userId, portfolioId, async (w, trx) =>
        w.update(userId, portfolioId, await current(trx, userId, portfolioId, id), tx, options),
      ),
    delete: (userId: string, portfolioId: string, id: string, options: ChangeOptions = {}) =>
      unit(userId, portfolioId, async (w, trx) => {
        const transaction = await current(trx, userId, portfolioId, id);
        return { transaction, change: await w.delete(userId, portfolioId, id, options) };
      }),
    revertChange: (userId: string, portfolioId: string, changeId: string, o: ChangeOptions = {}) =>
      unit(userId, portfolioId, async (w) => {
        const { rows: _rows, ...outcome } = await w.revert(userId, portfolioId, changeId, o);
        return outcome;
      }),
    replaceForPortfolio: (
      userId: string,
      portfolioId: string,
      positions: { holdings: readonly NewHolding[]; cash: readonly NewCashPosition[] },
    ) => unit(userId, portfolioId, (w) => w.replacePositions(userId, portfolioId, positions)),
  };
}
