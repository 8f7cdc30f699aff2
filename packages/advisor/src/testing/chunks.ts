import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FakeStep } from './fake-openai.js';

/** Options of {@link chunk}. */
export interface ChunkOptions {
  /** `choices[0].finish_reason` (default `null`). */
  finishReason?: string | null;
  /** Chunk `model` (default `fake-model`). */
  model?: string;
  /** Chunk `id` (default `chatcmpl-fake`). */
  id?: string;
}

/** One `chat.completion.chunk` object with a single choice carrying `delta`. */
export function chunk(delta: Record<string, unknown>, options: ChunkOptions = {}): object {
  return {
    id: options.id ?? 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 0,
    model: options.model ?? 'fake-model',
    choices: [{ index: 0, delta, finish_reason: options.finishReason ?? null }],
  };
}

/** A step sending one `chunk(delta, options)`. */
export function chunkStep(delta: Record<string, unknown>, options: ChunkOptions = {}): FakeStep {
  return { chunk: chunk(delta, options) };
}

/**
 * The steps of a plain text answer: a role chunk, one content delta per piece (a string is split
 * into words, spaces kept), then an empty delta with `finishReason` (default `stop`).
 */
export function textSteps(text: string | string[], options: ChunkOptions = {}): FakeStep[] {
  const pieces = Array.isArray(text) ? text : (text.match(/\s*\S+|\s+$/g) ?? []);
  return [
    chunkStep({ role: 'assistant', content: '' }, options),
    ...pieces.map((content) => chunkStep({ content }, options)),
    chunkStep({}, { ...options, finishReason: options.finishReason ?? 'stop' }),
  ];
}

/** One tool call to stream with {@link toolCallSteps}. */
export interface FakeToolCall {
  /** Call id (default `call_<n>`); sent on the call's first chunk only. */
  id?: string;
  name: string;
  /** The JSON arguments as the model writes them (may be `''`). */
  arguments: string;
}

/** Options of {@link toolCallSteps}. */
export interface ToolCallStepsOptions extends ChunkOptions {
  /** Send `index` on every tool-call delta (default `true`; Ollama, Gemini and SGLang omit it). */
  withIndex?: boolean;
  /** First index used (default 0; a gateway numbered its call 1 after a text block). */
  firstIndex?: number;
  /** Send `type: "function"` on the first chunk (default `true`; vLLM drops it). */
  withType?: boolean;
  /** How many chunks each call's arguments are split into (default 3; 1 = whole in one chunk). */
  pieces?: number;
  /** All calls' first chunks together in one delta, then the argument pieces (default `false`). */
  interleave?: boolean;
}

function split(text: string, pieces: number): string[] {
  if (pieces <= 1 || text.length <= 1) return [text];
  const size = Math.ceil(text.length / pieces);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/**
 * The steps of an assistant turn that calls tools: for each call a first delta with `id` and the
 * function name (and empty arguments), then its arguments in `pieces` deltas, then an empty delta
 * with `finishReason` (default `tool_calls`; pass `stop` for servers that end tool turns that way).
 */
export function toolCallSteps(
  calls: FakeToolCall[],
  options: ToolCallStepsOptions = {},
): FakeStep[] {
  const withIndex = options.withIndex ?? true;
  const first = options.firstIndex ?? 0;
  const head = (call: FakeToolCall, n: number) => ({
    ...(withIndex ? { index: first + n } : {}),
    id: call.id ?? `call_${n}`,
    ...(options.withType === false ? {} : { type: 'function' }),
    function: { name: call.name, arguments: '' },
  });
  const body = (call: FakeToolCall, n: number) =>
    split(call.arguments, options.pieces ?? 3).map((argumentsPiece) =>
      chunkStep(
        {
          tool_calls: [
            { ...(withIndex ? { index: first + n } : {}), function: { arguments: argumentsPiece } },
          ],
        },
        options,
      ),
    );
  const steps: FakeStep[] = [chunkStep({ role: 'assistant', content: null }, options)];
  if (options.interleave) {
    steps.push(chunkStep({ tool_calls: calls.map(head) }, options));
    calls.forEach((call, n) => {
      steps.push(...body(call, n));
    });
  } else {
    calls.forEach((call, n) => {
      steps.push(chunkStep({ tool_calls: [head(call, n)] }, options), ...body(call, n));
    });
  }
  steps.push(chunkStep({}, { ...options, finishReason: options.finishReason ?? 'tool_calls' }));
  return steps;
}

/** Reasoning deltas in `field` (`reasoning_content`: DeepSeek, vLLM ≤ 0.8; `reasoning`: vLLM ≥ 0.9, OpenRouter). */
export function reasoningSteps(
  text: string,
  field: 'reasoning_content' | 'reasoning' = 'reasoning_content',
  options: ChunkOptions = {},
): FakeStep[] {
  return split(text, 3).map((piece) => chunkStep({ content: null, [field]: piece }, options));
}

/** The usage-only last chunk of `stream_options.include_usage` (`choices: []`). */
export function usageStep(
  usage: { prompt_tokens: number; completion_tokens: number },
  options: ChunkOptions = {},
): FakeStep {
  return {
    chunk: {
      id: options.id ?? 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 0,
      model: options.model ?? 'fake-model',
      choices: [],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/** A mid-stream error object (`data: {"error":…}`), which the SDK throws as an `APIError`. */
export function errorStep(message = 'upstream overloaded'): FakeStep {
  return { chunk: { error: { message, type: 'server_error', code: null } } };
}

/** A non-streaming `chat.completion` answer with `content` (and optional tool calls). */
export function completionJson(
  content: string | null,
  toolCalls: Array<{ id: string; name: string; arguments: string }> = [],
  options: ChunkOptions = {},
): object {
  return {
    id: options.id ?? 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: options.model ?? 'fake-model',
    choices: [
      {
        index: 0,
        finish_reason: options.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        message: {
          role: 'assistant',
          content,
          ...(toolCalls.length > 0
            ? {
                tool_calls: toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/**
 * The folder of the recorded streams, `../shared/data/openai` relative to the repository root
 * (the first folder up from `from` holding `pnpm-workspace.yaml`).
 *
 * @throws {Error} when no repository root is found above `from`.
 */
export function findRecordingsDir(from: string = process.cwd()): string {
  let dir = resolve(from);
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
    dir = parent;
  }
  return resolve(dir, '../shared/data/openai');
}
