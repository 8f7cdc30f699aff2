import type { CashPosition, Holding } from '@svc/portfolio';
import type {
  createRepositories,
  PortfolioVersions,
  TransactionQuery as StoreTransactionQuery,
} from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import { fromStoreError, readLedger } from './ledger.js';
import { decodeTransaction, toLedgerTransaction } from './ledger-codec.js';
import type { LedgerSource } from './performance-service.js';
import { toCashPosition, toHolding } from './position-records.js';
import { createReadMemo, versionStamp } from './read-memo.js';
import type { TransactionListQuery, TransactionPage } from './schemas.js';
import { toStoreQuery } from './transaction-query.js';

type Repositories = ReturnType<typeof createRepositories>;

/**
 * The memoised reads of `createPortfolioService`: holdings, cash and transaction pages, each
 * answered again from a memo while the portfolios' version counters it was read at are unchanged
 * (see {@link createReadMemo}).
 *
 * @param options.memoBytes - bound of the memo in estimated bytes; 0 turns it off (as over a
 *   database transaction, whose version reads may be of uncommitted rows)
 */
export function createPortfolioReads(
  repos: Repositories,
  options: { readonly memoBytes?: number | undefined },
) {
  const reads = createReadMemo(options.memoBytes);

  /**
   * A read of stored positions (`holdings` or `cash` rows), memoised on the portfolios'
   * `positions_version` (see {@link createReadMemo}); `read` maps the rows of `portfolioId`, or
   * of all the user's portfolios when it is absent.
   * @throws UseCaseError `not_found` for a `portfolioId` the user does not own.
   */
  async function positionsRead<T>(
    kind: 'holdings' | 'cash',
    userId: string,
    portfolioId: string | undefined,
    read: (portfolioId: string | undefined) => Promise<T[]>,
  ): Promise<T[]> {
    const versions = await versionsOf(userId, portfolioId);
    return reads.serve(
      `${kind}\u0000${userId}\u0000${portfolioId ?? '*'}`,
      versionStamp(versions, 'positionsVersion'),
      () => read(portfolioId),
      (rows) => rows.length,
    );
  }

  /**
   * The version counters of the portfolios a read covers: of `portfolioId`, or of every portfolio
   * of the user when it is absent. One indexed read, which is also the ownership check.
   * @throws UseCaseError `not_found` for a `portfolioId` the user does not own.
   */
  async function versionsOf(
    userId: string,
    portfolioId: string | undefined,
  ): Promise<PortfolioVersions[]> {
    const versions = await repos.portfolios.versions(userId, { portfolioId });
    if (portfolioId !== undefined && versions.length === 0)
      throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
    return versions;
  }

  return {
    /**
     * The stored holdings (of one portfolio, or of all the user's), by portfolio then symbol, with
     * the EUR values and `valuedAt` of the last revaluation. Reads never fetch prices.
     *
     * Memoised (see {@link createReadMemo}): every call reads the portfolios' positions versions
     * (`portfolios.positions_version`, bumped in the transaction of every write of their holdings
     * or cash rows, by any process); while they are unchanged the same frozen array is answered
     * again without reading or mapping the rows. The answer must not be mutated.
     * @throws UseCaseError `not_found` for a `portfolioId` the user does not own.
     */
    async listHoldings(userId: string, options: { portfolioId?: string } = {}): Promise<Holding[]> {
      return positionsRead('holdings', userId, options.portfolioId, async (portfolioId) =>
        (await repos.positions.listHoldings(userId, { portfolioId })).map(toHolding),
      );
    },

    /**
     * The stored cash positions, like {@link listHoldings} (memoised on the same versions; the
     * answer must not be mutated). @throws UseCaseError `not_found`.
     */
    async listCash(
      userId: string,
      options: { portfolioId?: string } = {},
    ): Promise<CashPosition[]> {
      return positionsRead('cash', userId, options.portfolioId, async (portfolioId) =>
        (await repos.positions.listCash(userId, { portfolioId })).map(toCashPosition),
      );
    },

    /**
     * One page of the user's transactions, newest first; filters by portfolio and by date (both
     * bounds inclusive; see `toStoreQuery`); keyset pagination through `nextCursor`.
     *
     * Memoised like {@link listHoldings}, per filter and page (cursor and limit), on the ledger
     * versions (`portfolios.ledger_version`): a page shows nothing but transactions rows, and
     * every write of one, by any process, bumps its portfolio's counter. The answer must not be
     * mutated.
     * @throws UseCaseError `validation_failed` (bad filter, limit outside 1–100, malformed
     *   cursor), `not_found` (portfolio; checked first, before the cursor).
     */
    async listTransactions(
      userId: string,
      query: TransactionListQuery = {},
    ): Promise<TransactionPage> {
      const storeQuery = toStoreQuery(query);
      const versions = await versionsOf(userId, storeQuery.portfolioId);
      return reads.serve(
        `transactions\u0000${userId}\u0000${pageKey(storeQuery)}`,
        versionStamp(versions, 'ledgerVersion'),
        async () => {
          const page = await repos.transactions
            .list(userId, storeQuery)
            .catch((error: unknown) => fromStoreError(error, 'cursor'));
          return {
            items: page.items.map((row) => decodeTransaction(row)),
            nextCursor: page.nextCursor,
          };
        },
        (page) => page.items.length,
      );
    },
  };
}

/**
 * The portfolio's ledger version (one indexed read, also the ownership check) and a reader of its
 * ledger, for the performance flow's cache.
 */
export async function ledgerSourceOf(
  repos: Repositories,
  userId: string,
  portfolioId: string,
): Promise<LedgerSource> {
  const version = await repos.portfolios.ledgerVersion(userId, portfolioId);
  if (version === undefined)
    throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
  return {
    version,
    read: () => readLedger(repos.transactions, userId, portfolioId),
    async patch(from, ledger) {
      const writes = await repos.transactions.ledgerPatch(userId, portfolioId, from, version);
      if (writes === undefined) return undefined;
      const byId = new Map(ledger.map((tx) => [tx.id, tx] as const));
      for (const { id, row } of writes) {
        if (row === null) byId.delete(id);
        else byId.set(id, toLedgerTransaction(row));
      }
      return [...byId.values()];
    },
    stillAt: async () => (await repos.portfolios.ledgerVersion(userId, portfolioId)) === version,
  };
}

/** What a transactions page is keyed by in the memo: every field of the store's query. */
function pageKey(query: StoreTransactionQuery): string {
  return JSON.stringify([
    query.portfolioId ?? null,
    query.from?.getTime() ?? null,
    query.to?.getTime() ?? null,
    query.symbol ?? null,
    query.type ?? null,
    query.limit ?? null,
    query.cursor ?? null,
  ]);
}
