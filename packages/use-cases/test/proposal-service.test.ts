import { createCsvQuoteProvider, createEcbFileFxProvider } from '@svc/market-data';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProposalService } from '../src/advisor/confirm-proposal.js';
import { PROPOSAL_TTL_MS } from '../src/advisor/schemas.js';
import { UseCaseError } from '../src/errors.js';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';
import { ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const quotes = createCsvQuoteProvider({ dir: PRICES_DIR });
const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
const now = () => new Date('2024-03-01T22:00:00Z');

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UseCaseError)) throw new Error(`expected a UseCaseError, got ${error}`);
  return error.code;
}

describe.each(engines)('confirmProposal on $name', (engine) => {
  let database: TestDatabase;
  let repos: ReturnType<typeof createRepositories>;
  let alice: { id: string; plan: 'free' };
  let bob: { id: string; plan: 'free' };
  let portfolioId: string;

  beforeAll(async () => {
    database = await engine.open();
    repos = createRepositories(database.db);
    alice = { id: (await repos.users.create({ email: uniqueEmail('prop-a') })).id, plan: 'free' };
    bob = { id: (await repos.users.create({ email: uniqueEmail('prop-b') })).id, plan: 'free' };
    const portfolios = createPortfolioService({ db: database.db, quotes, fx, now });
    portfolioId = (await portfolios.createPortfolio(alice.id, { name: 'Main' })).id;
    await portfolios.recordTransaction(alice.id, portfolioId, {
      type: 'buy',
      symbol: 'AAPL',
      quantity: '10',
      price: '150',
      currency: 'USD',
      executedAt: '2024-01-02T15:00:00Z',
    });
  }, 120_000);
  afterAll(() => database.cleanup());

  const service = () => createProposalService({ db: database.db, quotes, fx, now });
  const propose = (quantity: string, type: 'buy' | 'sell' = 'buy') =>
    repos.proposals.create(alice.id, {
      kind: 'record_transaction',
      summary: `${type} ${quantity} AAPL`,
      payload: {
        portfolioId,
        transaction: {
          type,
          symbol: 'AAPL',
          quantity,
          price: '170',
          currency: 'USD',
          executedAt: '2024-02-01T15:00:00Z',
        },
      },
      expiresAt: new Date(now().getTime() + PROPOSAL_TTL_MS),
    });
  const transactionCount = async () =>
    (await repos.transactions.list(alice.id, { portfolioId, limit: 100 })).items.length;

  it('applies a proposal exactly once when two confirmations race', async () => {
    const proposal = await propose('1');
    const before = await transactionCount();
    const outcomes = await Promise.allSettled([
      service().confirm(alice, { proposalId: proposal.id, decision: 'accept' }),
      service().confirm(alice, { proposalId: proposal.id, decision: 'accept' }),
    ]);
    const applied = outcomes.filter((o) => o.status === 'fulfilled');
    expect(applied).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
    expect(await transactionCount()).toBe(before + 1);
    expect(
      await codeOf(service().confirm(bob, { proposalId: proposal.id, decision: 'reject' })),
    ).toBe('not_found');
  });

  it('rolls the mark back with a change that fails: the proposal stays pending, nothing stored', async () => {
    const proposal = await propose('500', 'sell');
    const before = await transactionCount();
    expect(
      await codeOf(service().confirm(alice, { proposalId: proposal.id, decision: 'accept' })),
    ).toBe('validation_failed');
    expect(await transactionCount()).toBe(before);
    expect((await repos.proposals.findForUser(alice.id, proposal.id))?.status).toBe('pending');
    expect(await service().confirm(alice, { proposalId: proposal.id, decision: 'reject' })).toEqual(
      {
        status: 'rejected',
      },
    );
  });
});
