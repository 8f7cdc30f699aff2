import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import { z } from 'zod';
import { buildAdvisorMessages } from './advisor-prompt.js';
import { AdvisorError } from './errors.js';
import type { AdvisorFrame, Usage } from './frames.js';
import { groundNumbers } from './grounding.js';
import { type ModelCallParams, type ModelCallResult, streamModelCall } from './model-call.js';
import { runOfflineTurn } from './offline.js';
import { MAX_TOOL_CALLS, MAX_TOOL_ROUNDS, runToolCall, type ToolRunState } from './tool-runner.js';
import type { AdvisorTool, AdvisorTurnInput, ModelEndpoint } from './types.js';
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
      function: { name: c.name, arguments: c.arguments.trim() === '' ? '{}' : c.arguments },
    })),
    // DeepSeek's thinking mode rejects a follow-up unless its reasoning_content comes back.
    ...(result.reasoningContentField ? { reasoning_content: result.reasoning } : {}),
  };
}

/** Streams one model call, yielding `delta` frames; returns its result. Closes it when left early. */
async function* modelRound(
  endpoint: ModelEndpoint,
  params: ModelCallParams,
  signal: AbortSignal,
  lead: string,
): AsyncGenerator<AdvisorFrame, ModelCallResult> {
  const call = streamModelCall(endpoint, params, signal);
  let first = true;
  try {
    for (;;) {
      const step = await call.next();
      if (step.done) return step.value;
      if (first && lead !== '') yield { type: 'delta', text: lead };
      first = false;
      yield { type: 'delta', text: step.value };
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
  });
  const state: ToolRunState = {
    tools: new Map(input.tools.map((t) => [t.name, t])),
    boundary,
    signal: input.signal,
    calls: 0,
    results: new Map(),
    // Numbers the user wrote or attached are grounded too (not a claim of the model's).
    facts: [
      input.messages.filter((m) => m.role === 'user').map((m) => m.content),
      (input.attachments ?? []).map((a) => a.text ?? ''),
    ],
  };
  const definitions = input.tools.map(toolDefinition);
  let answer = '';
  let usage: Usage | undefined;
  let finishReason = 'stop';
  for (let round = 0; ; round += 1) {
    const toolsOpen = round < MAX_TOOL_ROUNDS && state.calls < MAX_TOOL_CALLS;
    const params: ModelCallParams = {
      messages,
      ...(definitions.length > 0
        ? { tools: definitions, tool_choice: toolsOpen ? 'auto' : 'none' }
        : {}),
    };
    const lead = answer !== '' && !answer.endsWith('\n') ? '\n\n' : '';
    const result = yield* modelRound(endpoint, params, input.signal, lead);
    if (result.text !== '') answer += lead + result.text;
    usage = addUsage(usage, result.usage);
    // A tool turn is decided by the calls assembled, not by finish_reason (Ollama sends "stop").
    const calls = result.toolCalls.filter((c) => c.name !== '');
    if (calls.length === 0) {
      finishReason = result.finishReason ?? 'stop';
      break;
    }
    if (!toolsOpen || definitions.length === 0) {
      finishReason = 'tool_limit';
      if (answer === '') {
        answer = TOOL_LIMIT_TEXT;
        yield { type: 'delta', text: TOOL_LIMIT_TEXT };
      }
      break;
    }
    messages.push(assistantToolMessage(result, calls));
    for (const call of calls) {
      const { content } = yield* runToolCall(call, state);
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  yield {
    type: 'done',
    finishReason,
    ...(usage ? { usage } : {}),
    _grounding: groundNumbers(answer, state.facts),
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
 * `finishReason: "tool_limit"`, saying {@link TOOL_LIMIT_TEXT} when it wrote nothing), identical calls run once, arguments validated with each tool's
 * zod schema, errors sent back to the model. Tool results (bounded to 16,000 characters with
 * `truncated` meta) and attachments reach the model as untrusted data inside a random boundary,
 * invisible characters stripped. The `done` frame carries `_grounding`: the answer's figures
 * checked against the turn's tool results, the user's messages and the attachments' text.
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
