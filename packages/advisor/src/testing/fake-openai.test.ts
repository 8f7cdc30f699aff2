import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  completionJson,
  errorStep,
  findRecordingsDir,
  textSteps,
  toolCallSteps,
  usageStep,
} from './chunks.js';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function client(url: string, maxRetries = 0): OpenAI {
  return new OpenAI({ baseURL: url, apiKey: 'sk-test', maxRetries });
}

async function collect(stream: AsyncIterable<OpenAI.ChatCompletionChunk>) {
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

const ask = {
  model: 'm',
  messages: [{ role: 'user' as const, content: 'hi' }],
  stream: true as const,
};

describe('startFakeOpenAI', () => {
  it('replays a recorded .sse file byte for byte and records the request', async () => {
    fake = await startFakeOpenAI({
      script: [{ replay: 'anthropic-fallback-tool-call.sse' }],
      recordingsDir: findRecordingsDir(),
    });
    const chunks = await collect(await client(fake.url).chat.completions.create(ask));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Reading it.');
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((t) => t.function?.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual({ path: 'a.txt' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body.messages[0].content).toBe('hi');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(fake.closedConnections).toBe(0);
  });

  it('replays a .chunks.txt file as data: events closed by [DONE]', async () => {
    fake = await startFakeOpenAI({
      script: [{ replay: 'azure-model-router.1.chunks.txt' }],
      recordingsDir: findRecordingsDir(),
    });
    const chunks = await collect(await client(fake.url).chat.completions.create(ask));
    expect(chunks[0]?.choices).toEqual([]);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(
      'Capital of Denmark.',
    );
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(93);
  });

  it('sends scripted text, tool calls and a usage-only last chunk', async () => {
    fake = await startFakeOpenAI({
      script: [
        {
          steps: [
            ...textSteps('a b'),
            ...toolCallSteps([{ name: 'x', arguments: '{"a":1}' }], { withIndex: false }),
            usageStep({ prompt_tokens: 3, completion_tokens: 4 }),
          ],
        },
      ],
    });
    const chunks = await collect(await client(fake.url).chat.completions.create(ask));
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(7);
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas.every((t) => t.index === undefined)).toBe(true);
  });

  it('turns a mid-stream error object into an APIError thrown by the SDK', async () => {
    fake = await startFakeOpenAI({
      script: [{ steps: [...textSteps('partial'), errorStep('boom')] }],
    });
    await expect(collect(await client(fake.url).chat.completions.create(ask))).rejects.toThrow(
      /boom/,
    );
  });

  it('answers HTTP errors (retried by the SDK) and non-streaming answers', async () => {
    fake = await startFakeOpenAI({
      script: [{ status: 503 }, { json: completionJson('fine') }],
    });
    const answer = await client(fake.url, 1).chat.completions.create({ ...ask, stream: false });
    expect(answer.choices[0]?.message.content).toBe('fine');
    expect(fake.requests).toHaveLength(2);
  });

  it('counts a connection the client aborted, not one the server dropped', async () => {
    fake = await startFakeOpenAI({
      script: [{ steps: [...textSteps('x'), { hang: true }] }, { steps: [{ drop: true }] }],
    });
    const controller = new AbortController();
    const stream = await client(fake.url).chat.completions.create(ask, {
      signal: controller.signal,
    });
    for await (const _ of stream) {
      controller.abort();
    }
    await fake.waitForClosedConnections(1);
    expect(fake.closedConnections).toBe(1);
    await expect(collect(await client(fake.url).chat.completions.create(ask))).rejects.toThrow();
    expect(fake.closedConnections).toBe(1);
  });

  it('answers 500 past the end of an array script', async () => {
    fake = await startFakeOpenAI({ script: [] });
    await expect(client(fake.url).chat.completions.create(ask)).rejects.toMatchObject({
      status: 500,
    });
  });
});
