import type { MoatEvaluation } from '@svc/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AdvisorFrame } from '../src/frames.js';
import { runAdvisorTurn } from '../src/run-advisor-turn.js';
import { textSteps, toolCallSteps } from '../src/testing/chunks.js';
import { type FakeOpenAI, startFakeOpenAI } from '../src/testing/fake-openai.js';
import type { AdvisorTool } from '../src/types.js';
import { MCD } from './fixtures/mcd.js';
import { endpointOf, readFrames, terminal } from './support.js';

// Issue 41 item 4: a figure is grounded only by what the service itself computed or stored, for
// the subject the sentence is about. Each case is a turn against the scripted fake model.

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function dataTool(name: string, data: unknown, source?: 'client'): AdvisorTool<never> {
  const tool: AdvisorTool<Record<string, never>> = {
    name,
    description: name,
    parameters: z.object({}),
    ...(source ? { source } : {}),
    run: async () => ({ data }),
  };
  return tool as AdvisorTool<never>;
}

/** The answer's figures: which were marked ungrounded (text), and how many were grounded. */
async function ground(
  answer: string,
  tools: AdvisorTool<never>[],
  ask = 'Tell me about it',
): Promise<{ flagged: string[]; grounded: number; total: number }> {
  const calls = tools.map((t, i) => ({ id: `c${i}`, name: t.name, arguments: '{}' }));
  fake = await startFakeOpenAI({
    script: [
      ...(calls.length > 0 ? [{ steps: toolCallSteps(calls) }] : []),
      { steps: textSteps(answer) },
    ],
  });
  const frames = await readFrames(
    runAdvisorTurn({
      endpoint: endpointOf(fake),
      messages: [{ role: 'user', content: ask }],
      tools,
      signal: new AbortController().signal,
      now: () => new Date('2026-11-26T12:00:00Z'),
    }),
  );
  const done = terminal(frames) as Extract<AdvisorFrame, { type: 'done' }>;
  const report = done._grounding;
  return {
    flagged: report?.ungrounded.map((u) => u.text) ?? [],
    grounded: report?.grounded ?? 0,
    total: report?.total ?? 0,
  };
}

/** MCD's evaluation as another company's: its median ROIC set to `roic`. */
function other(symbol: string, companyName: string, roic: number): MoatEvaluation {
  return {
    ...MCD,
    symbol,
    companyName,
    totalScore: 50.5,
    criteria: MCD.criteria.map((c) =>
      c.key === 'return_on_invested_capital'
        ? { ...c, numericValue: roic, value: `median ROIC ${roic}%`, trend: [], _trendYears: [] }
        : c,
    ),
  };
}

describe('the user’s own figures ground nothing (issue 41)', () => {
  it('"You hold 1,234 shares of MCD" is not grounded by the user saying so', async () => {
    const said = await ground('You hold 1,234 shares of MCD.', [], 'I hold 1,234 shares of MCD?');
    expect(said).toEqual({ flagged: ['1,234'], grounded: 0, total: 1 });
  });

  it('the same sentence is grounded by the ledger’s holdings', async () => {
    const holdings = dataTool('listHoldings', [
      { symbol: 'MCD', name: 'McDonald’s', quantity: '1234' },
    ]);
    const held = await ground('You hold 1,234 shares of MCD.', [holdings], 'What do I hold?');
    expect(held).toEqual({ flagged: [], grounded: 1, total: 1 });
  });
});

describe('client-written report fields ground nothing (issue 41)', () => {
  const reports = {
    reports: [
      {
        id: 'r1',
        symbol: 'MCD',
        companyName: 'McDONALD’S CORPORATION',
        totalScore: 97.5,
        maxScore: 87.5,
        verdict: 'Strong moat',
        tags: [],
        createdAt: '2026-11-01T00:00:00Z',
      },
    ],
  };

  it('a saved report’s totalScore of 97.5 does not ground "MCD scores 97.5" beside the evaluation’s 64.82', async () => {
    const tools = [
      dataTool('listMoatReports', reports, 'client'),
      dataTool('getMoatEvaluation', MCD),
    ];
    const result = await ground('MCD scores 97.5 points. MCD scores 64.82 points.', tools);
    expect(result).toEqual({ flagged: ['97.5'], grounded: 1, total: 2 });
  });

  it('a saved report’s stored evaluation grounds nothing either', async () => {
    const saved = { ...reports.reports[0], evaluation: { ...MCD, totalScore: 97.5 } };
    const result = await ground('MCD scores 97.5 points.', [
      dataTool('getMoatReport', saved, 'client'),
    ]);
    expect(result.flagged).toEqual(['97.5']);
  });
});

describe('a figure is grounded only for the subject of its sentence (issue 41)', () => {
  const mcd = dataTool('getMoatEvaluation', MCD);
  const apple = dataTool('getAppleEvaluation', other('AAPL', 'Apple Inc.', 40.1));

  it('another company’s ROIC does not ground a claim about McDonald’s written without an apostrophe', async () => {
    const result = await ground('McDonalds has a median ROIC of 40.1%.', [mcd, apple]);
    expect(result.flagged).toEqual(['40.1%']);
  });

  it('with two companies, a claim naming neither is not grounded; naming one, by its own figure', async () => {
    const result = await ground(
      'The median ROIC is 40.1%. Apple’s median ROIC is 40.1%. MCD’s median ROIC is 26.5%.',
      [mcd, apple],
    );
    expect(result).toEqual({ flagged: ['40.1%'], grounded: 2, total: 3 });
  });

  it('with one company, a claim naming none is about it', async () => {
    const result = await ground('The median ROIC is 26.5%.', [mcd]);
    expect(result).toEqual({ flagged: [], grounded: 1, total: 1 });
  });

  it('"Apple has a ROIC of 26.5 %" is not grounded by McDonald’s 26.5, named before or not', async () => {
    expect((await ground('Apple has a ROIC of 26.5 %.', [mcd])).flagged).toEqual(['26.5 %']);
    const after = await ground('MCD’s median ROIC is 26.5%. Apple has a ROIC of 26.5 %.', [mcd]);
    expect(after).toEqual({ flagged: ['26.5 %'], grounded: 1, total: 2 });
  });

  it('a company named after "for" or "of" is the subject too', async () => {
    const result = await ground(
      'MCD’s median ROIC is 26.5%. The median ROIC is 26.5% for Apple. The median ROIC of Apple is 26.5%.',
      [mcd],
    );
    expect(result).toEqual({ flagged: ['26.5%', '26.5%'], grounded: 1, total: 3 });
    // A known company named so is its own subject.
    const own = await ground('The median ROIC is 26.5% for McDonald’s.', [mcd, apple]);
    expect(own).toEqual({ flagged: [], grounded: 1, total: 1 });
  });

  it('"Apple has a ROIC of 35 %" is not grounded by Apple’s figure of another field', async () => {
    // Apple's evaluation has no ROIC criterion; 35 % is the lower bound of a verdict band (a
    // figure of no metric).
    const base = other('AAPL', 'Apple Inc.', 40.1);
    const noRoic = {
      ...base,
      criteria: base.criteria.filter((c) => c.key !== 'return_on_invested_capital'),
    };
    const result = await ground('Apple has a ROIC of 35 %.', [
      dataTool('getMoatEvaluation', noRoic),
    ]);
    expect(result.flagged).toEqual(['35 %']);
    // A comparison still may repeat a rule's threshold.
    const rule = await ground('MCD’s ROIC is at least 15 % in every year.', [mcd]);
    expect(rule.flagged).toEqual([]);
  });
});
