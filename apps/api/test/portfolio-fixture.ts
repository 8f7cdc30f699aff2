import { type ImportResult, Portfolio } from '@svc/use-cases';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

/** A registered user: the `Cookie` header of its session, and its id. */
export interface TestUser {
  readonly cookie: string;
  readonly userId: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The set-up the portfolio tests share, on one engine: before the suite a fresh app with Alice and
 * Bob registered (`alice-<label>-<engine>@example.com`, `bob-…`), closed after it; and the
 * requests a signed-in user makes. Call it in a `describe` body; `ctx`, `alice` and `bob` are set
 * once its `beforeAll` has run, so read them inside hooks and tests.
 *
 * @example
 * const fx = portfolioFixture(engine, 'changes');
 * it('imports', async () => {
 *   const { id } = await fx.createPortfolio(fx.alice, 'Main');
 *   expect((await fx.importCsv(fx.alice, id, csv)).imported).toBe(2);
 * });
 */
export function portfolioFixture(
  engine: 'pglite' | 'postgres',
  label: string,
  options: Omit<NonNullable<Parameters<typeof createTestContext>[0]>, 'engine'> = {},
) {
  const fx = {
    ctx: undefined as unknown as TestContext,
    alice: undefined as unknown as TestUser,
    bob: undefined as unknown as TestUser,

    /** A request of `user` (its cookie and the origin), with a JSON `payload` when given. */
    call: (user: { cookie: string }, method: Method, url: string, payload?: object) =>
      fx.ctx.app.inject({
        method,
        url,
        headers: { cookie: user.cookie, ...ORIGIN },
        ...(payload === undefined ? {} : { payload }),
      }),

    /** Creates a portfolio of `user` (201 expected). */
    async createPortfolio(user: { cookie: string }, name: string): Promise<Portfolio> {
      const res = await fx.call(user, 'POST', '/api/portfolios', { name });
      expect(res.statusCode, res.body).toBe(201);
      return Portfolio.parse(res.json());
    },

    /** Uploads `csv` to the portfolio's import route as `text/csv` (`query` e.g. `?dryRun=1`). */
    upload: (user: { cookie: string }, portfolioId: string, csv: string, query = '') =>
      fx.ctx.app.inject({
        method: 'POST',
        url: `/api/portfolios/${portfolioId}/import${query}`,
        headers: { cookie: user.cookie, ...ORIGIN, 'content-type': 'text/csv' },
        payload: csv,
      }),

    /** Imports `csv` into the portfolio (201 expected) and answers the import's result. */
    async importCsv(user: { cookie: string }, portfolioId: string, csv: string) {
      const res = await fx.upload(user, portfolioId, csv);
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as ImportResult;
    },
  };
  beforeAll(async () => {
    fx.ctx = await createTestContext({ ...options, engine });
    fx.alice = await registerUser(fx.ctx.app, `alice-${label}-${engine}@example.com`);
    fx.bob = await registerUser(fx.ctx.app, `bob-${label}-${engine}@example.com`);
  });
  // a set-up that failed (or timed out) leaves no context to close
  afterAll(() => fx.ctx?.close());
  return fx;
}
