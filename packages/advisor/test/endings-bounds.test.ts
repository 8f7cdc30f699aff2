import { afterEach, describe, expect, it } from 'vitest';
import type { AdvisorFrame, NarrativeEvent } from '../src/frames.js';
import { streamNarrative } from '../src/narrative.js';
import { runAdvisorTurn } from '../src/run-advisor-turn.js';
import { chunkStep, textSteps } from '../src/testing/chunks.js';
import { type FakeOpenAI, type FakeTurn, startFakeOpenAI } from '../src/testing/fake-openai.js';
import { MAX_DELTA_CHARS, type ModelEndpoint } from '../src/types.js';
import { MCD } from './fixtures/mcd.js';
import { endpointOf, readFrames, terminal, textOf } from './support.js';

/**
 * Issue 17, against a scripted model that misbehaves as real ones do: honest endings (the
 * finish reason the model sent, or `incomplete`), and bounds the server enforces whatever the
 * model does (answer characters, total time, frame and report sizes).
 */
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function serve(script: FakeTurn[]) {
  fake = await startFakeOpenAI({ script });
  return fake;
}

function turn(endpoint: ModelEndpoint, ask = 'hello') {
  return runAdvisorTurn({
    endpoint,
    messages: [{ role: 'user', content: ask }],
    tools: [],
    signal: new AbortController().signal,
    now: () => new Date('2026-09-01T00:00:00Z'),
  });
}

async function narrative(endpoint: ModelEndpoint) {
  const events: NarrativeEvent[] = [];
  const signal = new AbortController().signal;
  for await (const e of streamNarrative({ endpoint, evaluation: MCD, signal })) events.push(e);
  const markdown = events.map((e) => (e.type === 'chunk' ? e.markdown : '')).join('');
  return { events, markdown, last: events.at(-1) };
}

/** Text steps without the final finish_reason chunk. */
const unfinished = (text: string) => textSteps(text).slice(0, -1);

describe('honest endings', () => {
  it('a stream that just closes (no finish_reason, no [DONE]) is incomplete, never a plain done', async () => {
    const server = await serve([
      { steps: unfinished('MCD has a durable moat. Its ROIC'), done: false },
      { steps: unfinished('## Summary\n\nMcDonald’s has a durable moat.\n'), done: false },
    ]);
    const frames = await readFrames(turn(endpointOf(server)));
    expect(terminal(frames)).toMatchObject({
      type: 'done',
      finishReason: 'incomplete',
      complete: false,
      notes: [expect.stringMatching(/ended without saying/)],
    });
    const { last } = await narrative(endpointOf(server));
    expect(last).toMatchObject({ type: 'done', finishReason: 'incomplete', complete: false });
  });

  it('a narrative stopped by content_filter says so', async () => {
    const server = await serve([
      { steps: textSteps('## Summary\n\nMcDonald’s has', { finishReason: 'content_filter' }) },
      { steps: textSteps('Some text.', { finishReason: 'content_filter' }) },
    ]);
    const { last } = await narrative(endpointOf(server));
    expect(last).toMatchObject({ type: 'done', finishReason: 'content_filter', complete: false });
    expect((last as { notes: string[] }).notes).toContain(
      'The model’s content filter stopped the answer.',
    );
    const frames = await readFrames(turn(endpointOf(server)));
    expect(terminal(frames)).toMatchObject({ finishReason: 'content_filter', complete: false });
  });

  it('a model that answers stop is complete', async () => {
    const server = await serve([{ steps: textSteps('Hello there.') }]);
    const frames = await readFrames(turn(endpointOf(server)));
    expect(terminal(frames)).toMatchObject({ finishReason: 'stop', complete: true });
  });

  it('an answer of only whitespace is upstream_unavailable, with nothing shown', async () => {
    const server = await serve([{ steps: textSteps(['  ', '\n\n', ' ']) }]);
    const frames = await readFrames(turn(endpointOf(server)));
    expect(frames.filter((f) => f.type === 'delta')).toEqual([]);
    expect(terminal(frames)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
  });
});

describe('bounds the server enforces whatever the model does', () => {
  it('100,000 chunks ignoring max_tokens: at most maxOutputChars pass, the request is aborted', async () => {
    const pieces = Array.from({ length: 100_000 }, () => 'lorem ipsum ');
    const server = await serve([{ steps: textSteps(pieces) }]);
    const endpoint = endpointOf(server, { maxOutputChars: 500, maxOutputTokens: 100 });
    const frames = await readFrames(turn(endpoint));
    expect(textOf(frames).length).toBe(500);
    expect(terminal(frames)).toMatchObject({ finishReason: 'length', complete: false });
    expect(server.requests[0]?.body.max_tokens).toBe(100);
    await server.waitForClosedConnections(1);
  });

  it('one token every 40 ms past the total timeout: cut, ending timeout', async () => {
    const steps = [
      chunkStep({ role: 'assistant', content: '' }),
      ...Array.from({ length: 200 }, () => [
        { delayMs: 40 },
        chunkStep({ content: 'tick. ' }),
      ]).flat(),
      chunkStep({}, { finishReason: 'stop' }),
    ];
    const server = await serve([{ steps }, { steps }]);
    const endpoint = endpointOf(server, { totalTimeoutMs: 300, idleTimeoutMs: 2000 });
    const frames = await readFrames(turn(endpoint));
    expect(terminal(frames)).toMatchObject({ finishReason: 'timeout', complete: false });
    expect(textOf(frames).length).toBeLessThan(200 * 'tick. '.length);
    const { last, markdown } = await narrative(endpoint);
    expect(last).toMatchObject({ type: 'done', finishReason: 'timeout', complete: false });
    expect(markdown.length).toBeGreaterThan(0);
    await server.waitForClosedConnections(2);
  });

  it('the total timeout before any output is upstream_unavailable (nothing to keep)', async () => {
    const server = await serve([{ steps: [{ delayMs: 5000 }, ...textSteps('late')] }]);
    const endpoint = endpointOf(server, { totalTimeoutMs: 200, idleTimeoutMs: 10_000 });
    const frames = await readFrames(turn(endpoint));
    expect(terminal(frames)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
  });

  it('an 18,000-character chunk becomes deltas of at most 2,000 characters', async () => {
    const server = await serve([{ steps: textSteps(['x'.repeat(18_000)]) }]);
    const frames = await readFrames(turn(endpointOf(server)));
    const deltas = frames.filter((f) => f.type === 'delta');
    expect(Math.max(...deltas.map((d) => d.text.length))).toBe(MAX_DELTA_CHARS);
    expect(textOf(frames)).toHaveLength(18_000);
  });

  it('an answer full of invented figures: report and marks bounded (20 listed, the rest counted)', async () => {
    const invented = Array.from({ length: 300 }, (_, i) => `ROIC of ${i + 100}%.`).join(' ');
    const server = await serve([{ steps: textSteps(invented) }]);
    const frames = await readFrames(turn(endpointOf(server), 'MCD?'));
    const done = terminal(frames) as Extract<AdvisorFrame, { type: 'done' }>;
    expect(done._grounding).toMatchObject({ total: 300, grounded: 0, omitted: 280 });
    expect(done._grounding?.ungrounded).toHaveLength(20);
    const marks = frames.flatMap((f) => (f.type === 'delta' ? (f.ungrounded ?? []) : []));
    expect(marks.length).toBeLessThanOrEqual(20);
    expect(JSON.stringify(done).length).toBeLessThan(12_000);
  });
});
