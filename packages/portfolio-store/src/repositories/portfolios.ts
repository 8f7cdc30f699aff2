import { CompiledQuery, type Selectable } from 'kysely';
import type { PortfoliosTable } from '../db-types.js';
import { prepareStatement } from '../prepared-statements.js';
import { type Executor, iso, isUuid } from './shared.js';

/** A portfolio (CONTRACT §4). */
export interface Portfolio {
  id: string;
  name: string;
  /** ISO 4217 code, default `EUR`. */
  baseCurrency: string;
  /** ISO-8601. */
  createdAt: string;
  /**
   * Realised P&L in EUR of every sale, positions sold to zero included (decimal string, full
   * precision), as of the last valuation; absent before one, and when a rate was missing.
   */
  realizedPnlEur?: string;
}

/** Fields of a new portfolio. */
export interface NewPortfolio {
  name: string;
  /** ISO 4217 code; default `EUR`. */
  baseCurrency?: string;
  /** When it was created (ISO-8601); default now. An account import keeps the exported instant. */
  createdAt?: string;
}

/**
 * The version counters of one portfolio, as {@link PortfoliosRepository.versions} reads them:
 * decimal strings of counters the database bumps in the transaction of every write of the rows
 * they cover, whichever process or statement made it. Equal versions mean equal rows; a counter
 * never goes back.
 */
export interface PortfolioVersions {
  /** The portfolio's id. */
  id: string;
  /** Covers its `transactions` rows (migration 0012). */
  ledgerVersion: string;
  /** Covers its `holdings` and `cash_positions` rows, stored EUR values included (migration 0013). */
  positionsVersion: string;
}

interface VersionsRow {
  id: string;
  ledger_version: string | number;
  positions_version: string | number;
}

/** The statement texts of {@link PortfoliosRepository.versions}, compiled once per process. */
let versionStatements: { one: string; all: string } | undefined;

/**
 * Compiles the two version reads once (Kysely's compile cost a tenth of a small read's CPU, and
 * this one runs on every holdings or transactions request) and registers them as named prepared
 * statements (`prepareStatement`), so a PostgreSQL connection plans each once.
 * Parameters: `$1` the user id, `$2` the portfolio id (`one` only).
 */
function compileVersionStatements(db: Executor): { one: string; all: string } {
  if (versionStatements !== undefined) return versionStatements;
  const base = db
    .selectFrom('portfolios')
    .select(['id', 'ledger_version', 'positions_version'])
    .where('user_id', '=', '');
  const one = base.where('id', '=', '').compile();
  const all = base.orderBy('id').compile();
  if (one.parameters.length !== 2 || all.parameters.length !== 1) {
    throw new Error('portfolio versions: unexpected statement parameters');
  }
  prepareStatement(one.sql);
  prepareStatement(all.sql);
  versionStatements = { one: one.sql, all: all.sql };
  return versionStatements;
}

function toPortfolio(row: Selectable<PortfoliosTable>): Portfolio {
  return {
    id: row.id,
    name: row.name,
    baseCurrency: row.base_currency,
    createdAt: iso(row.created_at),
    ...(row.realized_pnl_eur === null ? {} : { realizedPnlEur: row.realized_pnl_eur }),
  };
}

/**
 * Locks the user's portfolio row (`SELECT … FOR UPDATE`) for the rest of the surrounding
 * transaction, so that writes derived from its transactions are serialised. Answers whether the
 * user owns a portfolio with that id (false for a malformed id).
 */
async function lockPortfolioForUpdate(
  db: Executor,
  userId: string,
  portfolioId: string,
): Promise<boolean> {
  if (!isUuid(portfolioId)) return false;
  const row = await db
    .selectFrom('portfolios')
    .select('id')
    .where('id', '=', portfolioId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** Creates the portfolios repository over `db`. Every query is scoped by the owning user. */
export function createPortfoliosRepository(db: Executor) {
  return {
    /**
     * Locks the user's portfolio row until the end of the transaction `db` belongs to (call it on
     * `createRepositories(trx)`); answers whether the user owns it.
     */
    lockForUpdate(userId: string, portfolioId: string): Promise<boolean> {
      return lockPortfolioForUpdate(db, userId, portfolioId);
    },

    /** The user's portfolios, oldest first. */
    async list(userId: string): Promise<Portfolio[]> {
      const rows = await db
        .selectFrom('portfolios')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toPortfolio);
    },

    /** One portfolio of the user, or undefined (also for another user's portfolio). */
    async get(userId: string, portfolioId: string): Promise<Portfolio | undefined> {
      if (!isUuid(portfolioId)) return undefined;
      const row = await db
        .selectFrom('portfolios')
        .selectAll()
        .where('id', '=', portfolioId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && toPortfolio(row);
    },

    /**
     * The version of the portfolio's ledger: a counter (decimal string) the database bumps in the
     * transaction of every insert, update or delete of its transactions (migration 0012), so equal
     * versions mean equal ledgers, across processes. One indexed read; undefined when the user
     * has no such portfolio (also for another user's).
     */
    async ledgerVersion(userId: string, portfolioId: string): Promise<string | undefined> {
      if (!isUuid(portfolioId)) return undefined;
      const row = await db
        .selectFrom('portfolios')
        .select('ledger_version')
        .where('id', '=', portfolioId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? undefined : String(row.ledger_version);
    },

    /**
     * The version counters ({@link PortfolioVersions}) of one portfolio of the user, or of every
     * portfolio of the user (by id) when `portfolioId` is absent, in one indexed read: what a
     * memo of finished reads checks on every request. For one portfolio the answer is also the
     * ownership check: empty when the user has no such portfolio (another user's, or a malformed
     * id), exactly when {@link get} answers undefined.
     */
    async versions(
      userId: string,
      options: { portfolioId?: string } = {},
    ): Promise<PortfolioVersions[]> {
      const { portfolioId } = options;
      if (portfolioId !== undefined && !isUuid(portfolioId)) return [];
      const statements = compileVersionStatements(db);
      const query =
        portfolioId === undefined
          ? CompiledQuery.raw(statements.all, [userId])
          : CompiledQuery.raw(statements.one, [userId, portfolioId]);
      const { rows } = await db.executeQuery(query as CompiledQuery<VersionsRow>);
      return rows.map((row) => ({
        id: row.id,
        ledgerVersion: String(row.ledger_version),
        positionsVersion: String(row.positions_version),
      }));
    },

    /** Creates a portfolio for the user. Currency codes are upper-cased. */
    async create(userId: string, portfolio: NewPortfolio): Promise<Portfolio> {
      const row = await db
        .insertInto('portfolios')
        .values({
          user_id: userId,
          name: portfolio.name,
          base_currency: portfolio.baseCurrency?.toUpperCase(),
          ...(portfolio.createdAt === undefined ? {} : { created_at: portfolio.createdAt }),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toPortfolio(row);
    },

    /**
     * How many portfolios the user holds, counted after taking the user's row lock (`FOR
     * UPDATE`), so that concurrent creations in one account count one after the other. Call it
     * inside a database transaction, before the creation it guards.
     */
    async countLockingOwner(userId: string): Promise<number> {
      await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      const row = await db
        .selectFrom('portfolios')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Renames a portfolio of the user; undefined when the user has no such portfolio. */
    async rename(
      userId: string,
      portfolioId: string,
      name: string,
    ): Promise<Portfolio | undefined> {
      if (!isUuid(portfolioId)) return undefined;
      const row = await db
        .updateTable('portfolios')
        .set({ name })
        .where('id', '=', portfolioId)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst();
      return row && toPortfolio(row);
    },

    /**
     * Deletes a portfolio of the user and, by the foreign keys' cascades, everything that hangs
     * off it (transactions, holdings, cash positions, and any later table that references the
     * portfolio with `on delete cascade`). Waits for a writer holding the portfolio's row lock.
     * Answers whether one was deleted (false for another user's portfolio or a malformed id).
     */
    async delete(userId: string, portfolioId: string): Promise<boolean> {
      if (!isUuid(portfolioId)) return false;
      const result = await db
        .deleteFrom('portfolios')
        .where('id', '=', portfolioId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Stores the portfolio's realised P&L in EUR (a valuation's); null when unknown. */
    async setRealizedPnlEur(
      userId: string,
      portfolioId: string,
      value: string | null,
    ): Promise<void> {
      if (!isUuid(portfolioId)) return;
      await db
        .updateTable('portfolios')
        .set({ realized_pnl_eur: value })
        .where('id', '=', portfolioId)
        .where('user_id', '=', userId)
        .execute();
    },
  };
}

/** The portfolios repository (see {@link createPortfoliosRepository}). */
export type PortfoliosRepository = ReturnType<typeof createPortfoliosRepository>;
