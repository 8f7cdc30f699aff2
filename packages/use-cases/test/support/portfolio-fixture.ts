import type { Attachment } from '@svc/advisor';
import { createRepositories } from '@svc/portfolio-store';
import { type TestBackend, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll } from 'vitest';
import { buildProposalTools } from '../../src/advisor/proposal-tools.js';
import {
  createPortfolioService,
  type PortfolioService,
  type PortfolioServiceDeps,
} from '../../src/portfolio/portfolio-service.js';

/**
 * The set-up the portfolio use-case tests share, on one engine: before the suite a fresh, migrated
 * database (`pool` sizes a PostgreSQL pool) and a portfolio service over it with `deps`, thrown
 * away after it. Call it in a `describe` body; `database` and `service` are set once its
 * `beforeAll` has run, so read them inside hooks and tests.
 *
 * @example
 * const fx = portfolioFixture(engine, { quotes: null, fx: null, now });
 * it('records', async () => {
 *   const { userId, portfolio } = await fx.newPortfolio('Main');
 *   await fx.service.recordTransaction(userId, portfolio.id, buy);
 * });
 */
export function portfolioFixture(
  engine: TestBackend,
  deps: Omit<PortfolioServiceDeps, 'db'>,
  open: Parameters<TestBackend['open']>[0] = {},
) {
  const fx = {
    database: undefined as unknown as TestDatabase,
    service: undefined as unknown as PortfolioService,

    /** A user registered under a fresh address (`label` in it) and a portfolio of it, `name`. */
    async newPortfolio(name: string, label?: string) {
      const user = await createRepositories(fx.database.db).users.create({
        email: uniqueEmail(label),
      });
      const portfolio = await fx.service.createPortfolio(user.id, { name });
      return { userId: user.id, portfolio };
    },

    /**
     * The advisor's proposal tools of one turn of `userId` over the fixture's service (no
     * evaluation is served), with `portfolioId` active; `run` runs the tool named `name`.
     */
    proposalTools(
      userId: string,
      portfolioId: string,
      turn: { lastUserMessage: string; attachments?: Attachment[] },
    ) {
      const scope = {
        actor: { id: userId, plan: 'pro' as const },
        lastUserMessage: turn.lastUserMessage,
        attachments: turn.attachments ?? [],
        activePortfolioId: portfolioId,
      };
      const toolDeps = {
        db: fx.database.db,
        portfolios: fx.service,
        evaluations: { served: async () => null },
        now: deps.now,
      } as unknown as Parameters<typeof buildProposalTools>[0];
      const tools = () => buildProposalTools(toolDeps, scope);
      const run = (name: string, args: object) =>
        tools()
          .find((t) => t.name === name)
          ?.run(args as never, { signal: new AbortController().signal });
      return { scope, tools, run };
    },
  };
  beforeAll(async () => {
    fx.database = await engine.open(open);
    fx.service = createPortfolioService({ ...deps, db: fx.database.db });
  }, 120_000);
  // a set-up that failed (or timed out) leaves no database to throw away
  afterAll(() => fx.database?.cleanup());
  return fx;
}
