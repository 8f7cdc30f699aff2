import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { backends, migratorOf, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { testLedger } from '../test-support/ledger.js';
import { createRepositories, type Repositories } from './index.js';
import type { NewTransaction } from './transactions.js';

const buy = (day: number, quantity = '2', extra: Partial<NewTransaction> = {}): NewTransaction => ({
  type: 'buy',
  symbol: 'AAPL',
  quantity,
  price: '187.123456789',
  fee: '0.99',
  currency: 'USD',
  executedAt: `2024-01-${String(day).padStart(2, '0')}T10:00:00+02:00`,
  ...extra,
});

describe.each(backends)('the journal of a portfolio’s ledger on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  let ledger: ReturnType<typeof testLedger>;
  const setup = async () => {
    const user = (await repos.users.create({ email: uniqueEmail() })).id;
    const portfolio = await repos.portfolios.create(user, { name: 'Main' });
    return { user, id: portfolio.id };
  };
  const ids = async (user: string, id: string) =>
    (await repos.transactions.listAll(user, id)).map((t) => t.id).sort();

  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
    ledger = testLedger(database.db);
  });
  afterAll(() => database.cleanup());

  it('journals records, imports, edits and deletes, newest first, with their sources', async () => {
    const { user, id } = await setup();
    const recorded = await ledger.record(user, id, buy(1), {
      summary: 'Bought 2 AAPL',
    });
    const imported = await ledger.importMany(user, id, [buy(2), buy(3)], {
      source: 'account-import',
    });
    const edited = await ledger.update(
      user,
      id,
      recorded.transaction.id,
      buy(4, '3', { executedAt: '2024-03-01T10:00:00+23:59', note: 'fixed' }),
      { source: 'advisor', summary: 'Edited' },
    );
    expect(edited.transaction).toMatchObject({
      id: recorded.transaction.id,
      quantity: '3',
      note: 'fixed',
      executedAt: '2024-02-29T10:01:00.000Z',
    });
    const deleted = await ledger.delete(user, id, imported.items[0]?.id ?? '');
    const page = await repos.transactions.listChanges(user, id);
    expect(page.items.map((c) => [c.kind, c.source, c.transactionCount])).toEqual([
      ['delete', 'rest', 1],
      ['edit', 'advisor', 1],
      ['import', 'account-import', 2],
      ['record', 'rest', 1],
    ]);
    expect(page.items.map((c) => c.id)).toEqual([
      deleted.change.id,
      edited.change.id,
      imported.change.id,
      recorded.change.id,
    ]);
    expect(page.items[3]?.summary).toBe('Bought 2 AAPL');
    const first = await repos.transactions.listChanges(user, id, { limit: 3 });
    expect(first.items).toHaveLength(3);
    const rest = await repos.transactions.listChanges(user, id, {
      limit: 3,
      cursor: first.nextCursor ?? '',
    });
    expect(rest.items.map((c) => c.id)).toEqual([recorded.change.id]);
    expect(rest.nextCursor).toBeNull();
    // another user sees nothing of it
    const other = await setup();
    expect((await repos.transactions.listChanges(other.user, id)).items).toEqual([]);
    expect(await repos.transactions.getChange(other.user, id, edited.change.id)).toBeUndefined();
    await expect(
      ledger.update(other.user, id, recorded.transaction.id, buy(5)),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      ledger.delete(user, id, '00000000-0000-4000-8000-000000000000'),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(ledger.revertChange(other.user, id, edited.change.id)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      repos.transactions.listChanges(user, id, { cursor: 'garbage' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('reverts an import (only its rows), an edit (old values) and a delete (same id)', async () => {
    const { user, id } = await setup();
    const before = await ledger.record(user, id, buy(1));
    const imported = await ledger.importMany(user, id, [
      buy(2, '1', { fingerprint: 'f2' }),
      buy(3, '1.000000000001', { fingerprint: 'f3' }),
    ]);
    const after = await ledger.record(user, id, buy(4));
    const version = await repos.portfolios.ledgerVersion(user, id);
    const undone = await ledger.revertChange(user, id, imported.change.id);
    expect(undone).toMatchObject({
      outcome: 'reverted',
      change: { kind: 'revert', reverts: imported.change.id, transactionCount: 2 },
      reverted: { id: imported.change.id },
    });
    expect(await ids(user, id)).toEqual([before.transaction.id, after.transaction.id].sort());
    expect(Number(await repos.portfolios.ledgerVersion(user, id))).toBeGreaterThan(Number(version));
    expect(await ledger.revertChange(user, id, imported.change.id)).toEqual({
      outcome: 'already_reverted',
      changes: [undone.outcome === 'reverted' ? undone.change.id : ''],
    });
    // reverting the revert brings the rows back, with their ids and exact decimals
    if (undone.outcome !== 'reverted') throw new Error('not reverted');
    const redone = await ledger.revertChange(user, id, undone.change.id);
    expect(redone.outcome).toBe('reverted');
    const rows = await repos.transactions.listAll(user, id);
    expect(rows.find((t) => t.fingerprint === 'f3')).toMatchObject({
      id: imported.items[1]?.id,
      quantity: '1.000000000001',
      importBatchId: imported.importBatchId,
    });

    const edit = await ledger.update(user, id, before.transaction.id, buy(9, '7'));
    expect((await repos.transactions.get(user, id, before.transaction.id))?.quantity).toBe('7');
    expect((await ledger.revertChange(user, id, edit.change.id)).outcome).toBe('reverted');
    expect(await repos.transactions.get(user, id, before.transaction.id)).toEqual(
      before.transaction,
    );

    const removal = await ledger.delete(user, id, after.transaction.id);
    expect(await repos.transactions.get(user, id, after.transaction.id)).toBeUndefined();
    await ledger.revertChange(user, id, removal.change.id);
    expect(await repos.transactions.get(user, id, after.transaction.id)).toEqual(after.transaction);
  });

  it('refuses a revert that later changes depend on, naming them', async () => {
    const { user, id } = await setup();
    const recorded = await ledger.record(user, id, buy(1));
    const edit = await ledger.update(user, id, recorded.transaction.id, buy(1, '5'));
    expect(await ledger.revertChange(user, id, recorded.change.id)).toEqual({
      outcome: 'depends',
      changes: [edit.change.id],
      transactions: [recorded.transaction.id],
    });
    // once the edit is reverted, the row is as the record left it: the record can go
    await ledger.revertChange(user, id, edit.change.id);
    expect((await ledger.revertChange(user, id, recorded.change.id)).outcome).toBe('reverted');
    expect(await ids(user, id)).toEqual([]);

    // a deleted imported row whose fingerprint was imported again cannot come back
    const first = await ledger.importMany(user, id, [buy(2, '1', { fingerprint: 'x' })]);
    const removal = await ledger.delete(user, id, first.items[0]?.id ?? '');
    const again = await ledger.importMany(user, id, [buy(2, '1', { fingerprint: 'x' })]);
    expect(await ledger.revertChange(user, id, removal.change.id)).toEqual({
      outcome: 'depends',
      changes: [again.change.id],
      transactions: [again.items[0]?.id],
    });
    expect(await repos.transactions.lastWriters(user, id, [again.items[0]?.id ?? ''])).toEqual([
      again.change.id,
    ]);
  });

  it('patches a ledger from a version to another when the journal accounts for every write', async () => {
    const { user, id } = await setup();
    const version = async () => (await repos.portfolios.ledgerVersion(user, id)) ?? '';
    const apply = (
      ledger: Map<string, unknown>,
      patch: { id: string; row: unknown }[] | undefined,
    ) => {
      if (!patch) throw new Error('no patch');
      for (const { id: txId, row } of patch) {
        if (row === null) ledger.delete(txId);
        else ledger.set(txId, row);
      }
      return ledger;
    };
    const byId = async () =>
      new Map((await repos.transactions.listAll(user, id)).map((t) => [t.id, t] as const));
    const first = await ledger.record(user, id, buy(1));
    const v1 = await version();
    const held = await byId();
    const imported = await ledger.importMany(user, id, [buy(2), buy(3)]);
    await ledger.update(user, id, first.transaction.id, buy(4, '9'));
    await ledger.delete(user, id, imported.items[0]?.id ?? '');
    await ledger.revertChange(user, id, imported.change.id).catch(() => undefined);
    const v2 = await version();
    expect(v2).not.toBe(v1);
    const patch = await repos.transactions.ledgerPatch(user, id, v1, v2);
    expect(apply(held, patch)).toEqual(await byId());
    expect(await repos.transactions.ledgerPatch(user, id, v2, v2)).toEqual([]);
    // a bound on the rows, another user, a version not reached: no patch
    expect(await repos.transactions.ledgerPatch(user, id, v1, v2, 1)).toBeUndefined();
    const other = await setup();
    expect(await repos.transactions.ledgerPatch(other.user, id, v1, v2)).toBeUndefined();
    expect(
      await repos.transactions.ledgerPatch(user, id, v1, String(BigInt(v2) + 1n)),
    ).toBeUndefined();
    // a write outside the journal breaks the chain
    await database.db
      .updateTable('transactions')
      .set({ note: 'raw' })
      .where('portfolio_id', '=', id)
      .execute();
    await ledger.record(user, id, buy(5));
    expect(await repos.transactions.ledgerPatch(user, id, v2, await version())).toBeUndefined();
  });

  it('rolls the journal back with a failed write', async () => {
    const { user, id } = await setup();
    await expect(ledger.importMany(user, id, [buy(1), buy(2, 'x')])).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect((await repos.transactions.listChanges(user, id)).items).toEqual([]);
  });
});

describe.each(backends)('migration 0014b on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  it('adds the ledger versions to a journal written without them; its changes are never patched', async () => {
    const migrator = migratorOf(database);
    expect((await migrator.migrateTo('0014-portfolio-changes')).error).toBeUndefined();
    const repos = createRepositories(database.db);
    const user = (await repos.users.create({ email: uniqueEmail() })).id;
    const { id } = await repos.portfolios.create(user, { name: 'Old journal' });
    const tx = await database.db
      .insertInto('transactions')
      .values({
        user_id: user,
        portfolio_id: id,
        type: 'deposit',
        amount: '10',
        currency: 'EUR',
        executed_at: '2024-01-01T00:00:00Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = (await repos.portfolios.ledgerVersion(user, id)) ?? '';
    const change = await database.db
      .insertInto('portfolio_changes')
      .values({ user_id: user, portfolio_id: id, kind: 'record', source: 'rest', summary: 'old' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('portfolio_change_rows')
      .values({ change_id: change.id, transaction_id: tx.id })
      .execute();
    await migrateToLatest(database.db);
    await testLedger(database.db).record(user, id, buy(2));
    const after = (await repos.portfolios.ledgerVersion(user, id)) ?? '';
    // the new change carries its versions; the old one has none, so no chain reaches back to it
    expect(await repos.transactions.ledgerPatch(user, id, before, after)).toHaveLength(1);
    expect(await repos.transactions.ledgerPatch(user, id, '0', after)).toBeUndefined();
  });
});
