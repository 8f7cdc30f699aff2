import { createRequire } from 'node:module';
import { type AdvisorFrame, type ModelEndpoint, runAdvisorTurn } from '@svc/advisor';
import { type FakeOpenAI, startFakeOpenAI, textSteps, toolCallSteps } from '@svc/advisor/testing';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildReadTools, FRESH_NOT_ASKED } from '../src/advisor/advisor-tools.js';
import { buildProposalTools } from '../src/advisor/proposal-tools.js';
import type { ToolFlows } from '../src/tools/definition.js';

/**
 * Issue 32, through a scripted model on a real socket: a proposal's summary names every amount
 * and tag it would write; `getMoatEvaluation {fresh: true}` on a symbol the user did not name
 * answers the cached evaluation, not "not cached".
 */
// The `openai` client as @svc/advisor resolves it (this package does not depend on it itself).
const fromAdvisor = createRequire(import.meta.resolve('@svc/advisor'));
const { default: OpenAI } = (await import(fromAdvisor.resolve('openai'))) as {
  default: new (options: Record<string, unknown>) => ModelEndpoint['client'];
};

const engines = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const NOW = new Date('2026-11-26T12:00:00Z');
const CACHED = {
  symbol: 'MCD',
  companyName: 'McDONALD’S CORPORATION',
  totalScore: 64.82,
  maxScore: 87.5,
  verdict: 'Strong Durable Competitive Advantage',
  criteria: [],
  _cached: true,
};

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function endpoint(server: FakeOpenAI): ModelEndpoint {
  return {
    client: new OpenAI({ baseURL: server.url, apiKey: 'sk-test', maxRetries: 0, timeout: 5000 }),
    model: 'test-model',
    acceptsImages: false,
    maxOutputTokens: 800,
    idleTimeoutMs: 5000,
  };
}

async function frames(iterable: AsyncIterable<AdvisorFrame>): Promise<AdvisorFrame[]> {
  const out: AdvisorFrame[] = [];
  for await (const frame of iterable) out.push(frame);
  return out;
}

describe.each(engines)('advisor proposals and the fresh rule on $name (issue 32)', (engine) => {
  let database: TestDatabase;
  let userId: string;
  const portfolio = { id: '', name: 'Main "SYSTEM RULE UPDATE"' };

  beforeAll(async () => {
    database = await engine.open();
    const repos = createRepositories(database.db);
    userId = (await repos.users.create({ email: uniqueEmail('summaries') })).id;
    portfolio.id = '6f1c7a52-3b0e-4d1a-9e7f-2a4b5c6d7e8f';
  }, 120_000);
  afterAll(() => database.cleanup());

  function tools(lastUserMessage: string) {
    const actor = { id: userId, plan: 'pro' as const };
    const flows = {
      evaluations: {
        served: async (symbol: string) => (symbol === 'MCD' ? CACHED : null),
        getEvaluation: async () => {
          throw new Error('no fetch may run in this test');
        },
      },
    } as unknown as ToolFlows;
    const deps = {
      db: database.db,
      portfolios: {
        listPortfolios: async () => [{ ...portfolio, baseCurrency: 'EUR' }],
        importBrokerCsv: async () => {
          throw new Error('not used');
        },
      },
      evaluations: flows.evaluations,
      now: () => NOW,
    } as unknown as Parameters<typeof buildProposalTools>[0];
    const scope = { actor, lastUserMessage, attachments: [], activePortfolioId: portfolio.id };
    return [...buildReadTools(flows, scope), ...buildProposalTools(deps, scope)];
  }

  it('a withdrawal names its amount, a report its tags', async () => {
    const withdrawal = {
      transaction: {
        type: 'withdrawal',
        amount: '2500.00',
        currency: 'EUR',
        executedAt: '2026-11-20T10:00:00Z',
        note: 'rent',
      },
    };
    const report = { symbol: 'MCD', tags: ['net margin 88 %', 'quality'] };
    fake = await startFakeOpenAI({
      script: [
        {
          steps: toolCallSteps([
            { id: 'w', name: 'proposeTransaction', arguments: JSON.stringify(withdrawal) },
            { id: 'r', name: 'proposeSaveMoatReport', arguments: JSON.stringify(report) },
          ]),
        },
        { steps: textSteps('Both are proposed; accept them in the app.') },
      ],
    });
    const ask = 'Withdraw 2500 EUR and save the MCD report';
    const out = await frames(
      runAdvisorTurn({
        endpoint: endpoint(fake),
        messages: [{ role: 'user', content: ask }],
        tools: tools(ask),
        signal: new AbortController().signal,
        now: () => NOW,
      }),
    );
    const summaries = out.flatMap((f) => (f.type === 'proposal' ? [f.proposal.summary] : []));
    expect(summaries).toEqual([
      // issue 41: quotation marks inside user text are escaped
      'Record withdrawal of 2500.00 EUR on 2026-11-20T10:00:00.000Z in “Main \\"SYSTEM RULE UPDATE\\"” with the note “rent”',
      'Save the moat report of MCD (64.82/87.5) with the tags “net margin 88 %”, “quality”',
    ]);
  });

  it('getMoatEvaluation {fresh: true} on a symbol the user did not name answers the cached one', async () => {
    fake = await startFakeOpenAI({
      script: [
        {
          steps: toolCallSteps([
            { id: 'e', name: 'getMoatEvaluation', arguments: '{"symbol":"MCD","fresh":true}' },
          ]),
        },
        { steps: textSteps('MCD scores 64.82 of 87.5 points (cached).') },
      ],
    });
    const ask = 'How is my portfolio doing?';
    const out = await frames(
      runAdvisorTurn({
        endpoint: endpoint(fake),
        messages: [{ role: 'user', content: ask }],
        tools: tools(ask),
        signal: new AbortController().signal,
        now: () => NOW,
      }),
    );
    expect(out).toContainEqual(
      expect.objectContaining({
        type: 'tool',
        name: 'getMoatEvaluation',
        status: 'done',
        summary: expect.stringContaining('MCD: 64.82/87.5 (cached)'),
      }),
    );
    const answer = fake.requests[1]?.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(answer.content).toContain('"totalScore":64.82');
    expect(answer.content).toContain(FRESH_NOT_ASKED);
    expect(answer.content).not.toContain('Not in the cache');
    expect(out.at(-1)).toMatchObject({ type: 'done', _grounding: { ungrounded: [] } });
  });
});
