import { type AdvisorTool, advisorSystemPrompt, runAdvisorTurn } from '@svc/advisor';
import { describe, expect, it } from 'vitest';
import { buildReadTools } from '../src/advisor/advisor-tools.js';
import { toolsOn } from '../src/tools/catalog.js';
import type { ToolFlows } from '../src/tools/definition.js';

const actor = { id: 'u1', plan: 'pro' as const };
const SERVED = {
  symbol: 'AAPL',
  totalScore: 81.25,
  maxScore: 100,
  _cached: true,
  _cachedAt: '2026-11-21T10:00:00.000Z',
};

/** Flows recording the evaluation calls; `cached` is what `served` finds. */
function flows(cached: typeof SERVED | null) {
  const calls: unknown[][] = [];
  const fake = {
    evaluations: {
      served: async (symbol: string) => {
        calls.push(['served', symbol]);
        return cached;
      },
      getEvaluation: async (request: unknown) => {
        calls.push(['getEvaluation', request]);
        return { ...SERVED, _cached: false };
      },
    },
    xray: {
      getXray: async (who: unknown, portfolioId: string) => {
        calls.push(['getXray', who, portfolioId]);
        return { portfolioId, holdings: [], pending: ['JNJ'] };
      },
    },
    portfolios: {
      listHoldings: async (userId: string, filter: unknown) => {
        calls.push(['listHoldings', userId, filter]);
        return [{ symbol: 'AAPL', quantity: '10', weight: 1 }];
      },
    },
  } as unknown as ToolFlows;
  return { fake, calls };
}

function tool(tools: AdvisorTool[], name: string): AdvisorTool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

const signal = new AbortController().signal;

describe('the advisor tools, from the tool definitions', () => {
  it('offers every advisor-surface definition by its name and description, in catalogue order', () => {
    const tools = buildReadTools(flows(null).fake, { actor, lastUserMessage: '' });
    expect(tools.map((t) => [t.name, t.description])).toEqual(
      toolsOn('advisor').map((d) => [d.name, d.description]),
    );
    expect(tools.map((t) => t.name)).not.toContain('saveMoatReport');
    expect(tools.find((t) => t.name === 'listHoldings')?.offline).toBe('holdings');
    // Saved reports were written by a client: their figures ground nothing (issue 41).
    expect(tools.find((t) => t.name === 'listMoatReports')?.source).toBe('client');
    expect(tools.filter((t) => t.source === 'client').map((t) => t.name)).toEqual([
      'listMoatReports',
    ]);
  });

  it('binds each call to the actor, refuses arguments the input does not know, answers the output', async () => {
    const { fake, calls } = flows(null);
    const listHoldings = tool(buildReadTools(fake, { actor, lastUserMessage: '' }), 'listHoldings');
    expect(listHoldings.parameters.safeParse({ userId: 'u2' }).success).toBe(false);
    expect(listHoldings.parameters.safeParse({ portfolioId: 'not-a-uuid' }).success).toBe(false);
    const outcome = await listHoldings.run({}, { signal });
    expect(outcome).toEqual({
      data: { holdings: [{ symbol: 'AAPL', quantity: '10', weight: 1 }] },
      summary: '1 holding(s)',
    });
    expect(calls).toEqual([['listHoldings', 'u1', { portfolioId: undefined }]]);
  });

  it('getMoatEvaluation serves what the evaluation flow has without a fetch, and fetches only when the user asked', async () => {
    const cached = flows(SERVED);
    const hit = tool(
      buildReadTools(cached.fake, { actor, lastUserMessage: 'hi' }),
      'getMoatEvaluation',
    );
    expect(await hit.run({ symbol: 'AAPL' }, { signal })).toEqual({
      data: SERVED,
      summary: 'AAPL: 81.25/100 (cached)',
    });
    expect(cached.calls).toEqual([['served', 'AAPL']]);

    const unasked = flows(null);
    const refused = tool(
      buildReadTools(unasked.fake, { actor, lastUserMessage: 'what about my holdings?' }),
      'getMoatEvaluation',
    );
    const outcome = await refused.run({ symbol: 'MSFT' }, { signal });
    expect(outcome.data).toMatchObject({ symbol: 'MSFT', evaluated: false });
    expect(unasked.calls).toEqual([['served', 'MSFT']]);

    const asked = flows(null);
    const fetches = tool(
      buildReadTools(asked.fake, { actor, lastUserMessage: 'evaluate msft please' }),
      'getMoatEvaluation',
    );
    expect((await fetches.run({ symbol: 'MSFT', fresh: true }, { signal })).summary).toBe(
      'AAPL: 81.25/100 (fresh)',
    );
    expect(asked.calls).toEqual([['getEvaluation', { symbol: 'MSFT', fresh: true, actor }]]);
  });
});

describe("the advisor's turn rules", () => {
  it('name every read tool of the catalogue the model is given, performance included', () => {
    const tools = buildReadTools(flows(null).fake, { actor, lastUserMessage: '' });
    const prompt = advisorSystemPrompt('b0', {}, new Date('2026-11-26T00:00:00Z'), tools);
    for (const tool of toolsOn('advisor')) expect(prompt).toContain(tool.name);
    expect(prompt).toContain('getPortfolioPerformance');
  });

  it('point the model to one X-ray instead of one evaluation per holding', async () => {
    const { fake, calls } = flows(null);
    const tools = buildReadTools(fake, {
      actor,
      lastUserMessage: 'which of my holdings have a moat?',
    });
    const prompt = advisorSystemPrompt('b0', {}, new Date('2026-11-26T00:00:00Z'), tools);
    expect(prompt).toContain('call getPortfolioXray once instead of one');
    const without = tools.filter((t) => t.name !== 'getPortfolioXray');
    expect(advisorSystemPrompt('b0', {}, new Date(), without)).not.toContain('getPortfolioXray');
    const portfolioId = '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e';
    const outcome = await tool(tools, 'getPortfolioXray').run({ portfolioId }, { signal });
    expect(calls).toEqual([['getXray', actor, portfolioId]]);
    expect(outcome.summary).toBe('0 holding(s), 0 rated, 1 pending');
  });

  it('offline, answer a portfolio-wide moat question from one X-ray, no evaluation per holding', async () => {
    const { fake, calls } = flows(null);
    const ask = 'Which of my holdings have a moat, and are any past the sell trigger?';
    const tools = buildReadTools(fake, { actor, lastUserMessage: ask });
    expect(tool(tools, 'getPortfolioXray').offline).toBe('xray');
    const portfolioId = '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e';
    const text: string[] = [];
    for await (const frame of runAdvisorTurn({
      endpoint: null,
      messages: [{ role: 'user', content: ask }],
      tools,
      context: { activePortfolio: { id: portfolioId, name: 'Main' } },
      signal,
      now: () => new Date('2026-11-26T12:00:00Z'),
    })) {
      if (frame.type === 'delta') text.push(frame.text);
    }
    expect(calls).toEqual([['getXray', actor, portfolioId]]);
    expect(text.join('')).toContain('## Moat X-ray');
  });
});
