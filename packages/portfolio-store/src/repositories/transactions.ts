import { randomUUID } from 'node:crypto';
import type { Instrument } from '@svc/schemas';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { TransactionsTable, TransactionType } from '../db-types.js';
import { StoreError, toStoreError } from '../errors.js';
import {
  type ChangeOptions,
  journalIn,
  journalReads,
  ledgerVersionIn,
  type PortfolioChange,
  type RevertOutcome,
} from './journal.js';
import { lockPortfolioForUpdate } from './portfolios.js';
import { type Executor, inTransaction, iso, isoText, isUuid } from './shared.js';

/** A ledger entry (CONTRACT §4). Quantities and amounts are decimal strings. */
export interface Transaction {
  id: string;
  portfolioId: string;
  type: TransactionType;
  symbol: string | null;
  /** Units (shares); decimal string. */
  quantity: string | null;
  /** Price per unit in `currency`; decimal string. */
  price: string | null;
  /** ISO 4217 code. */
  currency: string;
  /** Fee in `currency`; decimal string. */
  fee: string | null;
  /** Cash amount of a dividend, deposit, withdrawal or fee, in `currency`; decimal string. */
  amount: string | null;
  /** New units per old unit of a split (`2` for 2-for-1); decimal string. */
  ratio: string | null;
  /** ISO-8601. */
  executedAt: string;
  note: string | null;
  /** Set on rows that came from one import. */
  importBatchId: string | null;
  /** Import fingerprint (unique per portfolio), for rows that came from a broker file. */
  fingerprint: string | null;
  /** Instrument name the import gave. */
  name: string | null;
  /** The instrument resolved when the row was written; null on rows older than migration 0019. */
  instrument: Instrument | null;
}

/** Fields of a new ledger entry; decimals as strings (`"12.5"`), never floats. */
export interface NewTransaction {
  type: TransactionType;
  symbol?: string | null;
  quantity?: string | null;
  price?: string | null;
  fee?: string | null;
  /** Cash amount (dividend, deposit, withdrawal, fee); decimal string. */
  amount?: string | null;
  /** Split ratio, new units per old unit; decimal string. */
  ratio?: string | null;
  currency: string;
  executedAt: Date | string;
  note?: string | null;
  /** Import fingerprint; a second row with the same one in the portfolio is refused (`conflict`). */
  fingerprint?: string | null;
  /** Instrument name the import gave. */
  name?: string | null;
  /** The resolved instrument (migration 0019); an update without it keeps the row's. */
  instrument?: Instrument | null;
}

/** Filters and page of {@link TransactionsRepository.list}. */
export interface TransactionQuery {
  /** Only this portfolio (default: all of the user's portfolios). */
  portfolioId?: string;
  /** Executed at or after this instant. */
  from?: Date;
  /** Executed strictly before this instant. */
  to?: Date;
  symbol?: string;
  type?: TransactionType;
  /** Page size, 1 to 100; default 50. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** One page of transactions, newest first; `nextCursor` is null on the last page. */
export interface TransactionPage {
  items: Transaction[];
  nextCursor: string | null;
}

const MAX_PAGE = 100;
const IMPORT_CHUNK = 1_000;

function toTransaction(row: Selectable<TransactionsTable>): Transaction {
  return transactionOf(row, iso(row.executed_at));
}

/** The columns of a listed transaction: `executed_at` as ISO text (`isoText`), no owner nor creation time. */
const LISTED_COLUMNS = [
  'id',
  'portfolio_id',
  'type',
  'symbol',
  'quantity',
  'price',
  'currency',
  'fee',
  'amount',
  'ratio',
  'note',
  'import_batch_id',
  'fingerprint',
  'name',
  'instrument',
] as const;

type ListedRow = Pick<Selectable<TransactionsTable>, (typeof LISTED_COLUMNS)[number]> & {
  executed_iso: string | null;
};

/** {@link toTransaction} of a row read with {@link LISTED_COLUMNS}. */
function toListedTransaction(row: ListedRow): Transaction {
  return transactionOf(row, row.executed_iso ?? '');
}

/** A transaction from its listed columns and its execution instant as ISO text. */
function transactionOf(
  row: Pick<Selectable<TransactionsTable>, (typeof LISTED_COLUMNS)[number]>,
  executedAt: string,
): Transaction {
  return {
    id: row.id,
    portfolioId: row.portfolio_id,
    type: row.type,
    symbol: row.symbol,
    quantity: row.quantity,
    price: row.price,
    currency: row.currency,
    fee: row.fee,
    amount: row.amount,
    ratio: row.ratio,
    executedAt,
    note: row.note,
    importBatchId: row.import_batch_id,
    fingerprint: row.fingerprint,
    name: row.name,
    instrument: row.instrument ?? null,
  };
}

function encodeCursor(executedAt: string, id: string): string {
  return Buffer.from(JSON.stringify([executedAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { executedAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const executedAt = new Date(String(at));
    if (typeof id === 'string' && isUuid(id) && !Number.isNaN(executedAt.getTime())) {
      return { executedAt, id };
    }
  } catch {
    // fall through to the error below
  }
  throw new StoreError('invalid_input', 'malformed transactions cursor');
}

function pageSize(limit: number | undefined): number {
  const size = limit ?? 50;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) {
    throw new StoreError('invalid_input', `limit must be an integer from 1 to ${MAX_PAGE}`);
  }
  return size;
}

function toRow(
  userId: string,
  portfolioId: string,
  tx: NewTransaction,
  importBatchId: string | null,
): Insertable<TransactionsTable> {
  return {
    user_id: userId,
    portfolio_id: portfolioId,
    type: tx.type,
    symbol: tx.symbol ?? null,
    quantity: tx.quantity ?? null,
    price: tx.price ?? null,
    fee: tx.fee ?? null,
    amount: tx.amount ?? null,
    ratio: tx.ratio ?? null,
    currency: tx.currency.toUpperCase(),
    executed_at: utcInstant(tx.executedAt),
    note: tx.note ?? null,
    import_batch_id: importBatchId,
    fingerprint: tx.fingerprint ?? null,
    name: tx.name ?? null,
    instrument: tx.instrument ? JSON.stringify(tx.instrument) : null,
  };
}

/**
 * The UTC instant of an execution time as ISO 8601 text (`2024-03-01T10:00:00+23:59` →
 * `2024-02-29T10:01:00.000Z`): PostgreSQL's own parser takes offsets only up to ±15:59, while
 * RFC 3339 (and so the API's document) allows up to ±23:59; the instant is what is stored anyway.
 */
function utcInstant(executedAt: Date | string): string {
  return (executedAt instanceof Date ? executedAt : new Date(executedAt)).toISOString();
}

async function assertPortfolioOwned(db: Executor, userId: string, portfolioId: string) {
  const owned =
    isUuid(portfolioId) &&
    (await db
      .selectFrom('portfolios')
      .select('id')
      .where('id', '=', portfolioId)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst());
  if (!owned) throw new StoreError('not_found', `portfolio ${portfolioId} not found`);
}

/** Creates the transactions repository over `db`. Every query is scoped by the owning user. */
export function createTransactionsRepository(db: Executor) {
  /**
   * Inserts rows for an owned portfolio in one database transaction, all or nothing, and
   * journals them as one change of `kind`.
   */
  const insertAll = (
    userId: string,
    portfolioId: string,
    txs: readonly NewTransaction[],
    importBatchId: string | null,
    kind: 'record' | 'import',
    options: ChangeOptions,
  ) =>
    inTransaction(db, async (trx) => {
      await assertPortfolioOwned(trx, userId, portfolioId);
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
      return { inserted, change };
    }).catch((error: unknown) => {
      throw toStoreError(error, 'transaction');
    });

  /** The user's transaction `transactionId` of the portfolio, read in `trx`; or not_found. */
  const ownedRow = async (
    trx: Executor,
    userId: string,
    portfolioId: string,
    transactionId: string,
  ) => {
    const row = isUuid(transactionId)
      ? await trx
          .selectFrom('transactions')
          .selectAll()
          .where('id', '=', transactionId)
          .where('portfolio_id', '=', portfolioId)
          .where('user_id', '=', userId)
          .executeTakeFirst()
      : undefined;
    if (!row) throw new StoreError('not_found', `transaction ${transactionId} not found`);
    return row;
  };

  return {
    /**
     * The user's transactions, newest first (`executedAt` desc, then `id` desc), one keyset page
     * at a time.
     * @throws {StoreError} `invalid_input` for a malformed cursor or a limit outside 1..100.
     */
    async list(userId: string, query: TransactionQuery = {}): Promise<TransactionPage> {
      const limit = pageSize(query.limit);
      if (query.portfolioId !== undefined && !isUuid(query.portfolioId)) {
        return { items: [], nextCursor: null };
      }
      let select = db
        .selectFrom('transactions')
        .select([...LISTED_COLUMNS, isoText('executed_at').as('executed_iso')])
        .where('user_id', '=', userId);
      if (query.portfolioId) select = select.where('portfolio_id', '=', query.portfolioId);
      if (query.from) select = select.where('executed_at', '>=', query.from);
      if (query.to) select = select.where('executed_at', '<', query.to);
      if (query.symbol) select = select.where('symbol', '=', query.symbol);
      if (query.type) select = select.where('type', '=', query.type);
      if (query.cursor) {
        const after = decodeCursor(query.cursor);
        select = select.where((eb) =>
          eb(eb.refTuple('executed_at', 'id'), '<', eb.tuple(after.executedAt, after.id)),
        );
      }
      const rows = await select
        .orderBy('executed_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toListedTransaction),
        nextCursor:
          rows.length > limit && last ? encodeCursor(last.executed_iso ?? '', last.id) : null,
      };
    },

    /**
     * Records one transaction in a portfolio of the user.
     * @throws {StoreError} `not_found` for a portfolio the user does not own; `invalid_input` when
     *   the database rejects a value (e.g. a malformed decimal).
     */
    async insert(
      userId: string,
      portfolioId: string,
      tx: NewTransaction,
      options: ChangeOptions = {},
    ): Promise<Transaction> {
      const { inserted } = await insertAll(userId, portfolioId, [tx], null, 'record', options);
      const [row] = inserted;
      if (!row) throw new StoreError('invalid_input', 'transaction was not inserted');
      return row;
    },

    /**
     * {@link insert}, answering the journal's `record` change too (written in the same database
     * transaction as the row).
     * @throws {StoreError} as {@link insert}.
     */
    async record(
      userId: string,
      portfolioId: string,
      tx: NewTransaction,
      options: ChangeOptions = {},
    ): Promise<{ transaction: Transaction; change: PortfolioChange }> {
      const { inserted, change } = await insertAll(
        userId,
        portfolioId,
        [tx],
        null,
        'record',
        options,
      );
      const [row] = inserted;
      if (!row) throw new StoreError('invalid_input', 'transaction was not inserted');
      return { transaction: row, change };
    },

    /**
     * Replaces every field of one transaction of the user's portfolio with `tx` (its id, import
     * batch and fingerprint stay), journalled as an `edit` change with the row before and after,
     * in one database transaction that locks the portfolio row. `executedAt` is stored as its
     * UTC instant, as {@link insert} stores it. Checking the ledger is the caller's (in the same
     * database transaction).
     * @throws {StoreError} `not_found` for a portfolio or transaction the user does not own;
     *   `invalid_input` for a value the database rejects.
     */
    async update(
      userId: string,
      portfolioId: string,
      transactionId: string,
      tx: NewTransaction,
      options: ChangeOptions = {},
    ): Promise<{ transaction: Transaction; change: PortfolioChange }> {
      return inTransaction(db, async (trx) => {
        await assertPortfolioOwned(trx, userId, portfolioId);
        const current = await ownedRow(trx, userId, portfolioId, transactionId);
        const { change, result } = await journalIn(trx, userId, portfolioId).around(
          'edit',
          transactionId,
          options,
          () =>
            trx
              .updateTable('transactions')
              .set({
                ...toRow(userId, portfolioId, tx, current.import_batch_id),
                fingerprint: current.fingerprint,
                name: tx.name === undefined ? current.name : tx.name,
                instrument:
                  tx.instrument === undefined
                    ? current.instrument && JSON.stringify(current.instrument)
                    : tx.instrument && JSON.stringify(tx.instrument),
              })
              .where('id', '=', transactionId)
              .returningAll()
              .executeTakeFirstOrThrow(),
        );
        return { transaction: toTransaction(result), change };
      }).catch((error: unknown) => {
        throw toStoreError(error, 'transaction');
      });
    },

    /**
     * Deletes one transaction of the user's portfolio, journalled as a `delete` change with the
     * whole row (so a revert brings it back with its id), in one database transaction that
     * locks the portfolio row. Answers the deleted row and the change.
     * @throws {StoreError} `not_found` for a portfolio or transaction the user does not own.
     */
    async delete(
      userId: string,
      portfolioId: string,
      transactionId: string,
      options: ChangeOptions = {},
    ): Promise<{ transaction: Transaction; change: PortfolioChange }> {
      return inTransaction(db, async (trx) => {
        await assertPortfolioOwned(trx, userId, portfolioId);
        const current = await ownedRow(trx, userId, portfolioId, transactionId);
        const { change } = await journalIn(trx, userId, portfolioId).around(
          'delete',
          transactionId,
          options,
          () => trx.deleteFrom('transactions').where('id', '=', transactionId).execute(),
        );
        return { transaction: toTransaction(current), change };
      }).catch((error: unknown) => {
        throw toStoreError(error, 'transaction');
      });
    },

    /**
     * Reverts one change of the user's portfolio (see `RevertOutcome`), journalled as a new
     * `revert` change, in one database transaction that locks the portfolio row. Checking the
     * ledger is the caller's (in the same database transaction).
     * @throws {StoreError} `not_found` for a portfolio or change the user does not own.
     */
    async revertChange(
      userId: string,
      portfolioId: string,
      changeId: string,
      options: ChangeOptions = {},
    ): Promise<RevertOutcome> {
      return inTransaction(db, async (trx) => {
        await assertPortfolioOwned(trx, userId, portfolioId);
        return journalIn(trx, userId, portfolioId).revert(changeId, options);
      }).catch((error: unknown) => {
        throw toStoreError(error, 'change');
      });
    },

    /** One transaction of the user's portfolio, or undefined (also another user's). */
    async get(
      userId: string,
      portfolioId: string,
      transactionId: string,
    ): Promise<Transaction | undefined> {
      if (!isUuid(portfolioId) || !isUuid(transactionId)) return undefined;
      const row = await db
        .selectFrom('transactions')
        .selectAll()
        .where('id', '=', transactionId)
        .where('portfolio_id', '=', portfolioId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && toTransaction(row);
    },

    ...journalReads(db),

    /**
     * How the portfolio's ledger went from version `from` to version `to` (`ledger_version`,
     * migration 0012), from the journal alone: every transaction the changes between them wrote,
     * in order, with its row after (`row`) or without one (removed). Undefined when the journal
     * does not account for every write between the two versions (a write outside it, changes
     * older than their version columns, a version not reached yet) or when it touched more than
     * `maxRows` transactions: the caller then reads the ledger whole. What lets a reader that
     * holds the ledger at `from` (the performance flow's cache) patch it instead of reading it.
     */
    async ledgerPatch(
      userId: string,
      portfolioId: string,
      from: string,
      to: string,
      maxRows = 2_000,
    ): Promise<{ id: string; row: Transaction | null }[] | undefined> {
      if (!isUuid(portfolioId) || !/^\d+$/.test(from) || !/^\d+$/.test(to)) return undefined;
      const changes = await db
        .selectFrom('portfolio_changes')
        .select(['id', 'ledger_version_before', 'ledger_version_after', 'transaction_count'])
        .where('user_id', '=', userId)
        .where('portfolio_id', '=', portfolioId)
        .where('ledger_version_after', '>', from)
        .where('ledger_version_after', '<=', to)
        .orderBy('seq')
        .execute();
      let at = BigInt(from);
      let rows = 0;
      for (const change of changes) {
        if (change.ledger_version_before === null || change.ledger_version_after === null)
          return undefined;
        if (BigInt(change.ledger_version_before) !== at) return undefined;
        at = BigInt(change.ledger_version_after);
        rows += change.transaction_count;
      }
      if (at !== BigInt(to) || rows > maxRows) return undefined;
      if (changes.length === 0) return [];
      const { rows: touched } = await sql<ListedRow & { transaction_id: string; present: boolean }>`
        select r.transaction_id, p.id is not null as present,
          ${sql.join(LISTED_COLUMNS.map((c) => sql`p.${sql.id(c)}`))},
          to_char(p.executed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as executed_iso
        from portfolio_changes c
        join portfolio_change_rows r on r.change_id = c.id
        left join lateral jsonb_populate_record(null::transactions, r.after) p on r.after is not null
        where c.id in (${sql.join(changes.map((c) => sql`${c.id}::uuid`))})
        order by c.seq, r.transaction_id
      `.execute(db);
      return touched.map((r) => ({
        id: r.transaction_id,
        row: r.present ? toListedTransaction(r) : null,
      }));
    },

    /**
     * Every transaction of one portfolio of the user, newest first (`executedAt` desc, then `id`
     * desc), in one query: what a replay of the ledger reads. Empty for a portfolio the user does
     * not own.
     */
    async listAll(userId: string, portfolioId: string): Promise<Transaction[]> {
      if (!isUuid(portfolioId)) return [];
      // the listed columns with executed_at as text made by the database (`isoText`): no Date
      // parsed and formatted back per row, nor owner and creation time read (issue 30: the ledger
      // read behind a performance rebuild after an edit)
      const rows = await db
        .selectFrom('transactions')
        .select([...LISTED_COLUMNS, isoText('executed_at').as('executed_iso')])
        .where('user_id', '=', userId)
        .where('portfolio_id', '=', portfolioId)
        .orderBy('executed_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toListedTransaction);
    },

    /**
     * The instrument the user last assigned (resolution `user`, issue 38) to the ISIN `isin` or
     * the symbol `symbol`, in any of their portfolios; undefined when they never did. A revert
     * of the assignment takes it back with the rows it rewrote.
     */
    async userAssignment(
      userId: string,
      key: { isin?: string; symbol?: string },
    ): Promise<Instrument | undefined> {
      if (key.isin === undefined && key.symbol === undefined) return undefined;
      const row = await db
        .selectFrom('transactions')
        .select('instrument')
        .where('user_id', '=', userId)
        .where(sql<boolean>`instrument->>'resolution' = 'user'`)
        .where((eb) =>
          eb.or([
            ...(key.isin ? [eb(sql<string>`instrument->>'isin'`, '=', key.isin)] : []),
            ...(key.symbol ? [eb('symbol', '=', key.symbol)] : []),
          ]),
        )
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.instrument ?? undefined;
    },

    /**
     * Reassigns every transaction of `symbol` in the user's portfolio to `to.symbol` and
     * `to.instrument` (the user's correction of a resolution), journalled as one `edit` change
     * with every row before and after, in one database transaction that locks the portfolio row;
     * `check` runs in it after the write (the caller's ledger check). Answers the rows changed
     * and the change.
     * @throws {StoreError} `not_found` for a portfolio the user does not own or a symbol it never
     *   held.
     */
    async reassignInstrument<T>(
      userId: string,
      portfolioId: string,
      symbol: string,
      to: { symbol: string; instrument: Instrument },
      options: ChangeOptions,
      check: (trx: Executor) => Promise<T>,
    ): Promise<{ count: number; change: PortfolioChange; checked: T }> {
      return inTransaction(db, async (trx) => {
        await assertPortfolioOwned(trx, userId, portfolioId);
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
        return { count: ids.length, change, checked: await check(trx) };
      }).catch((error: unknown) => {
        throw toStoreError(error, 'instrument');
      });
    },

    /**
     * Rows written before instruments (migration 0019) that still wait for one: distinct
     * (user, portfolio, symbol, currency), with the newest name an import gave, at most `limit`.
     */
    async pendingInstruments(limit = 500): Promise<
      {
        userId: string;
        portfolioId: string;
        symbol: string;
        currency: string;
        name: string | null;
      }[]
    > {
      const rows = await db
        .selectFrom('transactions')
        .select(({ fn }) => [
          'user_id',
          'portfolio_id',
          'symbol',
          'currency',
          fn.max('name').as('name'),
        ])
        .where('symbol', 'is not', null)
        .where('instrument', 'is', null)
        .groupBy(['user_id', 'portfolio_id', 'symbol', 'currency'])
        .orderBy('portfolio_id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        userId: r.user_id,
        portfolioId: r.portfolio_id,
        symbol: r.symbol ?? '',
        currency: r.currency,
        name: r.name,
      }));
    },

    /**
     * Gives the rows of `symbol` in `currency` of one portfolio that have no instrument yet
     * (written before migration 0019) their resolved instrument and symbol (the ticker when
     * known, so one instrument held under an ISIN and under its ticker becomes one holding). A
     * data migration, not the user's change: it is not journalled, and the journal's snapshots of
     * those rows are rewritten alike so that reverting an older change still finds them as it
     * left them. In one database transaction that locks the portfolio row. Answers how many rows
     * it changed.
     */
    async settleInstrument(
      userId: string,
      portfolioId: string,
      from: { symbol: string; currency: string },
      to: { symbol: string; instrument: Instrument },
    ): Promise<number> {
      return inTransaction(db, async (trx) => {
        if (!(await lockPortfolioForUpdate(trx, userId, portfolioId))) return 0;
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
      });
    },

    /**
     * Which of `fingerprints` are already stored in one portfolio of the user (empty for a
     * portfolio the user does not own).
     */
    async presentFingerprints(
      userId: string,
      portfolioId: string,
      fingerprints: readonly string[],
    ): Promise<Set<string>> {
      const present = new Set<string>();
      if (!isUuid(portfolioId)) return present;
      for (let start = 0; start < fingerprints.length; start += IMPORT_CHUNK) {
        const chunk = fingerprints.slice(start, start + IMPORT_CHUNK);
        if (chunk.length === 0) continue;
        const rows = await db
          .selectFrom('transactions')
          .select('fingerprint')
          .where('user_id', '=', userId)
          .where('portfolio_id', '=', portfolioId)
          .where('fingerprint', 'in', chunk)
          .execute();
        for (const row of rows) if (row.fingerprint !== null) present.add(row.fingerprint);
      }
      return present;
    },

    /**
     * Imports many transactions (e.g. a broker CSV) in ONE database transaction: all rows or none.
     * Every row carries the same `importBatchId` (generated unless given). The rows are journalled
     * as one `import` change (`source` default `rest`; `account-import` for an account import),
     * whose revert removes exactly these rows.
     * @throws {StoreError} as {@link insert}; nothing is stored when any row fails.
     */
    async importMany(
      userId: string,
      portfolioId: string,
      txs: readonly NewTransaction[],
      options: { importBatchId?: string } & ChangeOptions = {},
    ): Promise<{ importBatchId: string; items: Transaction[]; change: PortfolioChange }> {
      const importBatchId = options.importBatchId ?? randomUUID();
      const { inserted, change } = await insertAll(
        userId,
        portfolioId,
        txs,
        importBatchId,
        'import',
        options,
      );
      return { importBatchId, items: inserted, change };
    },
  };
}

/** The transactions repository (see {@link createTransactionsRepository}). */
export type TransactionsRepository = ReturnType<typeof createTransactionsRepository>;
