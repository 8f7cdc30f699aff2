/**
 * Issue 30 (CONTRACT §6), the user's own data taken back, away and erased: deleting a portfolio,
 * changing the password, exporting and importing the account, erasing it. On PGlite and on a real
 * PostgreSQL, through the real app (`app.inject`).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, ORIGIN, registerUser, type TestContext } from './helpers.js';

type User = { cookie: string; userId: string };

describe.each(ENGINES)('the user’s own data on %s', (engine) => {
  let ctx: TestContext;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    ctx = await createTestContext({ engine });
    alice = await registerUser(ctx.app, `data-alice-${engine}@example.com`);
    bob = await registerUser(ctx.app, `data-bob-${engine}@example.com`);
  });
  afterAll(() => ctx.close());

  const inject = (
    user: { cookie: string } | undefined,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { ...ORIGIN, ...(user ? { cookie: user.cookie } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const createPortfolio = async (user: User, name: string): Promise<string> => {
    const res = await inject(user, 'POST', '/api/portfolios', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const record = async (user: User, portfolioId: string, tx: object) => {
    const res = await inject(user, 'POST', `/api/portfolios/${portfolioId}/transactions`, tx);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const buy = (symbol: string, quantity: string, price: string, executedAt: string) => ({
    type: 'buy',
    symbol,
    quantity,
    price,
    currency: 'USD',
    fee: '1',
    executedAt,
  });

  describe('DELETE /api/portfolios/{id}', () => {
    it('deletes the portfolio with its transactions and positions; reads follow at once', async () => {
      const keep = await createPortfolio(alice, 'Keep');
      const gone = await createPortfolio(alice, 'Gone');
      await record(alice, keep, buy('AAPL', '1', '150', '2024-01-10T15:00:00Z'));
      await record(alice, gone, buy('AAPL', '5', '150', '2024-01-10T15:00:00Z'));
      // warm the read memos of both the one portfolio and all of them
      expect((await inject(alice, 'GET', `/api/holdings?portfolioId=${gone}`)).statusCode).toBe(
        200,
      );
      expect((await inject(alice, 'GET', '/api/holdings')).json()).toHaveLength(2);

      const res = await inject(alice, 'DELETE', `/api/portfolios/${gone}`);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');

      for (const url of [
        `/api/holdings?portfolioId=${gone}`,
        `/api/cash?portfolioId=${gone}`,
        `/api/transactions?portfolioId=${gone}`,
        `/api/portfolios/${gone}/performance`,
      ]) {
        const read = await inject(alice, 'GET', url);
        expect(read.statusCode, url).toBe(404);
        expect(read.json().code).toBe('not_found');
      }
      const holdings = (await inject(alice, 'GET', '/api/holdings')).json();
      expect(holdings.map((h: { portfolioId: string }) => h.portfolioId)).toEqual([keep]);
      const portfolios = (await inject(alice, 'GET', '/api/portfolios')).json();
      expect(portfolios.map((p: { id: string }) => p.id)).toContain(keep);
      expect(portfolios.map((p: { id: string }) => p.id)).not.toContain(gone);
      for (const table of ['transactions', 'holdings', 'cash_positions'] as const) {
        const rows = await ctx.db
          .selectFrom(table)
          .select('id')
          .where('portfolio_id', '=', gone)
          .execute();
        expect(rows, table).toEqual([]);
      }
      const again = await inject(alice, 'DELETE', `/api/portfolios/${gone}`);
      expect(again.statusCode).toBe(404);
    });

    it("answers 404 for another user's portfolio and for a malformed id, deleting nothing", async () => {
      const mine = await createPortfolio(alice, 'Mine');
      for (const id of [mine, 'not-a-uuid']) {
        const res = await inject(bob, 'DELETE', `/api/portfolios/${id}`);
        expect(res.statusCode, res.body).toBe(id === mine ? 404 : 400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
      const still = (await inject(alice, 'GET', '/api/portfolios')).json();
      expect(still.map((p: { id: string }) => p.id)).toContain(mine);
      expect((await inject(undefined, 'DELETE', `/api/portfolios/${mine}`)).statusCode).toBe(401);
    });
  });
});
