import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AdvisorFrame, NarrativeEvent } from '../src/frames.js';
import { streamNarrative } from '../src/narrative.js';
import { UNGROUNDED_MARK } from '../src/narrative-stream.js';
import { runAdvisorTurn } from '../src/run-advisor-turn.js';
import { textSteps, toolCallSteps } from '../src/testing/chunks.js';
import { type FakeOpenAI, type FakeTurn, startFakeOpenAI } from '../src/testing/fake-openai.js';
import type { AdvisorTool, ModelEndpoint } from '../src/types.js';
import { MCD } from './fixtures/mcd.js';
import { endpointOf, readFrames, terminal, textOf } from './support.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function serve(script: FakeTurn[]) {
  fake = await startFakeOpenAI({ script });
  return fake;
}

function turn(endpoint: ModelEndpoint, tools: AdvisorTool<never>[], ask: string) {
  return runAdvisorTurn({
    endpoint,
    messages: [{ role: 'user', content: ask }],
    tools,
    signal: new AbortController().signal,
    now: () => new Date('2026-11-26T12:00:00Z'),
  });
}

function dataTool(name: string, data: unknown): AdvisorTool<never> {
  const tool: AdvisorTool<Record<string, never>> = {
    name,
    description: name,
    parameters: z.object({}),
    run: async () => ({ data }),
  };
  return tool as AdvisorTool<never>;
}

describe('narrative text streams as it arrives (issue 32)', () => {
  it('a 3,240-character answer without a full stop reaches the client before the model ends', async () => {
    // No full stop anywhere; the model then stalls (it has not ended when we read).
    const unit = 'the median ROIC is 26.5% and the net margin 99% over ten years, ';
    const text = unit.repeat(Math.ceil(3_240 / unit.length)).slice(0, 3_240);
    const server = await serve([{ steps: [...textSteps(text).slice(0, -1), { hang: true }] }]);
    const controller = new AbortController();
    let markdown = '';
    for await (const event of streamNarrative({
      endpoint: endpointOf(server, { idleTimeoutMs: 10_000 }),
      evaluation: MCD,
      signal: controller.signal,
    })) {
      if (event.type === 'chunk') markdown += event.markdown;
      // Everything but the last figure being checked (and its clause) while the model stalls.
      if (markdown.replaceAll(UNGROUNDED_MARK, '').length >= 3_240 - 400) controller.abort();
    }
    const shown = markdown.replaceAll(UNGROUNDED_MARK, '');
    expect(shown.length).toBeGreaterThanOrEqual(3_240 - 400);
    expect(text.startsWith(shown)).toBe(true);
    // The invented net margin is marked where it stands, ROIC's median is not.
    expect(markdown).toContain(`net margin 99%${UNGROUNDED_MARK}`);
    expect(markdown).not.toContain(`26.5%${UNGROUNDED_MARK}`);
  });
});

describe('a worst-case answer never starves the event loop (issue 32)', () => {
  it('20,000 characters of " 42%" in one chunk are checked in steps, other work running between', async () => {
    const text = ' 42%'.repeat(5_000);
    const server = await serve([{ steps: textSteps([text]) }]);
    let ticks = 0;
    let running = true;
    const ticker = (async () => {
      while (running) {
        await nextTurn();
        ticks += 1;
      }
    })();
    const marks: number[] = [];
    const frames = await readFrames(turn(endpointOf(server), [], 'hi'), (frame: AdvisorFrame) => {
      if (frame.type === 'delta') marks.push(ticks);
    });
    running = false;
    await ticker;
    expect(textOf(frames)).toBe(text.trimStart());
    // Ten deltas of 2,000 characters, each checked in four 512-character steps: between the
    // first delta and the last the event loop turned at least once per step.
    expect(marks.length).toBeGreaterThanOrEqual(10);
    expect((marks.at(-1) ?? 0) - (marks[0] ?? 0)).toBeGreaterThanOrEqual(27);
    const done = terminal(frames) as Extract<AdvisorFrame, { type: 'done' }>;
    expect(done._grounding).toMatchObject({ total: 5_000, grounded: 0, omitted: 4_980 });
  });
});

describe('figures judged by the claim, through a scripted model on a socket (issue 32)', () => {
  it('wrong roles of real numbers are flagged, and report tags ground nothing', async () => {
    const reports = {
      reports: [
        {
          id: 'r1',
          symbol: 'MCD',
          tags: ['net margin 88 %', 'gross margin 80 %'],
          evaluation: MCD,
        },
      ],
    };
    const holdings = [
      {
        symbol: 'SAP',
        quantity: '10',
        currency: 'EUR',
        marketValueEur: null,
        unrealizedPnlEur: null,
        realizedPnlEur: '0.00',
      },
    ];
    const answer = [
      'McDonald’s median net margin is 31.7%, with a net margin above 50 % and a P/E above 40;',
      'MCD’s EPS declined 9.5 % a year; it owns 10 brands and 2 CEOs ran it;',
      'your SAP holding shows an unrealised gain of €0.00; Apple’s ROIC is 26.5%;',
      'MCD’s report says net margin 88 % and gross margin 80 %;',
      'MCD’s median ROIC is 26.5% and it scores 64.8 of 87.5 points.',
    ].join('\n');
    const server = await serve([
      {
        steps: toolCallSteps([
          { id: 'a', name: 'listMoatReports', arguments: '{}' },
          { id: 'b', name: 'listHoldings', arguments: '{}' },
        ]),
      },
      { steps: textSteps(answer) },
    ]);
    const tools = [dataTool('listMoatReports', reports), dataTool('listHoldings', holdings)];
    const frames = await readFrames(turn(endpointOf(server), tools, 'Tell me about MCD and SAP'));
    const done = terminal(frames) as Extract<AdvisorFrame, { type: 'done' }>;
    const flagged = done._grounding?.ungrounded.map((u) => [u.text, u.reason]);
    expect(flagged).toEqual([
      ['31.7%', 'mismatch'],
      ['50 %', 'mismatch'],
      ['40', 'not_available'],
      ['9.5 %', 'no_fact'],
      ['10', 'unsupported'],
      ['2', 'unsupported'],
      ['€0.00', 'not_available'],
      ['26.5%', 'no_fact'],
      ['88 %', 'mismatch'],
      ['80 %', 'not_available'],
    ]);
    // The true statements of the last line are grounded.
    expect(done._grounding?.grounded).toBe(3);
    // The marks reached the client on the deltas, not only at the end.
    const marked = frames.flatMap((f) => (f.type === 'delta' ? (f.ungrounded ?? []) : []));
    expect(marked.map((u) => u.text)).toEqual(flagged?.map(([text]) => text));
  });
});

describe('narrative events', () => {
  it('the template narrative of MCD is grounded by its own evaluation', async () => {
    const events: NarrativeEvent[] = [];
    for await (const e of streamNarrative({
      endpoint: null,
      evaluation: MCD,
      signal: new AbortController().signal,
    })) {
      events.push(e);
    }
    expect(events.at(-1)).toMatchObject({ type: 'done', _grounding: { ungrounded: [] } });
  });
});
