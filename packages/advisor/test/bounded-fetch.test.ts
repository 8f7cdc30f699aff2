import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedFetch, byteCutOf, SseBoundsTransform } from '../src/bounded-fetch.js';
import { runAdvisorTurn } from '../src/run-advisor-turn.js';
import { chunkStep, textSteps } from '../src/testing/chunks.js';
import { type FakeOpenAI, type FakeTurn, startFakeOpenAI } from '../src/testing/fake-openai.js';
import type { ModelEndpoint } from '../src/types.js';
import { readFrames, terminal, textOf } from './support.js';

/**
 * Issue 41: the raw answer of a model endpoint is bounded before the SDK decodes it. One huge
 * line or an endless stream of tool-call arguments ends the answer honestly (`length`, not
 * complete, a note) instead of being read in full.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function through(
  parts: string[],
  bounds: { maxLineBytes: number; maxAnswerBytes: number },
): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of parts) controller.enqueue(encoder.encode(p));
      controller.close();
    },
  });
  const out = source.pipeThrough(new SseBoundsTransform(bounds));
  let text = '';
  for await (const chunk of out) text += decoder.decode(chunk, { stream: true });
  return text;
}

function dataOf(text: string): unknown[] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)));
}

describe('SseBoundsTransform', () => {
  it('passes lines within the bounds on byte for byte, however the chunks split them', async () => {
    const stream = 'data: {"a":1}\n\ndata: {"b":2}\r\n\r\ndata: [DONE]\n\n';
    const parts = [...stream].reduce<string[]>((acc, ch, i) => {
      if (i % 3 === 0) acc.push(ch);
      else acc[acc.length - 1] += ch;
      return acc;
    }, []);
    expect(await through(parts, { maxLineBytes: 64, maxAnswerBytes: 1024 })).toBe(stream);
  });

  it('keeps a last line without a line end', async () => {
    expect(await through(['data: 1\n', 'data: 2'], { maxLineBytes: 64, maxAnswerBytes: 99 })).toBe(
      'data: 1\ndata: 2',
    );
  });

  it('ends a line past its bound with a cut chunk instead of the line', async () => {
    const huge = `data: {"x":"${'y'.repeat(5000)}"}\n\n`;
    const text = await through(['data: {"a":1}\n\n', huge.slice(0, 1000), huge.slice(1000)], {
      maxLineBytes: 1024,
      maxAnswerBytes: 1 << 20,
    });
    expect(text.startsWith('data: {"a":1}\n\n')).toBe(true);
    expect(text).not.toContain('yyyy');
    const chunks = dataOf(text);
    expect(chunks.map(byteCutOf)).toEqual([undefined, 'line']);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('cuts a line past its bound within one chunk too (a bare CR ends a line as well)', async () => {
    const text = await through([`data: 1\rdata: ${'z'.repeat(300)}\n`], {
      maxLineBytes: 100,
      maxAnswerBytes: 1 << 20,
    });
    expect(text).not.toContain('zzz');
    expect(dataOf(text.replaceAll('\r', '\n')).map(byteCutOf)).toEqual([undefined, 'line']);
  });

  it('ends an answer past its total bound at a line end', async () => {
    const line = 'data: {"k":"0123456789"}\n\n';
    const text = await through(Array(100).fill(line), { maxLineBytes: 100, maxAnswerBytes: 500 });
    const passed = text.slice(0, text.indexOf('\n\ndata: {"id":"cut"'));
    expect(passed.length).toBeLessThanOrEqual(500);
    expect(dataOf(text).map(byteCutOf).at(-1)).toBe('answer');
  });

  it('a chunk that only looks like a cut (another marker) is not one', () => {
    expect(byteCutOf({ x_bounded_cut_0000: 'line', choices: [] })).toBeUndefined();
    expect(byteCutOf(null)).toBeUndefined();
  });
});

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function boundedEndpoint(server: FakeOpenAI, maxLineBytes: number, maxAnswerBytes: number) {
  return {
    client: new OpenAI({
      baseURL: server.url,
      apiKey: 'sk-test',
      maxRetries: 0,
      timeout: 5000,
      fetch: boundedFetch({ maxLineBytes, maxAnswerBytes }),
    }),
    model: 'test-model',
    acceptsImages: false,
    maxOutputTokens: 800,
    idleTimeoutMs: 10_000,
  } satisfies ModelEndpoint;
}

function turn(endpoint: ModelEndpoint) {
  return runAdvisorTurn({
    endpoint,
    messages: [{ role: 'user', content: 'hello' }],
    tools: [],
    signal: new AbortController().signal,
    now: () => new Date('2026-09-01T00:00:00Z'),
  });
}

describe('boundedFetch in front of the openai SDK', () => {
  it('one 20 MiB line ends the answer as cut (length), keeping what came before, without waiting for the rest', async () => {
    const script: FakeTurn[] = [
      {
        steps: [
          ...textSteps('Before the flood. ').slice(0, -1),
          { raw: `data: {"choices":[{"index":0,"delta":{"content":"${'A'.repeat(20 << 20)}"}}]}` },
          // The server would keep the connection open: only the cut ends the answer.
          { hang: true },
        ],
      },
    ];
    fake = await startFakeOpenAI({ script });
    const frames = await readFrames(turn(boundedEndpoint(fake, 256 * 1024, 16 << 20)));
    expect(textOf(frames)).toBe('Before the flood. ');
    expect(terminal(frames)).toMatchObject({
      type: 'done',
      finishReason: 'length',
      complete: false,
      notes: [expect.stringMatching(/more than the server reads/)],
    });
  });

  it('an endless tool call stops at the answer bound instead of being read in full', async () => {
    const piece = 'x'.repeat(1000);
    const steps = [
      chunkStep({
        tool_calls: [
          { index: 0, id: 'c1', type: 'function', function: { name: 'getX', arguments: '{"a":"' } },
        ],
      }),
      ...Array.from({ length: 2000 }, () =>
        chunkStep({ tool_calls: [{ index: 0, function: { arguments: piece } }] }),
      ),
      { hang: true as const },
    ];
    fake = await startFakeOpenAI({ script: [{ steps }] });
    const frames = await readFrames(turn(boundedEndpoint(fake, 64 * 1024, 256 * 1024)));
    // No text came before the cut: an error that says so, at once (the server still "sends").
    expect(terminal(frames)).toMatchObject({
      type: 'error',
      code: 'upstream_unavailable',
      message: 'the model answered with no text before its answer was cut',
    });
  });

  it('an answer within the bounds is untouched', async () => {
    fake = await startFakeOpenAI({ script: [{ steps: textSteps('All fine.') }] });
    const frames = await readFrames(turn(boundedEndpoint(fake, 1024, 1 << 20)));
    expect(textOf(frames)).toBe('All fine.');
    expect(terminal(frames)).toMatchObject({ finishReason: 'stop', complete: true });
  });
});
