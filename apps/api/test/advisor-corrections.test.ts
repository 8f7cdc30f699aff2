/**
 * Issue 30: the advisor proposes corrections of a portfolio's ledger (edit or delete a
 * transaction, revert a change); each applies only on the user's confirmation, exactly once, and
 * is journalled with the source `advisor`. A fake OpenAI-compatible model on loopback drives it.
 */
import { textSteps, toolCallSteps } from '@svc/service/testing';
import type { AdvisorFrame } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advisorFrames, type FakeModel, portfolioWith, startFakeModel } from './ai-support.js';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

describe('advisor corrections of the ledger', () => {
  let ctx: TestContext;
  let model: FakeModel;
  let alice: { cookie: string; portfolioId: string };
  let bob: { cookie: string; portfolioId: string };

  beforeAll(async () => {
    model = await startFakeModel();
    ctx = await createTestContext({
      env: { ...model.env, QUOTA_LIMITS: '{"free":{"ai_consult":{"limit":50}}}' },
    });
    const a = await registerUser(ctx.app, 'corrections-alice@example.com');
    const b = await registerUser(ctx.app, 'corrections-bob@example.com');
    const buy = { symbol: 'AAPL', quantity: '10', price: '150', currency: 'USD' };
    alice = { ...a, portfolioId: await portfolioWith(ctx.app, a.cookie, 'Main', buy) };
    bob = { ...b, portfolioId: await portfolioWith(ctx.app, b.cookie, 'Bob', buy) };
  });
  afterAll(async () => {
    await ctx.close();
    await model.server.close();
  });

  const get = (user: { cookie: string }, url: string) =>
    ctx.app.inject({ url, headers: { cookie: user.cookie } });
  const firstTransaction = async (user: { cookie: string; portfolioId: string }) =>
    (await get(user, `/api/transactions?portfolioId=${user.portfolioId}`)).json().items[0] as {
      id: string;
    };
  const changes = async () =>
    (await get(alice, `/api/portfolios/${alice.portfolioId}/changes`)).json().items as {
      id: string;
      kind: string;
      source: string;
    }[];
  const holdings = async () =>
    Object.fromEntries(
      (
        (await get(alice, `/api/holdings?portfolioId=${alice.portfolioId}`)).json() as {
          symbol: string;
          quantity: string;
        }[]
      ).map((h) => [h.symbol, h.quantity]),
    );
  /** One turn in which the model calls `name` with `args`; answers the proposals it made. */
  const proposeVia = async (name: string, args: object) => {
    model.next(
      { steps: toolCallSteps([{ name, arguments: JSON.stringify(args) }]) },
      { steps: textSteps('Proposed.') },
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/advisor/chat',
      headers: { cookie: alice.cookie, ...ORIGIN },
      payload: { messages: [{ role: 'user', content: 'Fix my ledger' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const frames: AdvisorFrame[] = advisorFrames(res.body);
    return frames.flatMap((f) => (f.type === 'proposal' ? [f.proposal] : []));
  };
  const confirm = (proposalId: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/advisor/confirm',
      headers: { cookie: alice.cookie, ...ORIGIN },
      payload: { proposalId, decision: 'accept' },
    });

  it('edits, reverts and deletes only once the user confirms, each exactly once', async () => {
    const tx = await firstTransaction(alice);
    const [edit] = await proposeVia('proposeEditTransaction', {
      portfolioId: alice.portfolioId,
      transactionId: tx.id,
      changes: { quantity: '12', price: '151.25', fee: '1.5' },
    });
    expect(edit).toMatchObject({ kind: 'edit_transaction' });
    // the summary names every amount before and after
    for (const amount of ['10', '150', '12', '151.25', '1.5', 'USD']) {
      expect(edit?.summary).toContain(amount);
    }
    expect(await holdings()).toEqual({ AAPL: '10' });
    const applied = await confirm(edit?.id ?? '');
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      status: 'applied',
      result: { transaction: { id: tx.id, quantity: '12', price: '151.25', fee: '1.5' } },
    });
    expect(await holdings()).toEqual({ AAPL: '12' });
    const twice = await confirm(edit?.id ?? '');
    expect(twice.statusCode).toBe(409);
    const [editChange] = await changes();
    expect(editChange).toMatchObject({ kind: 'edit', source: 'advisor' });

    const [revert] = await proposeVia('proposeRevertChange', {
      portfolioId: alice.portfolioId,
      changeId: editChange?.id,
    });
    expect(revert).toMatchObject({ kind: 'revert_change' });
    expect(revert?.summary).toContain('151.25');
    expect((await confirm(revert?.id ?? '')).statusCode).toBe(200);
    expect(await holdings()).toEqual({ AAPL: '10' });
    expect((await changes())[0]).toMatchObject({ kind: 'revert', source: 'advisor' });
    // a change already reverted gives no proposal
    expect(
      await proposeVia('proposeRevertChange', {
        portfolioId: alice.portfolioId,
        changeId: editChange?.id,
      }),
    ).toEqual([]);

    const [removal] = await proposeVia('proposeDeleteTransaction', {
      portfolioId: alice.portfolioId,
      transactionId: tx.id,
    });
    expect(removal?.summary).toContain('buy 10 AAPL at 150 USD');
    expect(await holdings()).toEqual({ AAPL: '10' });
    expect((await confirm(removal?.id ?? '')).statusCode).toBe(200);
    expect(await holdings()).toEqual({});
    expect((await changes())[0]).toMatchObject({ kind: 'delete', source: 'advisor' });
  });

  it('proposes nothing for another user’s transaction or change', async () => {
    const theirs = await firstTransaction(bob);
    const bobsChange = (await get(bob, `/api/portfolios/${bob.portfolioId}/changes`)).json()
      .items[0].id as string;
    expect(
      await proposeVia('proposeDeleteTransaction', {
        portfolioId: alice.portfolioId,
        transactionId: theirs.id,
      }),
    ).toEqual([]);
    expect(
      await proposeVia('proposeEditTransaction', {
        portfolioId: bob.portfolioId,
        transactionId: theirs.id,
        changes: { quantity: '1' },
      }),
    ).toEqual([]);
    expect(
      await proposeVia('proposeRevertChange', {
        portfolioId: alice.portfolioId,
        changeId: bobsChange,
      }),
    ).toEqual([]);
    expect((await get(bob, `/api/holdings?portfolioId=${bob.portfolioId}`)).json()).toMatchObject([
      { symbol: 'AAPL', quantity: '10' },
    ]);
  });
});
