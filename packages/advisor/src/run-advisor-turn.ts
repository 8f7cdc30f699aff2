import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type OpenAI from 'openai';
import { z } from 'zod';
import { MAX_TOOL_CALLS_PER_ROUND } from './accumulator.js';
import { buildAdvisorMessages } from './advisor-prompt.js';
import { type Ending, endingOf, incomplete } from './ending.js';
import { AdvisorError } from './errors.js';
import type { AdvisorFrame, UngroundedFigure, Usage } from './frames.js';
import { LiveGrounding } from './grounding/live.js';
import {
  type CallLimits,
  type ModelCallParams,
  type ModelCallResult,
  streamModelCall,
} from './model-call.js';
import { runOfflineTurn } from './offline.js';
import { MAX_TOOL_CALLS, MAX_TOOL_ROUNDS, runToolCall, type ToolRunState } from './tool-runner.js';
import { turnFacts } from './turn-facts.js';
import {
  type AdvisorTool,
  type AdvisorTurnInput,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TOTAL_TIMEOUT_MS,
  GROUND_STEP,
  MAX_DELTA_CHARS,
  type ModelEndpoint,
} from './types.js';
import { newBoundary } from './untrusted.js';

/** Said when the model still calls tools after the caps and has written no answer. */
export const TOOL_LIMIT_TEXT =
  'I could not finish this answer: the limit of tool calls for one turn was reached.';

// biome-ignore lint/suspicious/noExplicitAny: tools of any argument type.
function toolDefinition(tool: AdvisorTool<any>): OpenAI.ChatCompletionFunctionTool {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.parameters, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters },
  };
}

function addUsage(total: Usage | undefined, more: Usage | undefined): Usage | undefined {
  if (!more) return total;
  if (!total) return { ...more };
  return {
    promptTokens: total.promptTokens + more.promptTokens,
    completionTokens: total.completionTokens + more.completionTokens,
    totalTokens: total.totalTokens + more.totalTokens,
  };
}

/** The assistant message that carried tool calls, as the next request repeats it. */
function assistantToolMessage(
  result: ModelCallResult,
  calls: ModelCallResult['toolCalls'],
): OpenAI.ChatCompletionAssistantMessageParam {
  return {
    role: 'assistant',
    content: result.text === '' ? null : result.text,
    tool_calls: calls.map((c) => ({
      id: c.id,
      type: 'function' as const,
      // Oversized arguments are never held and sent back whole: the call is answered as an error.
      function: {
        name: c.name,
        arguments: c.oversized || c.arguments.trim() === '' ? '{}' : c.arguments,
      },
    })),
    // DeepSeek's thinking mode rejects a follow-up unless its reasoning_content comes back.
    ...(result.reasoningContentField ? { reasoning_content: result.reasoning } : {}),
  };
}

/** Said to the model, after its round's last tool result, when calls of the round were dropped. */
function droppedNote(result: ModelCallResult): string {
  return `\n[${result.droppedToolCalls} more tool call(s) of one round were not run: at most ${MAX_TOOL_CALLS_PER_ROUND} run per round]`;
}

/** What one model round shares with the turn: bounds, the live grounding, what was shown. */
interface RoundContext {
  readonly endpoint: ModelEndpoint;
  readonly signal: AbortSignal;
  readonly limits: CallLimits;
  readonly live: LiveGrounding;
  /** Characters of answer handled since the event loop last ran (see {@link GROUND_STEP}). */
  sinceTurn: number;
}

/**
 * `delta` frames of a piece of answer: at most {@link MAX_DELTA_CHARS} each, marks attached. The
 * figure check reads a large piece {@link GROUND_STEP} characters at a time and lets the event
 * loop run between steps, so one 20,000-character chunk never holds up other requests.
 */
async function* deltas(piece: string, live: LiveGrounding): AsyncGenerator<AdvisorFrame> {
  for (let at = 0; at < piece.length; at += MAX_DELTA_CHARS) {
    const text = piece.slice(at, at + MAX_DELTA_CHARS);
    const flagged: UngroundedFigure[] = [];
    for (let step = 0; step < text.length; step += GROUND_STEP) {
      if (step > 0) await nextTurn();
      flagged.push(...live.push(text.slice(step, step + GROUND_STEP)));
    }
    yield { type: 'delta', text, ...(flagged.length > 0 ? { ungrounded: flagged } : {}) };
  }
}

/**
 * Streams one model call, yielding `delta` frames (whitespace before the answer's first text
 * is held back, so an answer of only whitespace shows nothing; a round after tools is separated
 * from the text before it by a blank line); returns its result. Closes the call when left.
 */
async function* modelRound(
  round: RoundContext,
  params: ModelCallParams,
): AsyncGenerator<AdvisorFrame, ModelCallResult> {
  const call = streamModelCall(round.endpoint, params, round.signal, round.limits);
  const { live } = round;
  const before = live.text;
  let held = '';
  try {
    for (;;) {
      const step = await call.next();
      if (step.done) return step.value;
      held += step.value;
      if (held.trim() === '' && live.text.trim() === '') continue;
      let piece = held;
      held = '';
      if (live.text === before) {
        // The round's first visible text.
        if (before.trim() === '') piece = piece.trimStart();
        else if (!before.endsWith('\n')) piece = `\n\n${piece}`;
      }
      yield* deltas(piece, live);
      // Many small chunks that arrived together are handled without returning to the event
      // loop (the stream reads them from a buffer): let it run every GROUND_STEP characters.
      round.sinceTurn += piece.length;
      if (round.sinceTurn >= GROUND_STEP) {
        round.sinceTurn = 0;
        await nextTurn();
      }
    }
  } finally {
    await call.return(undefined as never);
  }
}

async function* modelTurn(
  input: AdvisorTurnInput,
  endpoint: ModelEndpoint,
): AsyncGenerator<AdvisorFrame> {
  const boundary = newBoundary();
  const messages = buildAdvisorMessages({
    endpoint,
    messages: input.messages,
    attachments: input.attachments ?? [],
    context: input.context ?? {},
    boundary,
    today: input.now(),
    tools: input.tools,
  });
  const state: ToolRunState = {
    tools: new Map(input.tools.map((t) => [t.name, t])),
    boundary,
    signal: input.signal,
    calls: 0,
    results: new Map(),
    facts: turnFacts(input),
  };
  const totalTimeoutMs = endpoint.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
  const maxOutputChars = endpoint.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const round: RoundContext = {
    endpoint,
    signal: input.signal,
    limits: { deadline: Date.now() + totalTimeoutMs, charsLeft: maxOutputChars },
    live: new LiveGrounding(state.facts),
    sinceTurn: 0,
  };
  const definitions = input.tools.map(toolDefinition);
  let usage: Usage | undefined;
  let ending: Ending;
  const notes = new Set<string>();
  for (let n = 0; ; n += 1) {
    const toolsOpen = n < MAX_TOOL_ROUNDS && state.calls < MAX_TOOL_CALLS;
    const params: ModelCallParams = {
      messages,
      ...(definitions.length > 0
        ? { tools: definitions, tool_choice: toolsOpen ? 'auto' : 'none' }
        : {}),
    };
    const result = yield* modelRound(round, params);
    usage = addUsage(usage, result.usage);
    // A tool turn is decided by the calls assembled, not by finish_reason (Ollama sends "stop");
    // but calls of a stream that ended without any finish reason may be cut: none runs (issue
    // 41: no proposal from an unfinished stream).
    const calls = result.toolCalls.filter((c) => c.name !== '');
    if (calls.length === 0 || result.cut !== undefined || result.finishReason === null) {
      ending = endingOf(result, { maxOutputChars, totalTimeoutMs });
      break;
    }
    if (!toolsOpen || definitions.length === 0) {
      ending = incomplete('tool_limit', 'The limit of tool calls for one answer was reached.');
      if (round.live.text.trim() === '') yield* deltas(TOOL_LIMIT_TEXT, round.live);
      break;
    }
    messages.push(assistantToolMessage(result, calls));
    for (const [at, call] of calls.entries()) {
      const { content } = yield* runToolCall(call, state);
      const last = at === calls.length - 1;
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: last && result.droppedToolCalls > 0 ? content + droppedNote(result) : content,
      });
    }
    if (result.droppedToolCalls > 0) {
      notes.add(
        `The model asked for more than ${MAX_TOOL_CALLS_PER_ROUND} tool calls in one round; the rest were not run.`,
      );
    }
  }
  if (round.live.text.trim() === '') {
    throw new AdvisorError(
      'upstream_unavailable',
      ending?.finishReason === 'length'
        ? 'the model answered with no text before its answer was cut'
        : 'the model answered with no text',
    );
  }
  const rest = round.live.flush();
  if (rest.length > 0) yield { type: 'delta', text: '', ungrounded: rest };
  const allNotes = [...ending.notes, ...notes].slice(0, 10);
  yield {
    type: 'done',
    finishReason: ending.finishReason,
    complete: ending.complete,
    ...(allNotes.length > 0 ? { notes: allNotes } : {}),
    ...(usage ? { usage } : {}),
    _grounding: round.live.finish(),
  };
}

/**
 * One advisor turn: the conversation → CONTRACT §4 frames.
 *
 * Model path (`endpoint` set): streamed chat completions through the injected `openai` client,
 * with the package's own tolerant accumulator (tool calls by `index ?? id ?? last open`, empty
 * arguments = `{}`, reasoning — `reasoning_content`, `reasoning`, `<think>` — never shown) and
 * the tool loop: at most {@link MAX_TOOL_ROUNDS} rounds with tools and {@link MAX_TOOL_CALLS}
 * calls (then one last round with `tool_choice: "none"`; a model still calling tools ends with
 * `finishReason: "tool_limit"`, saying {@link TOOL_LIMIT_TEXT} when it wrote nothing), at most
 * `MAX_TOOL_CALLS_PER_ROUND` (10) calls run per round (the model is told how many more were not
 * run, `done.notes` says so), arguments kept up to `MAX_TOOL_ARGUMENT_CHARS` (an oversized call
 * is answered as an error and repeated as `{}`), identical calls run once, arguments validated
 * with each tool's zod schema, errors sent back to the model. Tool results (bounded to 16,000
 * characters with `truncated` meta), attachments and the turn's context (the active portfolio's
 * name: never in the system message) reach the model as untrusted data inside a random
 * boundary, invisible characters stripped. Text is sent as it arrives; its figures are checked
 * once each as it streams (`GROUND_STEP` characters at a time, the event loop running between
 * steps), `delta.ungrounded` marking those no fact grounds. The `done` frame carries
 * `_grounding`: the answer's figures checked against the turn's tool results, the user's
 * messages and the attachments' text.
 *
 * Offline path (`endpoint` null): rules over the same tools (see {@link runOfflineTurn}).
 *
 * Always: exactly one `start` first, then `delta` / `tool` / `proposal` frames, then exactly one
 * terminal frame: `done`, or `error` with code `upstream_unavailable` (the endpoint failed, timed
 * out — no chunk for `idleTimeoutMs` — or the stream broke; text already sent stays sent) or
 * `internal`. Exception: when `signal` aborts (the client left), the upstream request is aborted
 * and the iterable ends without a terminal frame. Leaving the iteration early also aborts it.
 * The iterable never throws.
 *
 * @example
 * for await (const frame of runAdvisorTurn({ endpoint, messages, tools, signal, now: () => new Date() })) {
 *   reply.raw.write(`data: ${JSON.stringify(frame)}\n\n`);
 * }
 */
export async function* runAdvisorTurn(input: AdvisorTurnInput): AsyncGenerator<AdvisorFrame> {
  const { endpoint, signal } = input;
  if (signal.aborted) return;
  yield { type: 'start', id: randomUUID(), model: endpoint?.model ?? 'offline' };
  try {
    if (endpoint === null) yield* runOfflineTurn(input);
    else yield* modelTurn(input, endpoint);
  } catch (error) {
    if (signal.aborted || (error instanceof AdvisorError && error.code === 'aborted')) return;
    if (error instanceof AdvisorError && error.code === 'upstream_unavailable') {
      yield { type: 'error', code: 'upstream_unavailable', message: error.message };
      return;
    }
    yield { type: 'error', code: 'internal', message: 'The advisor failed unexpectedly.' };
  }
}
