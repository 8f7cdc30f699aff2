import OpenAI from 'openai';
import {
  type AccumulatedToolCall,
  ThinkFilter,
  ToolCallAccumulator,
  type ToolCallBounds,
} from './accumulator.js';
import { byteCutOf } from './bounded-fetch.js';
import { AdvisorError } from './errors.js';
import type { Usage } from './frames.js';
import type { ModelEndpoint } from './types.js';

/** What one streamed model call produced. */
export interface ModelCallResult {
  /** The visible answer text (reasoning and `<think>` blocks removed). */
  text: string;
  /** Reasoning text (never shown, never stored as the answer). */
  reasoning: string;
  /** True when the server sent reasoning as `reasoning_content` (it expects it back with tool calls). */
  reasoningContentField: boolean;
  /** Tool calls assembled from the fragments (a tool turn is decided by these, not finish_reason). */
  toolCalls: AccumulatedToolCall[];
  /** Tool calls the model opened beyond {@link ToolCallBounds.maxCalls}: not kept, not run. */
  droppedToolCalls: number;
  /** `finish_reason` of the last chunk that had one, or null when the server sent none. */
  finishReason: string | null;
  /** Token counts when the server reported them. */
  usage?: Usage;
  /**
   * Set when the server cut the answer, whatever the model did: `chars` (the answer reached
   * {@link CallLimits.maxChars}; the rest was not read), `time` (the deadline passed after
   * some output) or `bytes` (the raw answer passed a bound of {@link boundedFetch}: one line or
   * the whole answer too large; the rest was not read).
   */
  cut?: 'chars' | 'time' | 'bytes';
}

/**
 * Bounds of one answer that the server enforces whatever the model does (shared by the model
 * calls of one turn: pass the same object to each).
 */
export interface CallLimits {
  /** Epoch ms after which the answer is cut (total time, not idle time). */
  readonly deadline?: number;
  /** Characters of visible answer still allowed; decreased as text arrives. */
  charsLeft?: number;
  /** Bounds of the tool calls of one answer (default: 10 calls, 32,000 argument characters each). */
  tools?: ToolCallBounds;
}

/** The request fields of one call besides `stream`, `model` and the budget. */
export type ModelCallParams = Omit<
  OpenAI.ChatCompletionCreateParamsStreaming,
  'stream' | 'stream_options' | 'model' | 'max_tokens' | 'max_completion_tokens'
>;

/** A failure after the response headers: retried when no visible output was produced. */
class BodyFailure extends Error {}

interface ChunkLike {
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  choices?: Array<{
    index?: number;
    finish_reason?: string | null;
    delta?: {
      content?: unknown;
      reasoning_content?: unknown;
      reasoning?: unknown;
      tool_calls?: unknown;
    } | null;
  }> | null;
}

/**
 * A generic line for the user: the provider's own text (e.g. a 401 "Incorrect API key
 * provided…") never reaches the client; the error is handed to `endpoint.onUpstreamError`.
 */
function describe(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'the model endpoint timed out';
  if (error instanceof OpenAI.APIConnectionError) return 'the model endpoint is unreachable';
  if (error instanceof OpenAI.APIError && error.status) {
    return `the model endpoint failed (HTTP ${error.status})`;
  }
  return 'the model endpoint failed';
}

function toUsage(raw: ChunkLike['usage']): Usage | undefined {
  if (!raw || typeof raw.prompt_tokens !== 'number' || typeof raw.completion_tokens !== 'number') {
    return undefined;
  }
  return {
    promptTokens: raw.prompt_tokens,
    completionTokens: raw.completion_tokens,
    totalTokens: raw.total_tokens ?? raw.prompt_tokens + raw.completion_tokens,
  };
}

/** Mutable state of one attempt. */
interface Attempt {
  produced: boolean;
  idle: boolean;
  /** The total deadline passed. */
  late: boolean;
}

/** The part of `text` that fits `limits.charsLeft` (all of it without a limit); counts it. */
function take(text: string, limits: CallLimits): string {
  if (limits.charsLeft === undefined) return text;
  const part = text.slice(0, Math.max(0, limits.charsLeft));
  limits.charsLeft -= part.length;
  return part;
}

async function* readStream(
  stream: AsyncIterable<unknown>,
  attempt: Attempt,
  rearm: () => void,
  signal: AbortSignal,
  limits: CallLimits,
  result: ModelCallResult,
): AsyncGenerator<string, void> {
  const tools = new ToolCallAccumulator(limits.tools);
  const think = new ThinkFilter();
  for await (const raw of stream) {
    if (signal.aborted) break; // chunks already parsed are not shown after an abort
    rearm();
    if (!raw || typeof raw !== 'object') continue; // `data: null` and other junk
    if (byteCutOf(raw) !== undefined) {
      result.cut = 'bytes';
      result.finishReason = 'length';
      break;
    }
    const chunk = raw as ChunkLike;
    const usage = toUsage(chunk.usage);
    if (usage) result.usage = usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const choice = choices.find((c) => (c?.index ?? 0) === 0);
    if (!choice) continue; // prompt-filter chunks, usage-only last chunk
    if (choice.finish_reason) result.finishReason = choice.finish_reason;
    const delta = choice.delta ?? {};
    if (typeof delta.reasoning_content === 'string') {
      result.reasoning += delta.reasoning_content;
      result.reasoningContentField = true;
    }
    if (typeof delta.reasoning === 'string') result.reasoning += delta.reasoning;
    if (delta.tool_calls) {
      tools.add(delta.tool_calls);
      attempt.produced = true;
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      const split = think.push(delta.content);
      result.reasoning += split.reasoning;
      if (split.text !== '') {
        attempt.produced = true;
        const part = take(split.text, limits);
        if (part !== '') {
          result.text += part;
          yield part;
        }
        if (part.length < split.text.length) {
          result.cut = 'chars';
          result.finishReason = 'length';
          break;
        }
      }
    }
  }
  const rest = think.flush();
  result.reasoning += rest.reasoning;
  const part = result.cut ? '' : take(rest.text, limits);
  if (part !== '') {
    result.text += part;
    yield part;
  }
  result.toolCalls = [...tools.result];
  result.droppedToolCalls = tools.dropped;
}

function emptyResult(): ModelCallResult {
  return {
    text: '',
    reasoning: '',
    reasoningContentField: false,
    toolCalls: [],
    droppedToolCalls: 0,
    finishReason: null,
  };
}

async function* oneAttempt(
  endpoint: ModelEndpoint,
  params: ModelCallParams,
  signal: AbortSignal,
  attempt: Attempt,
  limits: CallLimits,
): AsyncGenerator<string, ModelCallResult> {
  const controller = new AbortController();
  const lateTimer =
    limits.deadline === undefined
      ? undefined
      : setTimeout(
          () => {
            attempt.late = true;
            controller.abort();
          },
          Math.max(0, limits.deadline - Date.now()),
        );
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      attempt.idle = true;
      controller.abort();
    }, endpoint.idleTimeoutMs);
  };
  const idleMessage = `no answer from the model endpoint for ${endpoint.idleTimeoutMs} ms`;
  const lateMessage = 'the model endpoint did not answer in the time allowed';
  const why = (error: unknown) => {
    if (!signal.aborted) endpoint.onUpstreamError?.(error);
    return attempt.late ? lateMessage : attempt.idle ? idleMessage : describe(error);
  };
  let completed = false;
  try {
    if (signal.aborted) throw new AdvisorError('aborted', 'aborted');
    rearm();
    let stream: AsyncIterable<unknown>;
    try {
      stream = await endpoint.client.chat.completions.create(
        {
          ...params,
          model: endpoint.model,
          stream: true,
          stream_options: { include_usage: true },
          [endpoint.tokenLimitParameter ?? 'max_tokens']: endpoint.maxOutputTokens,
        },
        { signal: controller.signal },
      );
    } catch (error) {
      if (signal.aborted) throw new AdvisorError('aborted', 'aborted', { cause: error });
      throw new AdvisorError('upstream_unavailable', why(error), { cause: error });
    }
    const result = emptyResult();
    try {
      yield* readStream(stream, attempt, rearm, signal, limits, result);
    } catch (error) {
      if (signal.aborted) throw new AdvisorError('aborted', 'aborted', { cause: error });
      if (!attempt.late) throw new BodyFailure(why(error), { cause: error });
    }
    // The SDK ends the iteration silently on abort: an abort is not a normal end.
    if (signal.aborted) throw new AdvisorError('aborted', 'aborted');
    if (attempt.late) {
      // Past the deadline: what was shown stays, and the answer says it was cut.
      if (!attempt.produced) throw new AdvisorError('upstream_unavailable', lateMessage);
      return { ...result, toolCalls: [], cut: 'time', finishReason: null };
    }
    if (attempt.idle) throw new BodyFailure(idleMessage);
    // A cut answer leaves the rest of the stream unread: the request is aborted below.
    completed = result.cut === undefined;
    return result;
  } finally {
    clearTimeout(timer);
    clearTimeout(lateTimer);
    signal.removeEventListener('abort', onAbort);
    // Never leave a request open; a complete response is left alone, so that aborting it cannot
    // disturb the keep-alive connection the client reuses for the next request.
    if (!completed) controller.abort();
  }
}

/**
 * One streamed chat completion through `endpoint.client`: yields the visible answer text as it
 * arrives and returns the whole {@link ModelCallResult}. Sends `stream_options.include_usage`
 * and the token budget. An idle watchdog aborts the request when no chunk arrives for
 * `endpoint.idleTimeoutMs` (the SDK's `timeout` only covers the time to headers). A stream that
 * fails after its headers but before any visible output is retried up to `client.maxRetries`
 * times (the SDK itself retries only before the headers). `limits` bound the answer whatever the
 * model does: past `deadline` the request is aborted (the result says `cut: 'time'` when text
 * was shown, else it throws), and text beyond `charsLeft` is not read (`cut: 'chars'`,
 * `finishReason: 'length'`, the request aborted).
 *
 * @throws {AdvisorError} `upstream_unavailable` (endpoint down, HTTP error, mid-stream error,
 *   idle timeout, dropped connection); `aborted` when `signal` aborted.
 */
export async function* streamModelCall(
  endpoint: ModelEndpoint,
  params: ModelCallParams,
  signal: AbortSignal,
  limits: CallLimits = {},
): AsyncGenerator<string, ModelCallResult> {
  const retries = Math.max(0, endpoint.client.maxRetries ?? 0);
  for (let n = 0; ; n += 1) {
    const attempt: Attempt = { produced: false, idle: false, late: false };
    try {
      return yield* oneAttempt(endpoint, params, signal, attempt, limits);
    } catch (error) {
      if (!(error instanceof BodyFailure)) throw error;
      if (attempt.produced || n >= retries) {
        throw new AdvisorError('upstream_unavailable', error.message, { cause: error.cause });
      }
    }
  }
}
