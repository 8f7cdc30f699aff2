import { type Selectable, sql } from 'kysely';
import type { ChangeKind, ChangeSource, PortfolioChangesTable } from '../db-types.js';
import { StoreError } from '../errors.js';
import { type Executor, iso, isUuid } from './shared.js';

/**
 * One change in a portfolio's journal (migration 0014): a write to its ledger and who made it.
 */
export interface PortfolioChange {
  id: string;
  portfolioId: string;
  /** `record`, `edit`, `delete`, `import` or `revert`. */
  kind: ChangeKind;
  /** ISO-8601 instant of the write. */
  at: string;
  /** `rest` (the API), `advisor` (a confirmed proposal) or `account-import`. */
  source: ChangeSource;
  /** What the change did, in words (amounts included). */
  summary: string;
  /** How many transactions it added, changed or removed. */
  transactionCount: number;
  /** The revert that took it back; null while it stands. */
  revertedBy: string | null;
  /** For a `revert`: the change it took back; null otherwise. */
  reverts: string | null;
}

/** Who makes a change and how it is described; see {@link PortfolioChange}. */
export interface ChangeOptions {
  /** Default `rest`. */
  source?: ChangeSource;
  /** Default: a generic description of the kind of change. */
  summary?: string;
}

/** One page of changes, newest first; `nextCursor` is null on the last page. */
export interface PortfolioChangePage {
  items: PortfolioChange[];
  nextCursor: string | null;
}

/**
 * The outcome of {@link JournalWriter.revert}: the new `revert` change, or why it was refused:
 * `already_reverted` (with the revert that took it back) or `depends` (later changes, still
 * standing, changed the transactions it wrote; their ids, oldest first).
 */
export type RevertOutcome =
  | { outcome: 'reverted'; change: PortfolioChange; reverted: PortfolioChange }
  | { outcome: 'already_reverted'; changes: string[] }
  | { outcome: 'depends'; changes: string[]; transactions: string[] };

const DEFAULT_SUMMARY: Record<ChangeKind, string> = {
  record: 'Recorded a transaction',
  edit: 'Edited a transaction',
  delete: 'Deleted a transaction',
  import: 'Imported transactions',
  revert: 'Reverted a change',
};

/** The `transactions` columns a revert restores (all but `id`, `user_id`, `portfolio_id`). */
const RESTORED_COLUMNS = [
  'type',
  'symbol',
  'quantity',
  'price',
  'fee',
  'amount',
  'ratio',
  'currency',
  'executed_at',
  'note',
  'import_batch_id',
  'fingerprint',
  'name',
  'created_at',
  'instrument',
] as const;

export function toChange(row: Selectable<PortfolioChangesTable>): PortfolioChange {
  return {
    id: row.id,
    portfolioId: row.portfolio_id,
    kind: row.kind,
    at: iso(row.at),
    source: row.source,
    summary: row.summary,
    transactionCount: row.transaction_count,
    revertedBy: row.reverted_by,
    reverts: row.reverts,
  };
}

function encodeCursor(seq: string): string {
  return Buffer.from(JSON.stringify([seq])).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const [seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof seq === 'string' && /^[0-9]{1,19}$/.test(seq)) return seq;
  } catch {
    // fall through to the error below
  }
  throw new StoreError('invalid_input', 'malformed changes cursor');
}

/** The portfolio's ledger version as `trx` sees it (decimal string). */
export async function ledgerVersionIn(trx: Executor, portfolioId: string): Promise<string> {
  const row = await trx
    .selectFrom('portfolios')
    .select('ledger_version')
    .where('id', '=', portfolioId)
    .executeTakeFirstOrThrow();
  return String(row.ledger_version);
}

/**
 * The journal writes of one database transaction `trx` (in which the caller locked the
 * portfolio row): each method writes the change row and the before/after rows of the
 * transactions it touched, in the same database transaction as the ledger write.
 */
export function journalIn(trx: Executor, userId: string, portfolioId: string) {
  const open = async (
    kind: ChangeKind,
    options: ChangeOptions,
    reverts: string | null = null,
    versionBefore?: string,
  ): Promise<string> => {
    const row = await trx
      .insertInto('portfolio_changes')
      .values({
        user_id: userId,
        portfolio_id: portfolioId,
        kind,
        source: options.source ?? 'rest',
        summary: options.summary ?? DEFAULT_SUMMARY[kind],
        reverts,
        ledger_version_before: versionBefore ?? (await ledgerVersionIn(trx, portfolioId)),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  const close = async (changeId: string, count: number): Promise<PortfolioChange> =>
    toChange(
      await trx
        .updateTable('portfolio_changes')
        .set({
          transaction_count: count,
          ledger_version_after: sql<string>`(select ledger_version from portfolios where id = ${portfolioId}::uuid)`,
        })
        .where('id', '=', changeId)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );

  /** Journals the current rows of `ids` as `before` (when `side` is before) or `after`. */
  const snapshot = async (changeId: string, ids: readonly string[], side: 'before' | 'after') => {
    if (ids.length === 0) return;
    const column = sql.id(side);
    await sql`
      insert into portfolio_change_rows (change_id, transaction_id, ${column})
      select ${changeId}::uuid, t.id, to_jsonb(t) from transactions t
      where t.portfolio_id = ${portfolioId}::uuid and t.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})
    `.execute(trx);
  };

  /** Fills `after` of the change's rows with the current rows (left null for removed ones). */
  const fillAfter = async (changeId: string) => {
    await sql`
      update portfolio_change_rows r set after = to_jsonb(t)
      from transactions t
      where r.change_id = ${changeId}::uuid and t.id = r.transaction_id
    `.execute(trx);
  };

  return {
    /** Journals rows just inserted (`record` or `import`); call after the insert. */
    async inserted(
      kind: 'record' | 'import',
      ids: readonly string[],
      options: ChangeOptions,
      versionBefore: string,
    ): Promise<PortfolioChange> {
      const changeId = await open(kind, options, null, versionBefore);
      for (let start = 0; start < ids.length; start += 1_000) {
        await snapshot(changeId, ids.slice(start, start + 1_000), 'after');
      }
      return close(changeId, ids.length);
    },

    /**
     * Journals an edit or a delete of one transaction: `write` runs between the snapshot of the
     * row before and the one after.
     */
    async around<T>(
      kind: 'edit' | 'delete',
      transactionId: string,
      options: ChangeOptions,
      write: () => Promise<T>,
    ): Promise<{ change: PortfolioChange; result: T }> {
      const changeId = await open(kind, options);
      await snapshot(changeId, [transactionId], 'before');
      const result = await write();
      await fillAfter(changeId);
      return { change: await close(changeId, 1), result };
    },

    /**
     * Journals an edit of several transactions as one change (a correction of an instrument's
     * resolution rewrites every row of it, issue 38): `write` runs between the snapshots of the
     * rows before and after.
     */
    async aroundRows<T>(
      transactionIds: readonly string[],
      options: ChangeOptions,
      write: () => Promise<T>,
    ): Promise<{ change: PortfolioChange; result: T }> {
      const changeId = await open('edit', options);
      for (let start = 0; start < transactionIds.length; start += 1_000) {
        await snapshot(changeId, transactionIds.slice(start, start + 1_000), 'before');
      }
      const result = await write();
      await fillAfter(changeId);
      return { change: await close(changeId, transactionIds.length), result };
    },

    /**
     * Reverts one change of the portfolio: every transaction it touched is put back as it was
     * before it (rows it added are deleted, rows it changed get their old values, rows it deleted
     * come back with their ids), journalled as a new `revert` change. Refused when the change
     * was already reverted, or when a transaction it wrote is no longer as it left it (a later
     * change that still stands touched it: the answer names those changes), or when a row to
     * bring back would collide with a fingerprint the portfolio holds again.
     * @throws {StoreError} `not_found` for a change of another portfolio or user.
     */
    async revert(changeId: string, options: ChangeOptions): Promise<RevertOutcome> {
      const target = isUuid(changeId)
        ? await trx
            .selectFrom('portfolio_changes')
            .selectAll()
            .where('id', '=', changeId)
            .where('user_id', '=', userId)
            .where('portfolio_id', '=', portfolioId)
            .executeTakeFirst()
        : undefined;
      if (!target) throw new StoreError('not_found', `change ${changeId} not found`);
      if (target.reverted_by !== null) {
        return { outcome: 'already_reverted', changes: [target.reverted_by] };
      }
      // Rows no longer as the change left them (present iff `after` is, and equal to it).
      const moved = await sql<{ transaction_id: string }>`
        select r.transaction_id from portfolio_change_rows r
        left join transactions t on t.id = r.transaction_id
        where r.change_id = ${changeId}::uuid
          and not coalesce(to_jsonb(t) = r.after, t.id is null and r.after is null)
        order by r.transaction_id
      `.execute(trx);
      // Rows to bring back whose fingerprint the portfolio holds again (another row).
      const taken = await sql<{ transaction_id: string }>`
        select t.id as transaction_id from portfolio_change_rows r
        join transactions t on t.portfolio_id = ${portfolioId}::uuid
          and t.fingerprint = r.before->>'fingerprint' and t.id <> r.transaction_id
        where r.change_id = ${changeId}::uuid and r.after is null and r.before is not null
        order by t.id
      `.execute(trx);
      const blocked = [
        ...moved.rows.map((r) => r.transaction_id),
        ...taken.rows.map((r) => r.transaction_id),
      ];
      if (blocked.length > 0) {
        const later = await trx
          .selectFrom('portfolio_changes as c')
          .innerJoin('portfolio_change_rows as r', 'r.change_id', 'c.id')
          .select(['c.id', 'c.seq'])
          .distinct()
          .where('c.portfolio_id', '=', portfolioId)
          .where('c.seq', '>', target.seq)
          .where('c.reverted_by', 'is', null)
          .where('r.transaction_id', 'in', blocked)
          .orderBy('c.seq')
          .execute();
        return {
          outcome: 'depends',
          changes: later.map((c) => c.id),
          transactions: [...new Set(blocked)],
        };
      }
      const revertId = await open('revert', options, changeId);
      // The new change's rows: before = what the reverted change left, after = filled below.
      await sql`
        insert into portfolio_change_rows (change_id, transaction_id, before)
        select ${revertId}::uuid, r.transaction_id, r.after from portfolio_change_rows r
        where r.change_id = ${changeId}::uuid
      `.execute(trx);
      await sql`
        delete from transactions t using portfolio_change_rows r
        where r.change_id = ${changeId}::uuid and r.before is null and t.id = r.transaction_id
          and t.portfolio_id = ${portfolioId}::uuid
      `.execute(trx);
      await sql`
        update transactions t set ${sql.join(
          RESTORED_COLUMNS.map((c) => sql`${sql.id(c)} = p.${sql.id(c)}`),
        )}
        from portfolio_change_rows r, jsonb_populate_record(null::transactions, r.before) p
        where r.change_id = ${changeId}::uuid and r.before is not null and r.after is not null
          and t.id = r.transaction_id and t.portfolio_id = ${portfolioId}::uuid
      `.execute(trx);
      await sql`
        insert into transactions
        select p.* from portfolio_change_rows r, jsonb_populate_record(null::transactions, r.before) p
        where r.change_id = ${changeId}::uuid and r.before is not null and r.after is null
          and p.portfolio_id = ${portfolioId}::uuid and p.user_id = ${userId}::uuid
      `.execute(trx);
      await fillAfter(revertId);
      const reverted = await trx
        .updateTable('portfolio_changes')
        .set({ reverted_by: revertId })
        .where('id', '=', changeId)
        .returningAll()
        .executeTakeFirstOrThrow();
      const change = await close(revertId, target.transaction_count);
      return { outcome: 'reverted', change, reverted: toChange(reverted) };
    },
  };
}

/** The journal reads (see {@link PortfolioChange}); every query is scoped by the owning user. */
export function journalReads(db: Executor) {
  return {
    /**
     * The portfolio's changes, newest first, one keyset page at a time (limit 1 to 100, default
     * 50). Empty for a portfolio the user does not own (check ownership first).
     * @throws {StoreError} `invalid_input` for a malformed cursor or a limit outside 1..100.
     */
    async listChanges(
      userId: string,
      portfolioId: string,
      query: { cursor?: string; limit?: number } = {},
    ): Promise<PortfolioChangePage> {
      const limit = query.limit ?? 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        throw new StoreError('invalid_input', 'limit must be an integer from 1 to 100');
      }
      if (!isUuid(portfolioId)) return { items: [], nextCursor: null };
      let select = db
        .selectFrom('portfolio_changes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('portfolio_id', '=', portfolioId);
      if (query.cursor) select = select.where('seq', '<', decodeCursor(query.cursor));
      const rows = await select
        .orderBy('seq', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toChange),
        nextCursor: rows.length > limit && last ? encodeCursor(String(last.seq)) : null,
      };
    },

    /** One change of the user's portfolio, or undefined (also another user's or portfolio's). */
    async getChange(
      userId: string,
      portfolioId: string,
      changeId: string,
    ): Promise<PortfolioChange | undefined> {
      if (!isUuid(changeId) || !isUuid(portfolioId)) return undefined;
      const row = await db
        .selectFrom('portfolio_changes')
        .selectAll()
        .where('id', '=', changeId)
        .where('user_id', '=', userId)
        .where('portfolio_id', '=', portfolioId)
        .executeTakeFirst();
      return row && toChange(row);
    },

    /**
     * The standing changes (not reverted) that last wrote each of `transactionIds` of the
     * portfolio (ids, oldest first): what a ledger that breaks at those transactions depends on.
     */
    async lastWriters(
      userId: string,
      portfolioId: string,
      transactionIds: readonly string[],
    ): Promise<string[]> {
      const ids = transactionIds.filter(isUuid);
      if (ids.length === 0 || !isUuid(portfolioId)) return [];
      const rows = await db
        .selectFrom('portfolio_changes as c')
        .innerJoin('portfolio_change_rows as r', 'r.change_id', 'c.id')
        .select(['c.id', 'c.seq', 'r.transaction_id'])
        .where('c.user_id', '=', userId)
        .where('c.portfolio_id', '=', portfolioId)
        .where('c.reverted_by', 'is', null)
        .where('r.after', 'is not', null)
        .where('r.transaction_id', 'in', ids)
        .orderBy('c.seq', 'desc')
        .execute();
      const last = new Map<string, { id: string; seq: string }>();
      for (const row of rows) if (!last.has(row.transaction_id)) last.set(row.transaction_id, row);
      return [...new Map([...last.values()].map((c) => [c.id, c])).values()]
        .sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1))
        .map((c) => c.id);
    },
  };
}
