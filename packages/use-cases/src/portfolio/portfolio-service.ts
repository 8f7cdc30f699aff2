import type { FxProvider, PriceHistoryProvider, QuoteProvider } from '@svc/market-data';
import { ColumnMapping, NewTransaction, type Portfolio, type Transaction } from '@svc/portfolio';
import {
  createRepositories,
  type Executor,
  inTransaction,
  type SavedImportMapping,
} from '@svc/portfolio-store';
import type { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { importBrokerFile } from './broker-import.js';
import { type ChangeContext, createChangeFlows, describeTransaction } from './changes.js';
import type { IsinResolver } from './isin-symbols.js';
import { deriveChecked, fromStoreError, readLedger } from './ledger.js';
import { decodeTransaction, encodeTransaction } from './ledger-codec.js';
import type { HoldingPerformance, PortfolioPerformance } from './performance-schemas.js';
import { createPerformanceFlow } from './performance-service.js';
import { createPortfolioReads, ledgerSourceOf } from './portfolio-reads.js';
import { money } from './position-records.js';
import { mergeRevaluations, revaluePortfolio } from './revaluation.js';
import {
  type BrokerImportOptions,
  CreatePortfolioInput,
  type ImportResult,
  RenamePortfolioInput,
  type RevaluationResult,
} from './schemas.js';

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

/**
 * A saved column mapping as listed: its `ColumnMapping`, or null with the reason when the stored
 * row no longer is one.
 */
export type ListedImportMapping = Omit<SavedImportMapping, 'mapping'> &
  ({ mapping: ColumnMapping; unreadable?: undefined } | { mapping: null; unreadable: string });

/** The first issues of a zod error in one line (paths and messages), at most 300 characters. */
function zodSummary(error: z.ZodError): string {
  const text = error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(mapping)'}: ${i.message}`)
    .join('; ');
  return `not a valid column mapping: ${text}`.slice(0, 300);
}

/**
 * Most portfolios one account holds: the most an account import takes
 * (`MAX_IMPORTED_PORTFOLIOS`), so that every account's own export imports again (issue 41).
 */
export const MAX_PORTFOLIOS_PER_ACCOUNT = 200;

/**
 * Refuses a creation of `adding` portfolios that would take the account past
 * {@link MAX_PORTFOLIOS_PER_ACCOUNT}; takes the account's row lock, so call it inside the
 * transaction that creates them.
 *
 * @throws UseCaseError `conflict` naming the count.
 */
export async function ensurePortfolioRoom(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  adding: number,
): Promise<void> {
  const held = await repos.portfolios.countLockingOwner(userId);
  if (held + adding > MAX_PORTFOLIOS_PER_ACCOUNT) {
    throw new UseCaseError(
      'conflict',
      `An account holds at most ${MAX_PORTFOLIOS_PER_ACCOUNT} portfolios; this one holds ${held}` +
        (adding > 1 ? ` and the import brings ${adding}.` : '.') +
        ' Delete one first.',
    );
  }
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
  const reads = createPortfolioReads(repos, {
    // Over a transaction (e.g. a proposal applied) no memo: a version read there may be of
    // uncommitted rows, and a rolled-back counter is reached again by another write.
    memoBytes: deps.db.isTransaction ? 0 : deps.readMemoBytes,
  });

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
     * @throws UseCaseError `validation_failed` for an empty or overlong name or a bad currency;
     *   `conflict` when the account already holds {@link MAX_PORTFOLIOS_PER_ACCOUNT}.
     */
    async createPortfolio(userId: string, input: CreatePortfolioInput): Promise<Portfolio> {
      const fields = parseInput(CreatePortfolioInput, input);
      return inTransaction(deps.db, async (trx) => {
        const tx = createRepositories(trx);
        await ensurePortfolioRoom(tx, userId, 1);
        return tx.portfolios.create(userId, fields);
      });
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

    ...reads,

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
      return performance.portfolio(
        portfolioId,
        await ledgerSourceOf(repos, userId, portfolioId),
        query,
      );
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
      const source = await ledgerSourceOf(repos, userId, portfolioId);
      return performance.holding(portfolioId, symbol, source, query);
    },

    /**
     * The column mappings the user saved for broker files (`saveMapping`), newest first. A stored
     * mapping that is no longer a valid `ColumnMapping` (written by an older version, or by an
     * account import before its entry check) is listed with `mapping: null` and `unreadable`
     * saying why, so that its owner sees it and can delete it: one row never fails the list.
     */
    async listImportMappings(userId: string): Promise<ListedImportMapping[]> {
      return (await repos.importMappings.list(userId)).map((saved) => {
        const parsed = ColumnMapping.safeParse(saved.mapping);
        return parsed.success
          ? { ...saved, mapping: parsed.data }
          : { ...saved, mapping: null, unreadable: zodSummary(parsed.error) };
      });
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
