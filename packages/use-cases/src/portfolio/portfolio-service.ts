import type {
  FxProvider,
  OpenFigiClient,
  PriceHistoryProvider,
  QuoteProvider,
} from '@svc/market-data';
import { NewTransaction, type Portfolio, StoredMapping, type Transaction } from '@svc/portfolio';
import {
  createLedgerWrites,
  createRepositories,
  type Executor,
  inTransaction,
  type SavedImportMapping,
  type Portfolio as StoredPortfolio,
} from '@svc/portfolio-store';
import { type Instrument, InstrumentAssignment } from '@svc/schemas';
import type { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { type ImportContext, importBrokerFile } from './broker-import.js';
import { changeLedger, instrumentsOf, revaluePortfolio } from './change-ledger.js';
import { describeTransaction } from './change-summaries.js';
import { type ChangeContext, createChangeFlows } from './changes.js';
import { entityTag, requireMatch } from './entity-tags.js';
import {
  createInstrumentResolver,
  type InstrumentFile,
  type InstrumentHint,
  instrumentSymbol,
} from './instruments.js';
import type { IsinResolver } from './isin-symbols.js';
import {
  decodeTransaction,
  encodeTransaction,
  pendingInstrument,
  toLedgerTransaction,
} from './ledger-codec.js';
import type { HoldingPerformance, PortfolioPerformance } from './performance-schemas.js';
import { createPerformanceFlow } from './performance-service.js';
import { createPortfolioReads, ledgerSourceOf } from './portfolio-reads.js';
import { money } from './position-records.js';
import { mergeRevaluations } from './revaluation.js';
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
  /** ISIN → quote symbol for broker imports (`ISIN_SYMBOLS_FILE`), a `file` resolution step. */
  readonly isinSymbols?: IsinResolver;
  /**
   * OpenFIGI's mapping client (`OPENFIGI_URL`, issue 38); absent or null: instruments resolve
   * offline (the export, the user's assignments, SEC's ticker list, the bundled resolver file).
   */
  readonly openFigi?: Pick<OpenFigiClient, 'map'> | null;
  /** The offline resolver file; default the bundled one (`OFFLINE_INSTRUMENT_FILE`). */
  readonly instrumentFile?: InstrumentFile;
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
 * A saved import mapping as listed: its `StoredMapping`, or null with the reason when the stored
 * row no longer is one.
 */
export type ListedImportMapping = Omit<SavedImportMapping, 'mapping'> &
  ({ mapping: StoredMapping; unreadable?: undefined } | { mapping: null; unreadable: string });

/** The first issues of a zod error in one line (paths and messages), at most 300 characters. */
function zodSummary(error: z.ZodError): string {
  const text = error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(mapping)'}: ${i.message}`)
    .join('; ');
  return `not a valid format definition or column mapping: ${text}`.slice(0, 300);
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

  /**
   * `work` on the user's portfolio, unconditionally, or (with `ifMatch`) in one transaction that
   * locks the portfolio row and checks its tag first (`precondition_failed` when it moved).
   */
  const underMatch = <T>(
    userId: string,
    portfolioId: string,
    ifMatch: string | undefined,
    work: (scoped: ReturnType<typeof createRepositories>) => Promise<T>,
  ): Promise<T> => {
    if (ifMatch === undefined) return work(repos);
    return deps.db.transaction().execute(async (trx) => {
      const scoped = createRepositories(trx);
      if (!(await scoped.portfolios.lockForUpdate(userId, portfolioId))) {
        throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      }
      const current = await scoped.portfolios.get(userId, portfolioId);
      requireMatch(
        ifMatch,
        current && portfolioTag(toPortfolio(current)),
        `portfolio ${portfolioId}`,
      );
      return work(scoped);
    });
  };
  const instruments = createInstrumentResolver({
    db: deps.db,
    openFigi: deps.openFigi ?? null,
    now: deps.now,
    ...(deps.instrumentFile ? { file: deps.instrumentFile } : {}),
    ...(deps.isinSymbols ? { isinSymbols: deps.isinSymbols } : {}),
  });
  const resolveOne = async (userId: string, hint: InstrumentHint): Promise<Instrument> =>
    (await instruments.resolve(userId, [hint]))[0] as Instrument;
  const changes = createChangeFlows({ ...deps, resolveInstrument: resolveOne });
  const importDeps = { ...deps, instruments };
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
      return (await repos.portfolios.list(userId)).map(toPortfolio);
    },

    /**
     * One of the user's portfolios, as {@link listPortfolios} shows it (its `ETag` is
     * `portfolioTag` of it).
     * @throws UseCaseError `not_found` (also another user's portfolio).
     */
    async getPortfolio(userId: string, portfolioId: string): Promise<Portfolio> {
      const found = await repos.portfolios.get(userId, portfolioId);
      if (!found) throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      return toPortfolio(found);
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
     * Renames one of the user's portfolios; with `context.ifMatch` (the portfolio's `ETag`) only
     * while the portfolio is as it was read (checked with its row locked).
     * @throws UseCaseError `validation_failed` (name), `not_found`, `precondition_failed`.
     */
    async renamePortfolio(
      userId: string,
      portfolioId: string,
      name: string,
      context: Pick<ChangeContext, 'ifMatch'> = {},
    ): Promise<Portfolio> {
      const fields = parseInput(RenamePortfolioInput, { name });
      const renamed = await underMatch(userId, portfolioId, context.ifMatch, (scoped) =>
        scoped.portfolios.rename(userId, portfolioId, fields.name),
      );
      if (!renamed) throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      return toPortfolio(renamed);
    },

    /**
     * Deletes one of the user's portfolios with everything that follows from it or hangs off it:
     * its transactions, holdings, cash positions and change journal go with it (the store's
     * cascades), in one statement that waits for a writer holding the portfolio's lock (an import
     * in progress ends first). Column mappings saved for broker files belong to the account, not
     * to a portfolio, and stay. Reads on every process see the portfolio gone at once (its
     * versions are gone: `not_found`, and the all-portfolios key changes). With `context.ifMatch`
     * (the portfolio's `ETag`) only while the portfolio is as it was read.
     * @throws UseCaseError `not_found` (also another user's portfolio), `precondition_failed`.
     */
    async deletePortfolio(
      userId: string,
      portfolioId: string,
      context: Pick<ChangeContext, 'ifMatch'> = {},
    ): Promise<void> {
      const deleted = await underMatch(userId, portfolioId, context.ifMatch, (scoped) =>
        scoped.portfolios.delete(userId, portfolioId),
      );
      if (!deleted) {
        throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      }
    },

    /**
     * Records one transaction: one `changeLedger` (quotes first; then the insert, its journal
     * entry, the check of the whole ledger and the revalued positions in one database
     * transaction: nothing is stored when the check fails).
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
      const given = parseInput(NewTransaction, input);
      // the instrument of its symbol (issue 38), resolved before the write (it may ask a service)
      const instrument = given.symbol
        ? await resolveOne(userId, { symbol: given.symbol, currency: given.currency })
        : undefined;
      const tx =
        instrument && given.symbol
          ? { ...given, symbol: instrumentSymbol(instrument, given.symbol) }
          : given;
      const row = encodeTransaction(tx, instrument ?? null);
      const { result: stored } = await changeLedger(deps, userId, portfolioId, {
        breaks: { path: 'quantity' },
        guard: context.guard,
        project: (before) => [...before.map(toLedgerTransaction), { ...tx, id: 'new' }],
        write: async ({ writes }, before) => {
          const { inserted } = await writes.insert(userId, portfolioId, [row], {
            source: context.source ?? 'rest',
            summary: `Recorded ${describeTransaction(tx)}`,
          });
          const [recorded] = inserted;
          if (!recorded)
            throw new UseCaseError('validation_failed', 'transaction was not inserted');
          return { result: recorded, after: [...before, recorded] };
        },
      });
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
      context: ImportContext = {},
    ): Promise<ImportResult> {
      return importBrokerFile(importDeps, userId, portfolioId, text, options, context);
    },

    /**
     * The user's correction of an instrument's resolution (issue 38): every transaction of
     * `symbol` in the portfolio is reassigned to the instrument `assignment` names (resolution
     * `user`; fields not given keep the current instrument's), and stored under its symbol (the
     * ticker when given), so a holding the user says is another one merges with it. Journalled
     * as one `edit` change (revertible like every change); later imports and records of the
     * same ISIN or symbol by this user take the assignment. Revalues the portfolio.
     * @throws UseCaseError `validation_failed` (assignment), `not_found` (portfolio, or a symbol
     *   it never held).
     */
    async assignInstrument(
      userId: string,
      portfolioId: string,
      symbol: string,
      assignment: unknown,
      context: ChangeContext = {},
    ): Promise<{
      symbol: string;
      instrument: Instrument;
      transactionCount: number;
      changeId: string;
    }> {
      const given = parseInput(InstrumentAssignment, assignment, 'body');
      const current = instrumentsOf(await repos.transactions.listAll(userId, portfolioId)).get(
        symbol,
      );
      const ledger = await repos.transactions.list(userId, { portfolioId, symbol, limit: 1 });
      const first = ledger.items[0];
      if (!first) {
        throw new UseCaseError(
          'not_found',
          `portfolio ${portfolioId} has no transaction of ${symbol}`,
        );
      }
      const base = current ?? pendingInstrument(symbol, first.currency, first.name);
      const keepsListing = given.ticker === undefined && given.isin === undefined;
      const cik = given.cik ? given.cik.padStart(10, '0') : keepsListing ? base.cik : undefined;
      const name = given.name ?? base.name;
      const isin = given.isin ?? (given.ticker === undefined ? base.isin : undefined);
      const ticker = given.ticker ?? (given.isin === undefined ? base.ticker : undefined);
      const mic = given.mic ?? (given.ticker === undefined ? base.mic : undefined);
      const instrument: Instrument = {
        ...(isin ? { isin } : {}),
        ...(ticker ? { ticker } : {}),
        ...(mic ? { mic } : {}),
        currency: given.currency ?? base.currency,
        ...(name ? { name } : {}),
        kind: given.kind ?? (base.kind === 'other' ? 'share' : base.kind),
        ...(cik ? { cik } : {}),
        resolution: 'user',
      };
      const target = instrumentSymbol(instrument, symbol);
      const { result } = await changeLedger(deps, userId, portfolioId, {
        breaks: { path: 'body' },
        inputPath: 'symbol',
        guard: context.guard,
        project: (before) =>
          before
            .map(toLedgerTransaction)
            .map((t) => (t.symbol === symbol ? { ...t, symbol: target } : t)),
        write: async ({ writes, repos: scoped }) => {
          const reassigned = await writes.reassignInstrument(
            userId,
            portfolioId,
            symbol,
            { symbol: target, instrument },
            {
              source: context.source ?? 'rest',
              summary: `Assigned ${symbol} to ${[ticker, mic, isin].filter(Boolean).join(' ') || target}`,
            },
          );
          return {
            result: reassigned,
            after: await scoped.transactions.listAll(userId, portfolioId),
          };
        },
      });
      const { count, change } = result;
      return { symbol: target, instrument, transactionCount: count, changeId: change.id };
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
     * The start-up pass of issue 38 over rows stored before instruments (migration 0019): each
     * (portfolio, symbol, currency) without an instrument is resolved (offline file, SEC, the
     * user's assignments, OpenFIGI when configured) and its rows get the instrument and its
     * symbol (the ticker when known), so a holding kept under an ISIN and one under its ticker
     * become one; no row is lost, and the journal's snapshots follow (see `settleInstrument`).
     * The portfolios touched are revalued. Symbols OpenFIGI could not be asked about while it
     * failed stay pending for the next pass. Answers how many rows and portfolios it settled.
     */
    async resolvePendingInstruments(
      options: { batch?: number } = {},
    ): Promise<{ rows: number; portfolios: number }> {
      let rows = 0;
      const touched = new Map<string, string>();
      const skipped = new Set<string>();
      for (;;) {
        const pending = (await repos.transactions.pendingInstruments(options.batch ?? 500)).filter(
          (p) => !skipped.has(`${p.portfolioId} ${p.symbol} ${p.currency}`),
        );
        if (pending.length === 0) break;
        const byUser = new Map<string, typeof pending>();
        for (const p of pending) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
        for (const [userId, list] of byUser) {
          const { instruments: found, figiDown } = await instruments.resolveDetailed(
            userId,
            list.map((p) => ({
              symbol: p.symbol,
              currency: p.currency,
              ...(p.name ? { name: p.name } : {}),
            })),
          );
          for (const [i, p] of list.entries()) {
            const instrument = found[i] as Instrument;
            if (figiDown && instrument.resolution === 'unresolved') {
              skipped.add(`${p.portfolioId} ${p.symbol} ${p.currency}`);
              continue;
            }
            const settled = await deps.db.transaction().execute(async (trx) => {
              const scoped = createRepositories(trx);
              if (!(await scoped.portfolios.lockForUpdate(userId, p.portfolioId))) return 0;
              return createLedgerWrites(trx).settleInstrument(
                userId,
                p.portfolioId,
                { symbol: p.symbol, currency: p.currency },
                { symbol: instrumentSymbol(instrument, p.symbol), instrument },
              );
            });
            if (settled === 0) skipped.add(`${p.portfolioId} ${p.symbol} ${p.currency}`);
            rows += settled;
            if (settled > 0) touched.set(p.portfolioId, userId);
          }
        }
      }
      for (const [portfolioId, userId] of touched) {
        await revalueOne(userId, portfolioId, deps.now()).catch((error: unknown) => {
          // a ledger that no longer derives (it did not before either) keeps its old positions
          if (!(error instanceof UseCaseError)) throw error;
        });
      }
      return { rows, portfolios: touched.size };
    },

    /**
     * The column mappings the user saved for broker files (`saveMapping`), newest first. A stored
     * mapping that is no longer a valid `StoredMapping` (written by an older version, or by an
     * account import before its entry check) is listed with `mapping: null` and `unreadable`
     * saying why, so that its owner sees it and can delete it: one row never fails the list.
     */
    async listImportMappings(userId: string): Promise<ListedImportMapping[]> {
      return (await repos.importMappings.list(userId)).map((saved) => {
        const parsed = StoredMapping.safeParse(saved.mapping);
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

/** A stored portfolio as the contract shows it: its realised P&L in EUR at 2 decimals, once valued. */
function toPortfolio({ realizedPnlEur, ...portfolio }: StoredPortfolio): Portfolio {
  const realized = realizedPnlEur === undefined ? null : money(realizedPnlEur);
  return realized === null ? portfolio : { ...portfolio, realizedPnlEur: realized };
}

/** The entity tag (`ETag`) of a portfolio: {@link entityTag} of its contract representation. */
export function portfolioTag(portfolio: Portfolio): string {
  return entityTag(portfolio);
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
