import { createRequire } from 'node:module';
import { type AdvisorFrame, type ModelEndpoint, runAdvisorTurn } from '@svc/advisor';
import { type FakeOpenAI, startFakeOpenAI, textSteps, toolCallSteps } from '@svc/advisor/testing';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends } from '@svc/portfolio-store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createProposalService } from '../src/advisor/confirm-proposal.js';
import {
  type buildProposalTools,
  MAX_PENDING_PROPOSALS,
  MAX_PROPOSALS_PER_TURN,
} from '../src/advisor/proposal-tools.js';
import { portfolioFixture } from './support/portfolio-fixture.js';

/**
 * Issue 41: proposals that cannot hide or spoof — an edit that removes a note says so; an import
 * proposal applies only while the ledger it was counted against is unchanged; no proposal comes
 * from a stream that ended without a finish signal; one turn makes at most
 * {@link MAX_PROPOSALS_PER_TURN}, a user holds at most {@link MAX_PENDING_PROPOSALS} pending.
 */
const fromAdvisor = createRequire(import.meta.resolve('@svc/advisor'));
const { default: OpenAI } = (await import(fromAdvisor.resolve('openai'))) as {
  default: new (options: Record<string, unknown>) => ModelEndpoint['client'];
};
const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const NOW = new Date('2026-11-26T12:00:00Z');
const CSV = [
  'Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note',
  '2024-02-01,MSFT,YAHOO,USD,400,2,buy,1,',
  '2024-02-02,NVDA,YAHOO,USD,700,1,buy,0,',
].join('\n');

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe.each(engines)('advisor proposal guards on $name (issue 41)', (engine) => {
  const now = () => NOW;
  const fx = portfolioFixture(engine, { quotes: null, fx: null, now });

  async function setup() {
    const { userId, portfolio } = await fx.newPortfolio('Main');
    const tx = await fx.service.recordTransaction(userId, portfolio.id, {
      type: 'buy',
      symbol: 'AAPL',
      quantity: '10',
      price: '150',
      currency: 'USD',
      executedAt: '2024-01-02T15:00:00Z',
      note: 'old “note”',
    });
    const { scope, tools, run } = fx.proposalTools(userId, portfolio.id, {
      lastUserMessage: 'fix it',
      attachments: [{ filename: 'trades.csv', mediaType: 'text/csv', kind: 'text', text: CSV }],
    });
    return { userId, portfolio, tx, tools, run, scope };
  }

  const turn = async (tools: ReturnType<typeof buildProposalTools>, steps: unknown[]) => {
    fake = await startFakeOpenAI({ script: steps as never });
    const endpoint: ModelEndpoint = {
      client: new OpenAI({ baseURL: fake.url, apiKey: 'sk-test', maxRetries: 0, timeout: 5000 }),
      model: 'test-model',
      acceptsImages: false,
      maxOutputTokens: 800,
      idleTimeoutMs: 5000,
    };
    const out: AdvisorFrame[] = [];
    for await (const frame of runAdvisorTurn({
      endpoint,
      messages: [{ role: 'user', content: 'fix it' }],
      tools,
      signal: new AbortController().signal,
      now,
    })) {
      out.push(frame);
    }
    return out;
  };

  it('an edit that removes the note names the removal', async () => {
    const { run, tx } = await setup();
    const outcome = await run('proposeEditTransaction', {
      transactionId: tx.id,
      changes: { note: null, price: '151' },
    });
    expect(outcome?.proposal?.summary).toBe(
      'In “Main”, change buy 10 AAPL at 150 USD on 2024-01-02T15:00:00.000Z to buy 10 AAPL at 151 USD on 2024-01-02T15:00:00.000Z: price 150 → 151, note removed (was “old \\“note\\””)',
    );
  });

  it('an import proposal applies only while the file would import what its summary counted', async () => {
    const { run, userId, portfolio, scope } = await setup();
    const confirm = createProposalService({ db: fx.database.db, quotes: null, fx: null, now });
    const actor = { id: userId, plan: 'pro' } as never;
    const accept = (outcome: Awaited<ReturnType<typeof run>>) =>
      confirm.confirm(actor, { proposalId: outcome?.proposal?.id ?? '', decision: 'accept' });
    // two proposals of one file: the first imports it, the second imports nothing (no-op)
    const first = await run('proposeImport', {});
    const second = await run('proposeImport', {});
    // the format as the catalogue names it (issue 40), file and portfolio names quoted
    expect(first?.proposal?.summary).toMatch(
      /^Import 2 transaction\(s\) from “trades\.csv” \([^)]*ghostfolio[^)]*\) into “Main”$/i,
    );
    expect(await accept(first)).toMatchObject({ result: { imported: 2 } });
    expect(await accept(second)).toMatchObject({ result: { imported: 0, alreadyPresent: 2 } });
    // a proposal counted 2 new rows; one of them came in meanwhile: refused, nothing written
    await fx.service.deleteTransaction(
      userId,
      portfolio.id,
      (await fx.service.listTransactions(userId, { portfolioId: portfolio.id })).items[0]?.id ?? '',
    );
    await fx.service.deleteTransaction(
      userId,
      portfolio.id,
      (await fx.service.listTransactions(userId, { portfolioId: portfolio.id })).items[0]?.id ?? '',
    );
    const stale = await run('proposeImport', {});
    expect(stale?.proposal?.summary).toContain('Import 2 transaction(s)');
    await fx.service.importBrokerCsv(userId, portfolio.id, CSV.split('\n').slice(0, 2).join('\n'));
    const before = await fx.service.listChanges(userId, portfolio.id);
    await expect(accept(stale)).rejects.toMatchObject({ code: 'conflict' });
    expect(await fx.service.listChanges(userId, portfolio.id)).toEqual(before);
    expect(scope.attachments).toHaveLength(1);
  });

  it('makes no proposal from a stream that ended without a finish signal', async () => {
    const { tools, tx, userId } = await setup();
    const call = {
      id: 'd',
      name: 'proposeDeleteTransaction',
      arguments: JSON.stringify({ transactionId: tx.id }),
    };
    const unfinished = toolCallSteps([call]).slice(0, -1);
    const out = await turn(tools(), [{ steps: unfinished }]);
    expect(out.filter((f) => f.type === 'proposal')).toEqual([]);
    expect(await createRepositories(fx.database.db).proposals.countPending(userId, NOW)).toBe(0);
    // the same call, finished, proposes
    const finished = await turn(tools(), [
      { steps: toolCallSteps([call]) },
      { steps: textSteps('Proposed.') },
    ]);
    expect(finished.filter((f) => f.type === 'proposal')).toHaveLength(1);
  });

  it(`caps proposals at ${MAX_PROPOSALS_PER_TURN} per turn and ${MAX_PENDING_PROPOSALS} pending`, async () => {
    const { tools, userId, run } = await setup();
    const calls = Array.from({ length: MAX_PROPOSALS_PER_TURN + 2 }, (_, i) => ({
      id: `c${i}`,
      name: 'proposeCreatePortfolio',
      arguments: JSON.stringify({ name: `P${i}` }),
    }));
    const out = await turn(tools(), [
      { steps: toolCallSteps(calls) },
      { steps: textSteps('Proposed.') },
    ]);
    expect(out.filter((f) => f.type === 'proposal')).toHaveLength(MAX_PROPOSALS_PER_TURN);
    for (let i = MAX_PROPOSALS_PER_TURN; i < MAX_PENDING_PROPOSALS; i += 1) {
      expect((await run('proposeCreatePortfolio', { name: `Q${i}` }))?.proposal).toBeDefined();
    }
    await expect(run('proposeCreatePortfolio', { name: 'one too many' })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await createRepositories(fx.database.db).proposals.countPending(userId, NOW)).toBe(
      MAX_PENDING_PROPOSALS,
    );
  });
});
