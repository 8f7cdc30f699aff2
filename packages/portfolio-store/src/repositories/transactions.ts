import type { Instrument } from '@svc/schemas';
import { sql } from 'kysely';
import { journalReads } from './journal.js';
import { type Executor, isoText, isUuid } from './shared.js';
import {
  decodeCursor,
  encodeCursor,
  IMPORT_CHUNK,
  LISTED_COLUMNS,
  type ListedRow,
  pageSize,
  type Transaction,
  type TransactionPage,
  type TransactionQuery,
  toListedTransaction,
  toTransaction,
} from './transaction-rows.js';

export type {
  NewTransaction,
  Transaction,
  TransactionPage,
  TransactionQuery,
} from './transaction-rows.js';

/**
 * The transactions the journal changes `changeIds` touched, in journal order, each with its row
 * on `side` of them (`after`: as the changes left it; `before`: as they found it), or null when
 * there was none on that side (removed, resp. added).
 */
export async function changedRows(
  db: Executor,
  changeIds: readonly string[],
  side: 'before' | 'after',
): Promise<{ id: string; row: Transaction | null }[]> {
  if (changeIds.length === 0) return [];
  const column = sql.ref(`r.${side}`);
  const { rows } = await sql<ListedRow & { transaction_id: string; present: boolean }>`
    select r.transaction_id, p.id is not null as present,
      ${sql.join(LISTED_COLUMNS.map((c) => sql`p.${sql.id(c)}`))},
      to_char(p.executed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as executed_iso
    from portfolio_changes c
    join portfolio_change_rows r on r.change_id = c.id
    left join lateral jsonb_populate_record(null::transactions, ${column}) p on ${column} is not null
    where c.id in (${sql.join(changeIds.map((id) => sql`${id}::uuid`))})
    order by c.seq, r.transaction_id
  `.execute(db);
  return rows.map((r) => ({
    id: r.transaction_id,
    row: r.present ? toListedTransaction(r) : null,
  }));
}

/**
 * Creates the transactions repository over `db`: the reads of the ledger and of its journal.
 * Every query is scoped by the owning user. The writes are `createLedgerWrites`' (they take the
 * caller's database transaction).
 */
export function createTransactionsRepository(db: Executor) {
  const journal = journalReads(db);
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

    ...journal,

    /**
     * The transactions change `changeId` of the user's portfolio touched, each as the change
     * found it (null for a row it added): what a revert of it would put back. Empty for a change
     * of another portfolio or user.
     */
    async rowsBefore(
      userId: string,
      portfolioId: string,
      changeId: string,
    ): Promise<{ id: string; row: Transaction | null }[]> {
      if ((await journal.getChange(userId, portfolioId, changeId)) === undefined) return [];
      return changedRows(db, [changeId], 'before');
    },

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
      return changedRows(
        db,
        changes.map((c) => c.id),
        'after',
      );
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
  };
}

/** The transactions repository (see {@link createTransactionsRepository}). */
export type TransactionsRepository = ReturnType<typeof createTransactionsRepository>;
