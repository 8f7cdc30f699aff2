import {
  type DerivedPortfolio,
  type DeriveOptions,
  deriveHoldings,
  type LedgerTransaction,
  PortfolioError,
} from '@svc/portfolio';
import {
  createLedgerWrites,
  createRepositories,
  type Executor,
  type LedgerWrites,
  type Repositories,
  type Transaction as StoredTransaction,
  type UnitOfWork,
} from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { UseCaseError } from '../errors.js';
import { utcDay } from './decimal-text.js';
import { deriveChecked, fromStoreError } from './ledger.js';
import { toLedgerTransaction } from './ledger-codec.js';
import {
  gatherMarketInputs,
  historicEurRates,
  type MarketInputs,
  type MarketInputsDeps,
} from './market-inputs.js';
import { storeValuation } from './revaluation.js';
import type { RevaluationResult } from './schemas.js';

/** What {@link changeLedger} needs: the database, the market data and the clock. */
export interface LedgerChangeDeps extends Omit<MarketInputsDeps, 'marketData'> {
  /** The Kysely instance (not a transaction: the change opens its own). */
  readonly db: Executor;
  /** The valuation instant of the positions stored with the change. */
  readonly now: () => Date;
}

/** The unit of work a change writes in: the transaction, its repositories and the ledger writes. */
export interface LedgerUnit {
  readonly trx: UnitOfWork;
  /** Every repository over `trx` (reads of the locked portfolio, import mappings, …). */
  readonly repos: Repositories;
  /** The writes of the ledger, its journal and its positions over `trx`. */
  readonly writes: LedgerWrites;
}

/**
 * How a ledger that no longer derives (a sale beyond the units held, a symbol in two currencies)
 * is answered: `validation_failed` on `path` (the input was wrong: a record, an import), or a
 * `conflict` naming the sale (a correction that would break a ledger that holds), with, when
 * `namesChanges`, the standing changes that last wrote it.
 */
export type LedgerBreak =
  | { readonly path: string }
  | { readonly conflict: string; readonly namesChanges: boolean };

/** One change of a portfolio's ledger, as {@link changeLedger} makes it. */
export interface LedgerChange<T> {
  /**
   * Outside the database transaction: the ledger as it will be after the change, as far as it is
   * known from `before` (the committed rows, newest first), to tell which quotes and rates to
   * gather. Default: `before` as it is. It may throw the change's own input errors early.
   */
  readonly project?: (
    before: readonly StoredTransaction[],
  ) => readonly LedgerTransaction[] | Promise<readonly LedgerTransaction[]>;
  /**
   * Inside the database transaction, with the portfolio row locked: the writes. `before` is the
   * ledger read once under the lock (newest first); the answer is the change's result and the
   * ledger after the writes (any order), which is derived once, checked and stored.
   */
  readonly write: (
    unit: LedgerUnit,
    before: readonly StoredTransaction[],
  ) => Promise<{ readonly result: T; readonly after: readonly StoredTransaction[] }>;
  /** How a broken ledger is answered (see {@link LedgerBreak}). */
  readonly breaks: LedgerBreak;
  /**
   * Runs in the transaction right after the lock, before the ledger is read: a confirmed advisor
   * proposal marks itself applied there and checks that what its summary described is
   * unchanged (a throw rolls everything back).
   */
  readonly guard?: ((unit: LedgerUnit) => Promise<void>) | undefined;
  /** `path` of the `validation_failed` a database rejection of a value becomes; default `transaction`. */
  readonly inputPath?: string;
}

/**
 * The one write path of a portfolio's ledger: record, edit, delete, revert, broker import and
 * revaluation all call it, in the shape of the broker import (STYLE rule 15).
 *
 * 1. Outside any database transaction: the committed ledger is read, the change projects it
 *    (`project`), and the quotes and EUR rates of the projected holdings (`gatherMarketInputs`)
 *    and of every purchase's day (`historicEurRates`) are gathered: a slow provider never holds
 *    a lock.
 * 2. ONE database transaction: the portfolio row is locked once (`SELECT … FOR UPDATE`, which is
 *    also the ownership check), the ledger read once, the change written (rows and journal,
 *    `write`), the ledger after it derived once and checked, and the derived holdings and cash
 *    valued with the gathered inputs and stored. A failure anywhere rolls everything back: the
 *    ledger, its journal and the positions stay as they were. A symbol that appeared between the
 *    two steps (a concurrent write) is stored without market values until the next valuation.
 *
 * @returns the change's result and the stored valuation.
 * @throws UseCaseError `not_found` (portfolio, also another user's), the change's own errors,
 *   `validation_failed` or `conflict` of a broken ledger ({@link LedgerBreak}), and
 *   `validation_failed` for a value the database rejects.
 */
export async function changeLedger<T>(
  deps: LedgerChangeDeps,
  userId: string,
  portfolioId: string,
  change: LedgerChange<T>,
): Promise<{ result: T; valuation: RevaluationResult }> {
  const repos = createRepositories(deps.db);
  const valuedAt = deps.now();
  const committed = await repos.transactions.listAll(userId, portfolioId);
  const projected = change.project ? await change.project(committed) : undefined;
  const marketDeps = { quotes: deps.quotes, fx: deps.fx, marketData: repos.marketData };
  const before = committed.map(toLedgerTransaction);
  const { inputs, eurRateOn } = await gatherInputs(marketDeps, before, projected, valuedAt);
  return deps.db
    .transaction()
    .execute(async (trx) => {
      const unit: LedgerUnit = {
        trx,
        repos: createRepositories(trx),
        writes: createLedgerWrites(trx),
      };
      if (!(await unit.repos.portfolios.lockForUpdate(userId, portfolioId))) {
        throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      }
      await change.guard?.(unit);
      const locked = await unit.repos.transactions.listAll(userId, portfolioId);
      const { result, after } = await change.write(unit, locked);
      const derived = await checked(unit.repos, userId, portfolioId, after, change.breaks, {
        eurRateOn,
      });
      const valuation = await storeValuation(
        unit,
        userId,
        portfolioId,
        derived,
        {
          ...inputs,
          valuedAt: valuedAt.toISOString(),
          names: namesOf(after),
        },
        instrumentsOf(after),
      );
      return { result, valuation };
    })
    .catch((error: unknown) => fromStoreError(error, change.inputPath ?? 'transaction'));
}

/** The market inputs of the projected ledger (or of the committed one when it does not derive). */
async function gatherInputs(
  deps: MarketInputsDeps,
  before: readonly LedgerTransaction[],
  projected: readonly LedgerTransaction[] | undefined,
  valuedAt: Date,
): Promise<{
  inputs: MarketInputs;
  eurRateOn: (currency: string, day: string) => string | undefined;
}> {
  const draft =
    (projected && deriveOrUndefined(projected)) ?? deriveOrUndefined(before) ?? deriveHoldings([]);
  const inputs = await gatherMarketInputs(deps, draft, utcDay(valuedAt));
  const eurRateOn = await historicEurRates(deps, projected ? [...before, ...projected] : before);
  return { inputs, eurRateOn };
}

function deriveOrUndefined(ledger: readonly LedgerTransaction[]): DerivedPortfolio | undefined {
  try {
    return deriveHoldings(ledger);
  } catch (error) {
    if (error instanceof PortfolioError) return undefined;
    throw error;
  }
}

/**
 * The ledger `rows` derived once with `options` and checked; a broken ledger answered as
 * `breaks` says (a `conflict` reads the changes that wrote the sale through `repos`).
 */
async function checked(
  repos: Repositories,
  userId: string,
  portfolioId: string,
  rows: readonly StoredTransaction[],
  breaks: LedgerBreak,
  options: DeriveOptions,
): Promise<DerivedPortfolio> {
  const ledger = rows.map(toLedgerTransaction);
  if ('path' in breaks) return deriveChecked(ledger, breaks.path, options);
  try {
    return deriveChecked(ledger, 'ledger', options);
  } catch (error) {
    const cause = error instanceof UseCaseError ? error.options.cause : undefined;
    if (!(cause instanceof PortfolioError) || cause.code !== 'insufficient_quantity') throw error;
    const transactions = cause.transactionId === undefined ? [] : [cause.transactionId];
    const changes = breaks.namesChanges
      ? await repos.transactions.lastWriters(userId, portfolioId, transactions)
      : undefined;
    throw new UseCaseError(
      'conflict',
      `${breaks.conflict} would break the ledger: ${cause.message}; nothing was changed`,
      { cause, transactions, ...(changes === undefined ? {} : { changes }) },
    );
  }
}

/**
 * The `field` of each symbol's newest row (by `executedAt`, then id) that has one, as a read of
 * the ledger newest first meets them.
 */
function newestBySymbol<Field extends 'name' | 'instrument'>(
  rows: readonly StoredTransaction[],
  field: Field,
): Map<string, NonNullable<StoredTransaction[Field]>> {
  const newest = new Map<string, StoredTransaction>();
  for (const row of rows) {
    if (row.symbol === null || row[field] === null) continue;
    const seen = newest.get(row.symbol);
    if (
      seen === undefined ||
      row.executedAt > seen.executedAt ||
      (row.executedAt === seen.executedAt && row.id > seen.id)
    ) {
      newest.set(row.symbol, row);
    }
  }
  return new Map(
    [...newest].map(([symbol, row]) => [
      symbol,
      row[field] as NonNullable<StoredTransaction[Field]>,
    ]),
  );
}

/** The instrument names imports gave, per symbol: the name of the newest row that has one. */
export function namesOf(rows: readonly StoredTransaction[]): Map<string, string> {
  return newestBySymbol(rows, 'name');
}

/**
 * The instrument of each symbol (issue 38): the newest row's that has one, as {@link namesOf}
 * picks names.
 */
export function instrumentsOf(rows: readonly StoredTransaction[]): Map<string, Instrument> {
  return newestBySymbol(rows, 'instrument');
}

/** `rows` with the rows of `patch` put in (by id; a null row removes it). */
export function patched(
  rows: readonly StoredTransaction[],
  patch: readonly { id: string; row: StoredTransaction | null }[],
): StoredTransaction[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { id, row } of patch) {
    if (row === null) byId.delete(id);
    else byId.set(id, row);
  }
  return [...byId.values()];
}

/**
 * Re-derives one portfolio's holdings and cash from all its transactions, values them in EUR as
 * of `valuedAt` and stores them: {@link changeLedger} without a write (quotes and rates first,
 * then one transaction that locks, reads, derives and stores, so values derived from an older
 * ledger never overwrite a concurrent write's). The EUR cost of each holding is taken at the ECB
 * rate of each purchase's day (`historicEurRates`), so unrealised P&L in EUR includes the
 * currency effect; realised P&L in EUR is kept per holding.
 *
 * @throws UseCaseError `not_found` when the user has no such portfolio.
 */
export async function revaluePortfolio(
  deps: Omit<LedgerChangeDeps, 'now'>,
  userId: string,
  portfolioId: string,
  valuedAt: Date,
): Promise<RevaluationResult> {
  const { valuation } = await changeLedger({ ...deps, now: () => valuedAt }, userId, portfolioId, {
    breaks: { path: 'ledger' },
    write: async (_unit, before) => ({ result: undefined, after: before }),
  });
  return valuation;
}
