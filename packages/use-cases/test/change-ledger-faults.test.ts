/**
 * Issue 37: every write of a ledger is one unit of work (`changeLedger`). A fault injected
 * before any statement of a record, edit, delete, revert or broker import — the outside reads
 * and cache writes, the lock, the row writes, the journal, the positions — leaves the ledger,
 * its journal and the stored positions exactly as they were; with no fault the change is made.
 * On PostgreSQL and PGlite.
 */
import type { QuoteProvider } from '@svc/market-data';
import { createRepositories, type Executor } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

type KyselyPlugin = Parameters<Executor['withPlugin']>[0];
type TransformArgs = Parameters<KyselyPlugin['transformQuery']>[0];

/** A Kysely plugin that throws before the `failAt`-th statement compiled through it (from 1). */
class FaultPlugin implements KyselyPlugin {
  count = 0;
  failAt = Number.POSITIVE_INFINITY;
  fired = false;
  arm(at: number) {
    this.count = 0;
    this.failAt = at;
    this.fired = false;
  }
  transformQuery(args: TransformArgs): TransformArgs['node'] {
    this.count += 1;
    if (this.count === this.failAt) {
      this.fired = true;
      throw new Error(`injected fault before statement ${this.count}`);
    }
    return args.node;
  }
  async transformResult<R>(args: { result: R }): Promise<R> {
    return args.result;
  }
}

/** A quote provider answering 100 USD for every symbol (so the quote cache is written too). */
const quotes: QuoteProvider = {
  name: 'fixed',
  getQuote: async (symbol) => ({
    symbol,
    price: 100,
    currency: 'USD',
    asOf: '2024-03-01',
    source: 'fixed',
  }),
} as QuoteProvider;

/** Everything of the portfolio a change may touch, as plain rows (positions without their ids). */
async function snapshot(db: Executor, portfolioId: string) {
  const without = <T extends { id: string }>(rows: T[]) => rows.map(({ id: _id, ...row }) => row);
  return {
    portfolio: await db
      .selectFrom('portfolios')
      .select(['name', 'ledger_version', 'positions_version', 'realized_pnl_eur'])
      .where('id', '=', portfolioId)
      .execute(),
    transactions: await db
      .selectFrom('transactions')
      .selectAll()
      .where('portfolio_id', '=', portfolioId)
      .orderBy('id')
      .execute(),
    changes: await db
      .selectFrom('portfolio_changes')
      .selectAll()
      .where('portfolio_id', '=', portfolioId)
      .orderBy('seq')
      .execute(),
    changeRows: await db
      .selectFrom('portfolio_change_rows as r')
      .innerJoin('portfolio_changes as c', 'c.id', 'r.change_id')
      .selectAll('r')
      .where('c.portfolio_id', '=', portfolioId)
      .orderBy('c.seq')
      .orderBy('r.transaction_id')
      .execute(),
    holdings: without(
      await db
        .selectFrom('holdings')
        .selectAll()
        .where('portfolio_id', '=', portfolioId)
        .orderBy('symbol')
        .orderBy('currency')
        .execute(),
    ),
    cash: without(
      await db
        .selectFrom('cash_positions')
        .selectAll()
        .where('portfolio_id', '=', portfolioId)
        .orderBy('currency')
        .execute(),
    ),
  };
}

const CSV = [
  'Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note',
  '2024-02-01,MSFT,YAHOO,USD,400,2,buy,1,',
  '2024-02-02,AAPL,YAHOO,USD,180,1,sell,1,',
  '2024-02-03,NVDA,YAHOO,USD,700,1,buy,0,',
].join('\n');

describe.each(backends)(
  'a fault between any two statements of a ledger change on $name',
  (backend) => {
    let database: TestDatabase;
    const plugin = new FaultPlugin();
    let faulty: ReturnType<typeof createPortfolioService>;
    let clean: ReturnType<typeof createPortfolioService>;

    beforeAll(async () => {
      database = await backend.open();
      const deps = { quotes, fx: null, now: () => new Date('2024-03-01T22:00:00Z') };
      clean = createPortfolioService({ ...deps, db: database.db });
      faulty = createPortfolioService({ ...deps, db: database.db.withPlugin(plugin) });
    });
    afterAll(() => database.cleanup());

    /**
     * Runs `change` with a fault before its 1st, 2nd, … statement until it runs through; after
     * every fault the portfolio is as before. Answers how many statements the change took.
     */
    async function everyFault(portfolioId: string, change: () => Promise<unknown>) {
      const before = await snapshot(database.db, portfolioId);
      for (let at = 1; ; at += 1) {
        plugin.arm(at);
        const outcome = await change().then(
          () => 'done' as const,
          (error: unknown) => error,
        );
        if (outcome === 'done') {
          expect(plugin.fired).toBe(false);
          plugin.arm(Number.POSITIVE_INFINITY);
          expect(await snapshot(database.db, portfolioId)).not.toEqual(before);
          return at - 1;
        }
        expect(plugin.fired, String(outcome)).toBe(true);
        expect(await snapshot(database.db, portfolioId)).toEqual(before);
      }
    }

    it('leaves the ledger, its journal and the positions as they were, then makes the change', async () => {
      const user = (await createRepositories(database.db).users.create({ email: uniqueEmail() }))
        .id;
      const p = await clean.createPortfolio(user, { name: 'Faults' });
      await clean.recordTransaction(user, p.id, {
        type: 'deposit',
        amount: '5000',
        currency: 'USD',
        executedAt: '2024-01-01T10:00:00Z',
      });
      const buy = await clean.recordTransaction(user, p.id, {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '3',
        price: '180',
        fee: '1',
        currency: 'USD',
        executedAt: '2024-01-02T10:00:00Z',
      });

      const statements: Record<string, number> = {};
      statements.record = await everyFault(p.id, () =>
        faulty.recordTransaction(user, p.id, {
          type: 'buy',
          symbol: 'AAPL',
          quantity: '1',
          price: '190',
          currency: 'USD',
          executedAt: '2024-01-05T10:00:00Z',
        }),
      );
      statements.edit = await everyFault(p.id, () =>
        faulty.editTransaction(user, p.id, buy.id, { price: '181', note: 'corrected' }),
      );
      const edit = (await clean.listChanges(user, p.id)).items[0];
      statements.import = await everyFault(p.id, () => faulty.importBrokerCsv(user, p.id, CSV));
      statements.delete = await everyFault(p.id, () =>
        faulty.deleteTransaction(user, p.id, buy.id),
      );
      const deletion = (await clean.listChanges(user, p.id)).items[0];
      statements.revert = await everyFault(p.id, () =>
        faulty.revertChange(user, p.id, deletion?.id ?? ''),
      );
      // a revaluation rewrites the positions (their version moves) in the same shape
      statements.revalue = await everyFault(p.id, () => faulty.revalue(user, p.id));

      expect(edit?.kind).toBe('edit');
      expect((await clean.listChanges(user, p.id)).items.map((c) => c.kind)).toEqual([
        'revert',
        'delete',
        'import',
        'edit',
        'record',
        'record',
        'record',
      ]);
      // every change takes several statements inside its transaction: each was a fault point
      for (const count of Object.values(statements)) expect(count).toBeGreaterThan(4);
    });
  },
);
