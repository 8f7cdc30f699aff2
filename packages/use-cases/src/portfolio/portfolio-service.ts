import type { FxProvider, PriceHistoryProvider, QuoteProvider } from '@svc/market-data';
import {
  type CashPosition,
  type Holding,
  NewTransaction,
  type Portfolio,
  type Transaction,
} from '@svc/portfolio';
import {
  createRepositories,
  type Executor,
  type PortfolioVersions,
  type SavedImportMapping,
  type TransactionQuery as StoreTransactionQuery,
} from '@svc/portfolio-store';
import type { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { importBrokerFile } from './broker-import.js';
import { type ChangeContext, createChangeFlows, describeTransaction } from './changes.js';
import type { IsinResolver } from './isin-symbols.js';
import { deriveChecked, fromStoreError, readLedger } from './ledger.js';
import { decodeTransaction, encodeTransaction, toLedgerTransaction } from './ledger-codec.js';
import type { HoldingPerformance, PortfolioPerformance } from './performance-schemas.js';
import { createPerformanceFlow, type LedgerSource } from './performance-service.js';
import { money, toCashPosition, toHolding } from './position-records.js';
import { createReadMemo, versionStamp } from './read-memo.js';
import { mergeRevaluations, revaluePortfolio } from './revaluation.js';
import {
  type BrokerImportOptions,
  CreatePortfolioInput,
  type ImportResult,
  RenamePortfolioInput,
  type RevaluationResult,
  type TransactionListQuery,
  type TransactionPage,
} from './schemas.js';
import { toStoreQuery } from './transaction-query.js';

/** Dependencies of {@link createPortfolioService}. */
export interface PortfolioServiceDeps {
  /** The Kysely instance of `@svc/portfolio-store` (`createDatabase(...).db`), migrated. */
  readonly db: Executor;
  /** Prices holdings on revaluation; null: holdings are stored without market values. */
  readonly quotes: QuoteProvider | null;
  /** EUR reference rates (ECB); null: only EUR positions get EUR values. */
  readonly fx: FxProvider | null;
  /** The clock: the valuation instant (`valuedAt`) and the day quotes and rates are taken for. */
  readonly now: () => Date;
  /** ISIN → quote symbol for broker imports (`ISIN_SYMBOLS_FILE`); absent: ISINs stay symbols. */
  readonly isinSymbols?: IsinResolver;
  /** Daily closes for performance figures; absent or null: returns `unavailable` (missing_price). */
  readonly history?: PriceHistoryProvider | null;
  /**
   * Bound of the memo of finished holdings, cash and transactions reads, in estimated bytes
   * (`READ_MEMO_BYTES`, 32 MiB, by default; see `createReadMemo`); 0 turns it off, and so does a
   * `db` that is a transaction.
   */
  readonly readMemoBytes?: number;
}

/** Options of {@link PortfolioService.importBrokerCsv}: {@link BrokerImportOptions}. */
export type ImportBrokerCsvOptions = BrokerImportOptions;

/**
 * The portfolio flows of the service, shared by the REST API and the MCP server. Every method
 * takes the signed-in user's id and only ever reads or changes that user's rows: another user's
 * portfolio answers `not_found`, exactly like a missing one.
 *
 * Holdings and cash are never written directly: they follow from the transactions. Recording a
 * transaction or importing a file re-derives and revalues the portfolio before returning.
 * Revaluation prices each symbol through the quote provider and converts with ECB rates from the
 * FX provider (both cached in the database, see `gatherMarketInputs`); when a quote or rate is
 * missing, quantities and cost are stored anyway and the market values are null (never 0).
 *
 * @example
 * ```ts
 * const portfolios = createPortfolioService({ db: database.db, quotes, fx, now: () => new Date() });
 * const p = await portfolios.createPortfolio(userId, { name: 'Main' });
 * await portfolios.recordTransaction(userId, p.id, { type: 'buy', symbol: 'AAPL', quantity: '10',
 *   price: '180', currency: 'USD', executedAt: '2024-03-01T15:00:00Z' });
 * const holdings = await portfolios.listHoldings(userId, { portfolioId: p.id });
 * // [{ symbol: 'AAPL', quantity: '10', marketValueEur: '1661.5185424951', valuedAt: '…', … }]
 * ```
 */
export function createPortfolioService(deps: PortfolioServiceDeps) {
  const repos = createRepositories(deps.db);

  // Over a transaction (e.g. a proposal applied) no memo: a version read there may be of
  // uncommitted rows, and a rolled-back counter is reached again by another write.
  const reads = createReadMemo(deps.db.isTransaction ? 0 : deps.readMemoBytes);

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

  /**
   * The portfolio's ledger version (one indexed read, also the ownership check) and a reader of its
   * ledger, for the performance flow's cache.
   */
  async function ledgerSource(userId: string, portfolioId: string): Promise<LedgerSource> {
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

  const revalueOne = (userId: string, portfolioId: string, at: Date) =>
    revaluePortfolio(deps, userId, portfolioId, at);
  const changes = createChangeFlows({ db: deps.db, now: deps.now, revalue: revalueOne });
  const performance = createPerformanceFlow({
    history: deps.history ?? null,
    fx: deps.fx,
    now: deps.now,
  });

  return {
    /**
     * The user's portfolios, oldest first, each with its realised P&L in EUR (2 decimals) once
     * valued.
     */
    async listPortfolios(userId: string): Promise<Portfolio[]> {
      return (await repos.portfolios.list(userId)).map(({ realizedPnlEur, ...portfolio }) => {
        const realized = realizedPnlEur === undefined ? null : money(realizedPnlEur);
        return realized === null ? portfolio : { ...portfolio, realizedPnlEur: realized };
      });
    },

    /**
     * Creates a portfolio (`baseCurrency` default EUR).
     * @throws UseCaseError `validation_failed` for an empty or overlong name or a bad currency.
     */
    async createPortfolio(userId: string, input: CreatePortfolioInput): Promise<Portfolio> {
      const fields = parseInput(CreatePortfolioInput, input);
      return repos.portfolios.create(userId, fields);
    },

    /**
     * Renames one of the user's portfolios.
     * @throws UseCaseError `validation_failed` (name), `not_found`.
     */
    async renamePortfolio(userId: string, portfolioId: string, name: string): Promise<Portfolio> {
      const fields = parseInput(RenamePortfolioInput, { name });
      const renamed = await repos.portfolios.rename(userId, portfolioId, fields.name);
      if (!renamed) throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      return renamed;
    },

    /**
     * Deletes one of the user's portfolios with everything that follows from it or hangs off it:
     * its transactions, holdings, cash positions and change journal go with it (the store's
     * cascades), in one statement that waits for a writer holding the portfolio's lock (an import
     * in progress ends first). Column mappings saved for broker files belong to the account, not
     * to a portfolio, and stay. Reads on every process see the portfolio gone at once (its
     * versions are gone: `not_found`, and the all-portfolios key changes).
     * @throws UseCaseError `not_found` (also another user's portfolio).
     */
    async deletePortfolio(userId: string, portfolioId: string): Promise<void> {
      if (!(await repos.portfolios.delete(userId, portfolioId))) {
        throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      }
    },

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
          return { items: page.items.map(decodeTransaction), nextCursor: page.nextCursor };
        },
        (page) => page.items.length,
      );
    },

    /**
     * Records one transaction, then revalues the portfolio. The insert and the check of the whole
     * ledger run in one database transaction: nothing is stored when the check fails.
     * @throws UseCaseError `validation_failed` for input that is not a `NewTransaction`, a sell of
     *   more units than held at that moment, or a symbol already held in another currency;
     *   `not_found` for a portfolio the user does not own.
     */
    async recordTransaction(
      userId: string,
      portfolioId: string,
      input: z.input<typeof NewTransaction>,
      context: ChangeContext = {},
    ): Promise<Transaction> {
      const tx = parseInput(NewTransaction, input);
      const stored = await deps.db
        .transaction()
        .execute(async (trx) => {
          const scoped = createRepositories(trx);
          const row = await scoped.transactions.insert(userId, portfolioId, encodeTransaction(tx), {
            source: context.source ?? 'rest',
            summary: `Recorded ${describeTransaction(tx)}`,
          });
          deriveChecked(await readLedger(scoped.transactions, userId, portfolioId), 'quantity');
          return row;
        })
        .catch((error: unknown) => fromStoreError(error, 'transaction'));
      await revalueOne(userId, portfolioId, deps.now());
      return decodeTransaction(stored);
    },

    /**
     * Imports a broker export (see `importBrokerFile`; with `dryRun`, `previewBrokerImport`):
     * all or nothing, idempotent by fingerprint, holdings and cash stored in the same database
     * transaction; journalled as one `import` change (`context.source`, default `rest`) whose
     * revert removes exactly the rows it added.
     * @throws UseCaseError `validation_failed` (failing rows, `path: 'line N'`; bad options),
     *   `not_found` (portfolio).
     */
    importBrokerCsv(
      userId: string,
      portfolioId: string,
      text: string,
      options: BrokerImportOptions = {},
      context: ChangeContext = {},
    ): Promise<ImportResult> {
      return importBrokerFile(deps, userId, portfolioId, text, options, context);
    },

    ...changes,

    /**
     * Time- and money-weighted returns of one portfolio in EUR, with the currency effect apart,
     * over `query` (`PerformanceQuery`: period, from, to, series); see `createPerformanceFlow`.
     * @throws UseCaseError `not_found` (portfolio), `validation_failed` (query).
     */
    async getPerformance(
      userId: string,
      portfolioId: string,
      query: unknown = {},
    ): Promise<PortfolioPerformance> {
      return performance.portfolio(portfolioId, await ledgerSource(userId, portfolioId), query);
    },

    /**
     * The same for one holding, by symbol, in EUR and in its own currency.
     * @throws UseCaseError `not_found` (portfolio, or a symbol it never held), `validation_failed`.
     */
    async getHoldingPerformance(
      userId: string,
      portfolioId: string,
      symbol: string,
      query: unknown = {},
    ): Promise<HoldingPerformance> {
      const source = await ledgerSource(userId, portfolioId);
      return performance.holding(portfolioId, symbol, source, query);
    },

    /** The column mappings the user saved for broker files (`saveMapping`), newest first. */
    listImportMappings(userId: string): Promise<SavedImportMapping[]> {
      return repos.importMappings.list(userId);
    },

    /**
     * Deletes one of the user's saved column mappings.
     * @throws UseCaseError `not_found` (no such mapping of this user).
     */
    async deleteImportMapping(userId: string, id: string): Promise<void> {
      if (!(await repos.importMappings.delete(userId, id))) {
        throw new UseCaseError('not_found', `import mapping ${id} not found`);
      }
    },

    /**
     * Re-derives and revalues one portfolio, or every portfolio of the user, as of `now()`, and
     * stores the values. Returns what was stored.
     * @throws UseCaseError `not_found` (portfolio).
     */
    async revalue(userId: string, portfolioId?: string): Promise<RevaluationResult> {
      const at = deps.now();
      if (portfolioId !== undefined) return revalueOne(userId, portfolioId, at);
      const results: RevaluationResult[] = [];
      for (const portfolio of await repos.portfolios.list(userId)) {
        results.push(await revalueOne(userId, portfolio.id, at));
      }
      return mergeRevaluations(at, results);
    },
  };
}

/** The portfolio flows; see {@link createPortfolioService}. */
export type PortfolioService = ReturnType<typeof createPortfolioService>;

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

/** Parses input with `schema`; problems become a `validation_failed` UseCaseError. */
function parseInput<S extends z.ZodType>(schema: S, input: unknown, root = ''): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new UseCaseError('validation_failed', 'invalid input', {
    errors: parsed.error.issues.map((issue) => ({
      path: [root, ...issue.path.map(String)].filter(Boolean).join('.') || 'body',
      message: issue.message,
    })),
  });
}
