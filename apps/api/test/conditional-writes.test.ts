/**
 * Issue 41 (CONTRACT §9 "Conditional writes"): transactions and portfolios answer an `ETag`;
 * `PATCH`/`DELETE` honour `If-Match` (412 `precondition_failed`, nothing written); an advisor
 * proposal applies only while the row (or the ledger) its summary describes is unchanged (409
 * `conflict` naming what changed, nothing written). Every interleaving of proposal, edit, delete
 * and revert named below, on both databases, with a scripted model on loopback.
 */
import { textSteps, toolCallSteps } from '@svc/service/testing';
import type { AdvisorFrame } from '@svc/use-cases';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advisorFrames, type FakeModel, portfolioWith, startFakeModel } from './ai-support.js';
import { createTestContext, ENGINES, ORIGIN, registerUser, type TestContext } from './helpers.js';

describe.each(ENGINES)('conditional writes on %s', (engine) => {
  let ctx: TestContext;
  let model: FakeModel;
  let user: { cookie: string };
  let portfolioId: string;
  let txId: string;
  let n = 0;

  beforeAll(async () => {
    model = await startFakeModel();
    ctx = await createTestContext({
      engine,
      env: { ...model.env, QUOTA_LIMITS: '{"free":{"ai_consult":{"limit":500}}}' },
    });
    user = await registerUser(ctx.app, `conditional-${engine}@example.com`);
  });
  afterAll(async () => {
    await ctx.close();
    await model.server.close();
  });
  beforeEach(async () => {
    n += 1;
    const buy = { symbol: 'AAPL', quantity: '10', price: '150', currency: 'USD' };
    portfolioId = await portfolioWith(ctx.app, user.cookie, `P${n}`, buy);
    txId = (await call('GET', `/api/transactions?portfolioId=${portfolioId}`)).json().items[0].id;
  });

  const call = (
    method: 'GET' | 'PATCH' | 'DELETE' | 'POST',
    url: string,
    options: {
      payload?: object;
      headers?: Record<string, string>;
    } = {},
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { cookie: user.cookie, ...ORIGIN, ...options.headers },
      ...(options.payload ? { payload: options.payload } : {}),
    });
  const txUrl = () => `/api/portfolios/${portfolioId}/transactions/${txId}`;
  const ledger = async () => ({
    transactions: (await call('GET', `/api/transactions?portfolioId=${portfolioId}`)).json(),
    changes: (await call('GET', `/api/portfolios/${portfolioId}/changes`)).json(),
    holdings: (await call('GET', `/api/holdings?portfolioId=${portfolioId}`)).json(),
  });
  /** One turn in which the model calls `name` with `args`; answers the proposals it made. */
  const propose = async (name: string, args: object) => {
    model.next(
      { steps: toolCallSteps([{ name, arguments: JSON.stringify({ portfolioId, ...args }) }]) },
      { steps: textSteps('Proposed.') },
    );
    const res = await call('POST', '/api/advisor/chat', {
      payload: { messages: [{ role: 'user', content: 'Fix my ledger' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const frames: AdvisorFrame[] = advisorFrames(res.body);
    const proposals = frames.flatMap((f) => (f.type === 'proposal' ? [f.proposal] : []));
    expect(proposals, JSON.stringify(frames)).toHaveLength(1);
    return proposals[0] as NonNullable<(typeof proposals)[0]>;
  };
  const confirm = (proposalId: string) =>
    call('POST', '/api/advisor/confirm', { payload: { proposalId, decision: 'accept' } });

  it('answers ETags; If-Match lets a write through only while it matches', async () => {
    const read = await call('GET', txUrl());
    expect(read.statusCode).toBe(200);
    const tag = read.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect((await call('GET', txUrl())).headers.etag).toBe(tag);

    const edited = await call('PATCH', txUrl(), {
      payload: { price: '151' },
      headers: { 'if-match': tag },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const next = edited.headers.etag as string;
    expect(next).not.toBe(tag);
    expect((await call('GET', txUrl())).headers.etag).toBe(next);

    // the old tag no longer matches: 412, nothing written
    const before = await ledger();
    for (const stale of [tag, `W/${next}`, '"nope"']) {
      const refused = await call('PATCH', txUrl(), {
        payload: { price: '999' },
        headers: { 'if-match': stale },
      });
      expect(refused.statusCode, stale).toBe(412);
      expect(refused.json()).toMatchObject({ code: 'precondition_failed', status: 412 });
      const gone = await call('DELETE', txUrl(), { headers: { 'if-match': stale } });
      expect(gone.statusCode).toBe(412);
    }
    expect(await ledger()).toEqual(before);
    // a list with the current tag, and `*`, match; no If-Match at all stays unconditional
    const listed = await call('PATCH', txUrl(), {
      payload: { note: 'checked' },
      headers: { 'if-match': `"other", ${next}` },
    });
    expect(listed.statusCode).toBe(200);
    expect(
      (await call('PATCH', txUrl(), { payload: { note: 'again' }, headers: { 'if-match': '*' } }))
        .statusCode,
    ).toBe(200);
    const deleted = await call('DELETE', txUrl(), {
      headers: { 'if-match': (await call('GET', txUrl())).headers.etag as string },
    });
    expect(deleted.statusCode).toBe(204);

    // portfolios: ETag on create, read and rename; If-Match on rename and delete
    const p = await call('GET', `/api/portfolios/${portfolioId}`);
    const ptag = p.headers.etag as string;
    expect(ptag).toMatch(/^"/);
    const renamed = await call('PATCH', `/api/portfolios/${portfolioId}`, {
      payload: { name: 'Renamed' },
      headers: { 'if-match': ptag },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers.etag).not.toBe(ptag);
    const stale = await call('PATCH', `/api/portfolios/${portfolioId}`, {
      payload: { name: 'Lost update' },
      headers: { 'if-match': ptag },
    });
    expect(stale.statusCode).toBe(412);
    expect(
      (await call('DELETE', `/api/portfolios/${portfolioId}`, { headers: { 'if-match': ptag } }))
        .statusCode,
    ).toBe(412);
    expect((await call('GET', `/api/portfolios/${portfolioId}`)).json().name).toBe('Renamed');
    const created = await call('POST', '/api/portfolios', { payload: { name: 'New' } });
    expect(created.headers.etag).toMatch(/^"/);
  });

  it('refuses a stale edit proposal after an API edit, naming what changed', async () => {
    const proposal = await propose('proposeEditTransaction', {
      transactionId: txId,
      changes: { quantity: '12' },
    });
    const api = await call('PATCH', txUrl(), {
      payload: { price: '149.5', fee: '2', note: 'from the statement' },
    });
    expect(api.statusCode).toBe(200);
    const before = await ledger();
    const refused = await confirm(proposal.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().detail).toContain('fee, note, price');
    expect(refused.json().transactions).toEqual([txId]);
    expect(await ledger()).toEqual(before);
    expect((await call('GET', txUrl())).json()).toMatchObject({ price: '149.5', quantity: '10' });
  });

  it('applies the first of two edit proposals of one row, refuses the second', async () => {
    const first = await propose('proposeEditTransaction', {
      transactionId: txId,
      changes: { price: '160' },
    });
    const second = await propose('proposeEditTransaction', {
      transactionId: txId,
      changes: { quantity: '11' },
    });
    expect((await confirm(first.id)).statusCode).toBe(200);
    const before = await ledger();
    const refused = await confirm(second.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('(price)');
    expect(await ledger()).toEqual(before);
    expect((await call('GET', txUrl())).json()).toMatchObject({ price: '160', quantity: '10' });
  });

  it('refuses a stale delete: the row was edited, or deleted and brought back', async () => {
    const removal = await propose('proposeDeleteTransaction', { transactionId: txId });
    expect((await call('PATCH', txUrl(), { payload: { note: 'keep me' } })).statusCode).toBe(200);
    const before = await ledger();
    const refused = await confirm(removal.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('(note)');
    expect(await ledger()).toEqual(before);

    // deleted through the API: the proposal names a row that is gone
    const again = await propose('proposeDeleteTransaction', { transactionId: txId });
    expect((await call('DELETE', txUrl())).statusCode).toBe(204);
    const gone = await confirm(again.id);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().detail).toContain('was deleted');
    // reverting the delete brings the row back as it was: a proposal of it applies again
    const [deletion] = (await ledger()).changes.items;
    expect(
      (await call('POST', `/api/portfolios/${portfolioId}/changes/${deletion.id}/revert`))
        .statusCode,
    ).toBe(201);
    const revived = await propose('proposeDeleteTransaction', { transactionId: txId });
    expect((await confirm(revived.id)).statusCode).toBe(200);
  });

  it('refuses an edit proposal after a revert changed its row', async () => {
    expect((await call('PATCH', txUrl(), { payload: { price: '155' } })).statusCode).toBe(200);
    const proposal = await propose('proposeEditTransaction', {
      transactionId: txId,
      changes: { fee: '1' },
    });
    const [edit] = (await ledger()).changes.items;
    expect(
      (await call('POST', `/api/portfolios/${portfolioId}/changes/${edit.id}/revert`)).statusCode,
    ).toBe(201);
    const refused = await confirm(proposal.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('(price)');
    expect((await call('GET', txUrl())).json()).toMatchObject({ price: '150' });
    expect((await call('GET', txUrl())).json().fee).toBeUndefined();
  });
});
