/**
 * Issue 30: every write to a portfolio's ledger is a change in its journal, and every change can
 * be reverted (CONTRACT §6), through the REST routes as a user meets them, on PostgreSQL and PGlite.
 */
import { type Holding, PortfolioChange, PortfolioChangePage, Transaction } from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { ENGINES } from './helpers.js';
import { portfolioFixture } from './portfolio-fixture.js';

/** A Ghostfolio CSV export of `rows` ([day, symbol, price, quantity, action]). */
const ghostfolio = (rows: [string, string, string, string, string][]) =>
  [
    'Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note',
    ...rows.map(([day, symbol, price, quantity, action]) =>
      [day, symbol, 'YAHOO', 'USD', price, quantity, action, '0', ''].join(','),
    ),
  ].join('\n');

describe.each(ENGINES)('changes of a portfolio’s ledger on %s', (engine) => {
  const fx = portfolioFixture(engine, 'changes');
  const { call } = fx;
  const portfolio = async (name: string) => (await fx.createPortfolio(fx.alice, name)).id;
  const record = async (id: string, tx: object) => {
    const res = await call(fx.alice, 'POST', `/api/portfolios/${id}/transactions`, tx);
    expect(res.statusCode, res.body).toBe(201);
    return Transaction.parse(res.json());
  };
  const importFile = (id: string, csv: string) => fx.importCsv(fx.alice, id, csv);
  const changes = async (id: string, query = '') => {
    const res = await call(fx.alice, 'GET', `/api/portfolios/${id}/changes${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return PortfolioChangePage.parse(res.json());
  };
  const holdings = async (id: string) => {
    const res = await call(fx.alice, 'GET', `/api/holdings?portfolioId=${id}`);
    return Object.fromEntries(
      (res.json() as Holding[]).map((h) => [h.symbol, h.quantity] as const),
    ) as Record<string, string>;
  };
  const ledgerIds = async (id: string) => {
    const res = await call(fx.alice, 'GET', `/api/transactions?portfolioId=${id}&limit=100`);
    return (res.json().items as Transaction[]).map((t) => t.id).sort();
  };
  const revert = (id: string, changeId: string, user = fx.alice) =>
    call(user, 'POST', `/api/portfolios/${id}/changes/${changeId}/revert`);
  const buy = (quantity: string, day = '2024-01-02') => ({
    type: 'buy',
    symbol: 'AAPL',
    quantity,
    price: '180.5',
    currency: 'USD',
    executedAt: `${day}T15:00:00Z`,
  });

  it('journals records and imports, edits and deletes under the ledger rules, and reverts each', async () => {
    const id = await portfolio('Journal');
    const bought = await record(id, buy('10'));
    const file = ghostfolio([
      ['03-01-2024', 'MSFT', '370', '5', 'buy'],
      ['04-01-2024', 'MSFT', '372', '1', 'buy'],
    ]);
    const imported = await importFile(id, file);
    expect(imported.imported).toBe(2);
    let page = await changes(id);
    expect(page.items.map((c) => [c.kind, c.source, c.transactionCount])).toEqual([
      ['import', 'rest', 2],
      ['record', 'rest', 1],
    ]);
    expect(page.items[1]?.summary).toBe(
      'Recorded buy 10 AAPL at 180.5 USD on 2024-01-02T15:00:00.000Z',
    );
    const importChange = page.items[0] as PortfolioChange;

    // an edit: the stored executedAt is the UTC instant, as recording stores it; reads follow
    const edited = await call(
      fx.alice,
      'PATCH',
      `/api/portfolios/${id}/transactions/${bought.id}`,
      {
        quantity: '12',
        executedAt: '2024-01-02T10:00:00+23:59',
        note: 'fixed',
      },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(Transaction.parse(edited.json())).toEqual({
      ...bought,
      quantity: '12',
      executedAt: '2024-01-01T10:01:00.000Z',
      note: 'fixed',
    });
    expect(await holdings(id)).toEqual({ AAPL: '12', MSFT: '6' });

    // a sale of 11 needs the 12: shrinking or deleting the buy is a conflict naming the sale
    const sold = await record(id, { ...buy('11', '2024-02-01'), type: 'sell' });
    const shrink = await call(
      fx.alice,
      'PATCH',
      `/api/portfolios/${id}/transactions/${bought.id}`,
      {
        quantity: '5',
      },
    );
    expect(shrink.statusCode).toBe(409);
    expect(shrink.headers['content-type']).toContain('application/problem+json');
    expect(shrink.json()).toMatchObject({ code: 'conflict', transactions: [sold.id] });
    const drop = await call(fx.alice, 'DELETE', `/api/portfolios/${id}/transactions/${bought.id}`);
    expect(drop.statusCode).toBe(409);
    expect(drop.json()).toMatchObject({ code: 'conflict', transactions: [sold.id] });
    expect(await holdings(id)).toEqual({ AAPL: '1', MSFT: '6' });
    const invalid = await call(
      fx.alice,
      'PATCH',
      `/api/portfolios/${id}/transactions/${bought.id}`,
      {
        type: 'dividend',
      },
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('validation_failed');

    // reverting the first edit would take the units the sale needs: 409 naming the sale's change
    page = await changes(id);
    const [saleChange, editChange] = page.items;
    expect(page.items.map((c) => c.kind)).toEqual(['record', 'edit', 'import', 'record']);
    // the summary names the fields the edit changed, the note among them
    expect(editChange?.summary).toBe(
      'Edited buy 10 AAPL at 180.5 USD on 2024-01-02T15:00:00.000Z → buy 12 AAPL at 180.5 USD on 2024-01-01T10:01:00.000Z (changed: executedAt, note, quantity)',
    );
    const blocked = await revert(id, editChange?.id ?? '');
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({
      code: 'conflict',
      changes: [saleChange?.id],
      transactions: [sold.id],
    });
    // the first record is followed by edits that still stand: 409 naming them
    const dependent = await revert(id, page.items[3]?.id ?? '');
    expect(dependent.statusCode).toBe(409);
    expect(dependent.json()).toMatchObject({
      changes: [editChange?.id],
      transactions: [bought.id],
    });
    const removeNote = await call(
      fx.alice,
      'PATCH',
      `/api/portfolios/${id}/transactions/${bought.id}`,
      {
        note: null,
      },
    );
    expect(removeNote.json().note).toBeUndefined();
    // the first edit is no longer as it left the row: the note's edit depends on it
    const noted = (await changes(id, '?limit=1')).items[0];
    const stale = await revert(id, editChange?.id ?? '');
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ changes: [noted?.id], transactions: [bought.id] });

    // an import's revert removes exactly its rows
    const before = await ledgerIds(id);
    expect(before).toHaveLength(4);
    const undone = await revert(id, importChange.id);
    expect(undone.statusCode, undone.body).toBe(201);
    expect(PortfolioChange.parse(undone.json())).toMatchObject({
      kind: 'revert',
      source: 'rest',
      transactionCount: 2,
      reverts: importChange.id,
    });
    expect(await ledgerIds(id)).toEqual([bought.id, sold.id].sort());
    expect((await ledgerIds(id)).length).toBe(before.length - 2);
    expect(await holdings(id)).toEqual({ AAPL: '1' });
    const again = await revert(id, importChange.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', changes: [undone.json().id] });
    expect((await changes(id)).items.find((c) => c.id === importChange.id)?.revertedBy).toBe(
      undone.json().id,
    );
    // the same file imports again (its fingerprints are free)
    expect((await importFile(id, file)).imported).toBe(2);

    // a delete's revert brings the row back with its id
    const deleted = await call(fx.alice, 'DELETE', `/api/portfolios/${id}/transactions/${sold.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(await holdings(id)).toMatchObject({ AAPL: '12' });
    const deleteChange = (await changes(id, '?limit=1')).items[0];
    expect(deleteChange?.kind).toBe('delete');
    expect((await revert(id, deleteChange?.id ?? '')).statusCode).toBe(201);
    const listed = await call(fx.alice, 'GET', `/api/transactions?portfolioId=${id}&limit=100`);
    expect((listed.json().items as Transaction[]).find((t) => t.id === sold.id)).toEqual(sold);
    expect(await holdings(id)).toMatchObject({ AAPL: '1' });
  });

  it('takes a transaction read back whole, ids included, but never changes an id', async () => {
    const id = await portfolio('Whole');
    const tx = await record(id, buy('4'));
    const whole = await call(fx.alice, 'PATCH', `/api/portfolios/${id}/transactions/${tx.id}`, {
      ...tx,
      quantity: '5',
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json()).toEqual({ ...tx, quantity: '5' });
    const moved = await call(fx.alice, 'PATCH', `/api/portfolios/${id}/transactions/${tx.id}`, {
      ...tx,
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'body.id' }],
    });
    const elsewhere = await call(fx.alice, 'PATCH', `/api/portfolios/${id}/transactions/${tx.id}`, {
      portfolioId: await portfolio('Other'),
    });
    expect(elsewhere.statusCode).toBe(400);
    expect((await changes(id)).items.map((c) => c.kind)).toEqual(['edit', 'record']);
  });

  it('pages changes newest first and refuses bad pages', async () => {
    const id = await portfolio('Pages');
    for (const day of ['2024-01-02', '2024-01-03', '2024-01-04']) await record(id, buy('1', day));
    const first = await changes(id, '?limit=2');
    expect(first.items).toHaveLength(2);
    const rest = await changes(id, `?limit=2&cursor=${first.nextCursor}`);
    expect(rest.items).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    expect(first.items[0]?.summary).toContain('2024-01-04');
    expect(rest.items[0]?.summary).toContain('2024-01-02');
    for (const query of ['?limit=0', '?limit=101', '?cursor=garbage']) {
      const res = await call(fx.alice, 'GET', `/api/portfolios/${id}/changes${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('answers 404 for another user’s portfolio, transaction and change ids', async () => {
    const id = await portfolio('Private');
    const tx = await record(id, buy('3'));
    const change = (await changes(id)).items[0]?.id ?? '';
    const bobs = (await fx.createPortfolio(fx.bob, 'Bob')).id;
    const attempts = [
      call(fx.bob, 'PATCH', `/api/portfolios/${id}/transactions/${tx.id}`, { quantity: '1' }),
      call(fx.bob, 'DELETE', `/api/portfolios/${id}/transactions/${tx.id}`),
      call(fx.bob, 'GET', `/api/portfolios/${id}/changes`),
      revert(id, change, fx.bob),
      // fx.alice's ids under fx.bob's own portfolio
      call(fx.bob, 'PATCH', `/api/portfolios/${bobs}/transactions/${tx.id}`, { quantity: '1' }),
      call(fx.bob, 'DELETE', `/api/portfolios/${bobs}/transactions/${tx.id}`),
      revert(bobs, change, fx.bob),
      call(
        fx.alice,
        'DELETE',
        `/api/portfolios/${id}/transactions/00000000-0000-4000-8000-000000000000`,
      ),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect(await ledgerIds(id)).toEqual([tx.id]);
    expect((await changes(id)).items).toHaveLength(1);
  });

  it('serialises an import’s revert with another import running on the same portfolio', async () => {
    const id = await portfolio('Concurrent');
    await record(id, {
      type: 'deposit',
      amount: '100000',
      currency: 'USD',
      executedAt: '2024-01-01T00:00:00Z',
    });
    const fileA = ghostfolio(
      Array.from(
        { length: 40 },
        (_, i) =>
          [`0${(i % 9) + 1}-02-2024`, 'MSFT', String(300 + i), '1', 'buy'] as [
            string,
            string,
            string,
            string,
            string,
          ],
      ),
    );
    const fileB = ghostfolio(
      Array.from(
        { length: 40 },
        (_, i) =>
          [`0${(i % 9) + 1}-03-2024`, 'NVDA', String(500 + i), '2', 'buy'] as [
            string,
            string,
            string,
            string,
            string,
          ],
      ),
    );
    const a = await importFile(id, fileA);
    const importA = (await changes(id, '?limit=1')).items[0] as PortfolioChange;
    const idsBefore = await ledgerIds(id);
    const [undo, importB] = await Promise.all([
      revert(id, importA.id),
      fx.upload(fx.alice, id, fileB),
    ]);
    expect(undo.statusCode, undo.body).toBe(201);
    expect(importB.statusCode, importB.body).toBe(201);
    expect(a.imported).toBe(40);
    const ids = await ledgerIds(id);
    expect(ids).toHaveLength(idsBefore.length - 40 + 40);
    expect(await holdings(id)).toEqual({ NVDA: '80' });
    const page = await changes(id);
    expect(page.items.map((c) => c.kind).sort()).toEqual(['import', 'import', 'record', 'revert']);
  });
});
