import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAdvisorTurn } from '../src/run-advisor-turn.js';
import {
  chunk,
  chunkStep,
  errorStep,
  findRecordingsDir,
  reasoningSteps,
  textSteps,
  toolCallSteps,
  usageStep,
} from '../src/testing/chunks.js';
import { type FakeOpenAI, type FakeTurn, startFakeOpenAI } from '../src/testing/fake-openai.js';
import type { AdvisorTool, ModelEndpoint } from '../src/types.js';
import { endpointOf, readFrames, terminal, textOf } from './support.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function serve(script: FakeTurn[] | ((r: unknown, i: number) => FakeTurn)) {
  fake = await startFakeOpenAI({ script, recordingsDir: findRecordingsDir() });
  return fake;
}

/** A tool that records its calls and answers `data`. */
function recordingTool<A>(name: string, parameters: z.ZodType<A>, data: unknown = { ok: true }) {
  const calls: A[] = [];
  const tool: AdvisorTool<A> = {
    name,
    description: `the ${name} tool`,
    parameters,
    async run(args) {
      calls.push(args);
      return { data, summary: `${name} ran` };
    },
  };
  return { tool, calls };
}

function turn(endpoint: ModelEndpoint, tools: AdvisorTool<never>[] = [], ask = 'hello') {
  return runAdvisorTurn({
    endpoint,
    messages: [{ role: 'user', content: ask }],
    tools,
    signal: new AbortController().signal,
    now: () => new Date('2026-11-23T12:00:00Z'),
  });
}

describe('runAdvisorTurn: streams', () => {
  it('streams text deltas, then done with finish reason, usage from a usage-only last chunk', async () => {
    const server = await serve([
      {
        steps: [
          ...textSteps('You hold nothing yet.'),
          usageStep({ prompt_tokens: 9, completion_tokens: 5 }),
        ],
      },
    ]);
    const frames = await readFrames(turn(endpointOf(server)));
    expect(frames[0]).toMatchObject({ type: 'start', model: 'test-model' });
    expect(textOf(frames)).toBe('You hold nothing yet.');
    expect(frames.filter((f) => f.type === 'delta').length).toBeGreaterThan(1);
    expect(terminal(frames)).toMatchObject({
      type: 'done',
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 5, totalTokens: 14 },
    });
    const body = server.requests[0]?.body;
    expect(body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 800,
    });
    expect(body.messages[0].role).toBe('system');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'hello' });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.closedConnections).toBe(0); // a complete answer is not an early close
  });

  it('sends the budget as max_completion_tokens when the endpoint says so', async () => {
    const server = await serve([{ steps: textSteps('ok') }]);
    await readFrames(
      turn(
        endpointOf(server, { tokenLimitParameter: 'max_completion_tokens', maxOutputTokens: 77 }),
      ),
    );
    expect(server.requests[0]?.body.max_completion_tokens).toBe(77);
    expect(server.requests[0]?.body.max_tokens).toBeUndefined();
  });

  it('replays Azure: a prompt-filter chunk with empty choices, content-filter fields, usage', async () => {
    const server = await serve([{ replay: 'azure-model-router.1.chunks.txt' }]);
    const frames = await readFrames(turn(endpointOf(server)));
    expect(textOf(frames)).toBe('Capital of Denmark.');
    expect(terminal(frames)).toMatchObject({ type: 'done', usage: { totalTokens: 93 } });
  });

  it('replays a gateway tool call numbered index 1, split across chunks, after text', async () => {
    const readFile = recordingTool('read_file', z.object({ path: z.string() }), { text: 'abc' });
    const server = await serve([
      { replay: 'anthropic-fallback-tool-call.sse' },
      { steps: textSteps('The file says abc.') },
    ]);
    const frames = await readFrames(
      turn(endpointOf(server), [readFile.tool as AdvisorTool<never>]),
    );
    expect(readFile.calls).toEqual([{ path: 'a.txt' }]);
    expect(textOf(frames)).toBe('Reading it.\n\nThe file says abc.');
    expect(frames.filter((f) => f.type === 'tool')).toEqual([
      { type: 'tool', name: 'read_file', status: 'running', callId: 'toolu_sanitized' },
      {
        type: 'tool',
        name: 'read_file',
        status: 'done',
        callId: 'toolu_sanitized',
        summary: 'read_file ran',
      },
    ]);
    const second = server.requests[1]?.body.messages;
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [
        { id: 'toolu_sanitized', function: { name: 'read_file', arguments: '{"path": "a.txt"}' } },
      ],
    });
    expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'toolu_sanitized' });
    expect(second.at(-1).content).toContain('"text":"abc"');
    expect(server.requests[0]?.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'the read_file tool',
          parameters: expect.objectContaining({ type: 'object', required: ['path'] }),
        },
      },
    ]);
  });

  it('replays DeepSeek: reasoning_content never shown, sent back with the tool call', async () => {
    const weather = recordingTool('weather', z.object({ location: z.string() }), { celsius: 18 });
    const server = await serve([
      { replay: 'deepseek-tool-call.chunks.txt' },
      { steps: [...reasoningSteps('Now answer.'), ...textSteps('It is 18 °C.')] },
    ]);
    const frames = await readFrames(turn(endpointOf(server), [weather.tool as AdvisorTool<never>]));
    expect(weather.calls).toEqual([{ location: 'San Francisco' }]);
    expect(textOf(frames)).toBe('It is 18 °C.');
    expect(textOf(frames)).not.toContain('user is asking');
    const assistant = server.requests[1]?.body.messages.at(-2);
    expect(assistant.reasoning_content).toContain('The user is asking for the weather');
    expect(terminal(frames)).toMatchObject({
      type: 'done',
      usage: { promptTokens: 339 + 9 * 0, completionTokens: 83 },
    });
  });

  it('keeps `reasoning` deltas and inline <think> blocks out of the answer', async () => {
    const server = await serve([
      {
        steps: [
          ...reasoningSteps('secret plan A', 'reasoning'),
          chunkStep({ content: '<thi' }),
          chunkStep({ content: 'nk>secret plan B</think>Vis' }),
          chunkStep({ content: 'ible.' }),
          chunkStep({}, { finishReason: 'stop' }),
        ],
      },
    ]);
    const frames = await readFrames(turn(endpointOf(server)));
    expect(textOf(frames)).toBe('Visible.');
    expect(JSON.stringify(frames)).not.toContain('secret');
  });

  it('skips junk: a null chunk, a chunk without choices, comments', async () => {
    const server = await serve([
      {
        steps: [
          { chunk: null },
          { chunk: { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm' } },
          { raw: ': keep-alive\n\n' },
          { chunk: { ...chunk({ content: 'A' }), choices: [] } },
          ...textSteps('fine'),
        ],
      },
    ]);
    const frames = await readFrames(turn(endpointOf(server)));
    expect(textOf(frames)).toBe('fine');
    expect(terminal(frames).type).toBe('done');
  });
});

describe('runAdvisorTurn: tool-call quirks', () => {
  const argsOf = (s: string) => z.object({ s: z.string() }).parse(JSON.parse(s));

  it.each([
    ['with index, split in 3', {}],
    ['without index (Ollama, Gemini)', { withIndex: false }],
    ['whole call in one chunk', { withIndex: false, pieces: 1 }],
    ['without type (vLLM)', { withType: false }],
    ['ended with finish_reason stop (Ollama)', { finishReason: 'stop' }],
    ['with no finish_reason at all', { finishReason: null }],
    ['interleaved heads with index', { interleave: true }],
  ])('runs parallel calls %s', async (_name, options) => {
    const echo = recordingTool('echo', z.object({ s: z.string() }));
    const server = await serve([
      {
        steps: toolCallSteps(
          [
            { id: 'c1', name: 'echo', arguments: '{"s":"one"}' },
            { id: 'c2', name: 'echo', arguments: '{"s":"two, longer"}' },
          ],
          options as never,
        ),
      },
      { steps: textSteps('Done reading.') },
    ]);
    const frames = await readFrames(turn(endpointOf(server), [echo.tool as AdvisorTool<never>]));
    expect(echo.calls).toEqual([argsOf('{"s":"one"}'), argsOf('{"s":"two, longer"}')]);
    expect(terminal(frames)).toMatchObject({ type: 'done', finishReason: 'stop' });
    const tools = server.requests[1]?.body.messages.filter(
      (m: { role: string }) => m.role === 'tool',
    );
    expect(tools.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(['c1', 'c2']);
  });

  it('reads empty arguments as {}', async () => {
    const list = recordingTool('listPortfolios', z.object({}));
    const server = await serve([
      { steps: toolCallSteps([{ name: 'listPortfolios', arguments: '' }]) },
      { steps: textSteps('None.') },
    ]);
    await readFrames(turn(endpointOf(server), [list.tool as AdvisorTool<never>]));
    expect(list.calls).toEqual([{}]);
    expect(server.requests[1]?.body.messages.at(-2).tool_calls[0].function.arguments).toBe('{}');
  });
});

describe('runAdvisorTurn: failures', () => {
  it('a mid-stream error becomes an error frame after the text, and the stream ends', async () => {
    const server = await serve([
      { steps: [...textSteps('Partial answer'), errorStep('overloaded')] },
    ]);
    const logged: unknown[] = [];
    const endpoint = endpointOf(server, { maxRetries: 2, onUpstreamError: (e) => logged.push(e) });
    const frames = await readFrames(turn(endpoint));
    expect(textOf(frames)).toBe('Partial answer');
    expect(terminal(frames)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
    // The provider's text is logged in full, never shown (issue 17).
    expect((terminal(frames) as { message: string }).message).not.toContain('overloaded');
    expect(String(logged[0])).toContain('overloaded');
    expect(frames.some((f) => f.type === 'done')).toBe(false);
    expect(server.requests).toHaveLength(1); // output had started: no retry
  });

  it('an HTTP error status is an error frame (after the SDK retries)', async () => {
    const server = await serve([{ status: 503 }, { status: 503 }]);
    const frames = await readFrames(turn(endpointOf(server, { maxRetries: 1 })));
    expect(frames.map((f) => f.type)).toEqual(['start', 'error']);
    expect(terminal(frames)).toMatchObject({ code: 'upstream_unavailable' });
    expect((terminal(frames) as { message: string }).message).toContain('503');
    expect(server.requests).toHaveLength(2);
  });

  it('an unreachable endpoint is an error frame', async () => {
    const server = await serve([]);
    const endpoint = endpointOf(server);
    await server.close();
    fake = undefined;
    const frames = await readFrames(turn(endpoint));
    expect(terminal(frames)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
  });

  it('retries a connection dropped before the first token, up to maxRetries', async () => {
    const server = await serve([
      { steps: [chunkStep({ role: 'assistant', content: '' }), { drop: true }] },
      { steps: textSteps('Second try.') },
    ]);
    const frames = await readFrames(turn(endpointOf(server, { maxRetries: 1 })));
    expect(textOf(frames)).toBe('Second try.');
    expect(terminal(frames).type).toBe('done');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry without maxRetries, nor after the first token', async () => {
    const server = await serve([
      { steps: [{ drop: true }] },
      { steps: [...textSteps('Half'), { drop: true }] },
      { steps: textSteps('never') },
    ]);
    const first = await readFrames(turn(endpointOf(server)));
    expect(terminal(first)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
    const second = await readFrames(turn(endpointOf(server, { maxRetries: 3 })));
    expect(textOf(second)).toBe('Half');
    expect(terminal(second)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
    expect(server.requests).toHaveLength(2);
  });

  it('the idle watchdog aborts a stalled stream: error frame, upstream connection closed', async () => {
    const server = await serve([
      { steps: [...textSteps('Thinking about'), { hang: true }], done: false },
    ]);
    const frames = await readFrames(turn(endpointOf(server, { idleTimeoutMs: 150 })));
    expect(textOf(frames)).toBe('Thinking about');
    expect(terminal(frames)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
    expect((terminal(frames) as { message: string }).message).toContain('150 ms');
    await server.waitForClosedConnections(1);
  });

  it('slow chunks within the idle timeout are fine', async () => {
    const steps = textSteps(['a', 'b', 'c']).flatMap((s) => [s, { delayMs: 40 }]);
    const server = await serve([{ steps }]);
    const frames = await readFrames(turn(endpointOf(server, { idleTimeoutMs: 1000 })));
    expect(textOf(frames)).toBe('abc');
    expect(terminal(frames).type).toBe('done');
  });

  it('the idle watchdog also covers a server that never sends headers', async () => {
    const server = await serve([{ steps: [{ hang: true }] }]);
    const endpoint = endpointOf(server, { idleTimeoutMs: 150 });
    const frames = await readFrames(turn(endpoint));
    expect(terminal(frames)).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
  });
});

describe('runAdvisorTurn: abort', () => {
  it('aborting the signal closes the upstream connection and ends without a terminal frame', async () => {
    const server = await serve([{ steps: [...textSteps('Streaming slowly'), { hang: true }] }]);
    const controller = new AbortController();
    const frames = await readFrames(
      runAdvisorTurn({
        endpoint: endpointOf(server),
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        signal: controller.signal,
        now: () => new Date(),
      }),
      (frame) => {
        if (frame.type === 'delta') controller.abort();
      },
    );
    await server.waitForClosedConnections(1);
    expect(server.closedConnections).toBe(1);
    expect(frames.map((f) => f.type)).toEqual(['start', 'delta']);
  });

  it('leaving the iteration early (break) also closes the upstream connection', async () => {
    const server = await serve([{ steps: [...textSteps('one two'), { hang: true }] }]);
    for await (const frame of turn(endpointOf(server))) {
      if (frame.type === 'delta') break;
    }
    await server.waitForClosedConnections(1);
  });

  it('an aborted signal during a tool run stops the turn', async () => {
    const controller = new AbortController();
    const slow: AdvisorTool<Record<string, never>> = {
      name: 'slow',
      description: 'slow',
      parameters: z.object({}),
      run: async (_args, { signal }) => {
        controller.abort();
        expect(signal.aborted).toBe(true);
        throw new Error('aborted');
      },
    };
    const server = await serve([
      { steps: toolCallSteps([{ name: 'slow', arguments: '{}' }]) },
      { steps: textSteps('never') },
    ]);
    const frames = await readFrames(
      runAdvisorTurn({
        endpoint: endpointOf(server),
        messages: [{ role: 'user', content: 'hi' }],
        tools: [slow as AdvisorTool<never>],
        signal: controller.signal,
        now: () => new Date(),
      }),
    );
    expect(frames.map((f) => f.type)).toEqual(['start', 'tool']);
    expect(server.requests).toHaveLength(1);
  });

  it('an already aborted signal yields nothing and sends nothing', async () => {
    const server = await serve([{ steps: textSteps('x') }]);
    const controller = new AbortController();
    controller.abort();
    const frames = await readFrames(
      runAdvisorTurn({
        endpoint: endpointOf(server),
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        signal: controller.signal,
        now: () => new Date(),
      }),
    );
    expect(frames).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
