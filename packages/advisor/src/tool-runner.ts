import { MAX_TOOL_ARGUMENT_CHARS, parseToolArguments } from './accumulator.js';
import { AdvisorError } from './errors.js';
import { type AdvisorFrame, ProposalViewSchema } from './frames.js';
import { dataFacts } from './grounding/data-facts.js';
import { type FactSet, mergeFacts } from './grounding/facts.js';
import type { AdvisorTool, ToolOutcome } from './types.js';
import { boundedJson, spotlight } from './untrusted.js';

/** At most this many tool calls run in one turn (Wealthfolio's cap, research/ai-anchors.md §1). */
export const MAX_TOOL_CALLS = 20;
/** At most this many model rounds may call tools in one turn (Wealthfolio's `multi_turn(6)`). */
export const MAX_TOOL_ROUNDS = 6;

/** The tool state of one turn. */
export interface ToolRunState {
  // biome-ignore lint/suspicious/noExplicitAny: tools of any argument type.
  readonly tools: ReadonlyMap<string, AdvisorTool<any>>;
  /** The turn's spotlight boundary. */
  readonly boundary: string;
  readonly signal: AbortSignal;
  /** Calls run so far (deduplicated calls are not counted). */
  calls: number;
  /** Results by call key (name + canonical arguments): identical calls run once. */
  readonly results: Map<string, string>;
  /** The typed facts of every successful result (they ground the answer's figures). */
  readonly facts: FactSet;
}

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The message of a tool failure that may be shown: the message of the house's error classes
 * (a snake_case string `code`, e.g. `not_found`); anything else (a driver's error, a bug) is
 * replaced by a generic line, so internals reach neither the model nor the user.
 */
function publicMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === 'string' && /^[a-z][a-z_]*$/.test(code)) {
    return error.message;
  }
  return 'the tool failed unexpectedly';
}

/** A tool message telling the model what went wrong (as data, like any result). */
function failure(state: ToolRunState, name: string, error: string, details?: unknown): string {
  return spotlight(
    JSON.stringify({ error, ...(details === undefined ? {} : { details }) }),
    state.boundary,
    `tool ${name} error`,
  );
}

function resultContent(state: ToolRunState, name: string, outcome: ToolOutcome): string {
  const data = outcome.proposal
    ? {
        result: outcome.data ?? null,
        proposal: {
          id: outcome.proposal.id,
          kind: outcome.proposal.kind,
          summary: outcome.proposal.summary,
          expiresAt: outcome.proposal.expiresAt,
          status: 'pending: the user must accept it in the app; nothing has changed yet',
        },
      }
    : outcome.data;
  return spotlight(boundedJson(data), state.boundary, `tool ${name} result`);
}

/** What a tool call gave: the tool message for the model, and the outcome when the tool ran. */
export interface ToolCallResult {
  content: string;
  outcome?: ToolOutcome;
}

/**
 * Runs one tool call the model asked for and yields its frames (`tool` running → done/error,
 * then `proposal` when the tool made one); returns the tool message content for the model
 * (and the outcome, for the offline rules).
 * Identical calls (same name and arguments) run once per turn and answer the earlier result;
 * past {@link MAX_TOOL_CALLS} a call is not run; a call whose arguments were over
 * `MAX_TOOL_ARGUMENT_CHARS` (`oversized`, cut by the accumulator) is not run and the model is
 * told so. Unknown tools, arguments that are not JSON or
 * fail the tool's schema, and tool failures go back to the model as error results (a failure's
 * message only when the error carries a snake_case `code`, as the house's error classes do).
 *
 * @throws {AdvisorError} `aborted` when the turn's signal aborted during the tool run.
 */
export async function* runToolCall(
  call: { id: string; name: string; arguments: string; oversized?: boolean },
  state: ToolRunState,
): AsyncGenerator<AdvisorFrame, ToolCallResult> {
  const name = call.name.slice(0, 64);
  if (call.oversized) {
    // Answered, never parsed or sent back: the model learns its arguments were too long.
    const message = `arguments over ${MAX_TOOL_ARGUMENT_CHARS} characters: not run`;
    const content = failure(state, name, message);
    yield { type: 'tool', name, status: 'error', callId: call.id, summary: message };
    return { content };
  }
  const parsed = parseToolArguments(call.arguments);
  const key = `${name}\u0000${parsed.ok ? canonical(parsed.value) : call.arguments}`;
  const earlier = state.results.get(key);
  if (earlier !== undefined) return { content: earlier };
  const fail = (summary: string, content: string): AdvisorFrame => {
    state.results.set(key, content);
    return { type: 'tool', name, status: 'error', callId: call.id, summary };
  };
  if (state.calls >= MAX_TOOL_CALLS) {
    const message = `not run: at most ${MAX_TOOL_CALLS} tool calls per turn; answer with what you have`;
    const content = failure(state, name, message);
    yield fail(message, content);
    return { content };
  }
  state.calls += 1;
  const tool = state.tools.get(call.name);
  if (!tool) {
    const content = failure(state, name, `unknown tool "${name}"; use only the tools offered`);
    yield fail('unknown tool', content);
    return { content };
  }
  yield { type: 'tool', name, status: 'running', callId: call.id };
  if (!parsed.ok) {
    const content = failure(state, name, parsed.message);
    yield fail('invalid arguments', content);
    return { content };
  }
  const args = tool.parameters.safeParse(parsed.value);
  if (!args.success) {
    const issues = args.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    const content = failure(state, name, 'invalid arguments', issues);
    yield fail('invalid arguments', content);
    return { content };
  }
  let outcome: ToolOutcome;
  try {
    outcome = await tool.run(args.data, { signal: state.signal });
  } catch (error) {
    if (state.signal.aborted) throw new AdvisorError('aborted', 'aborted', { cause: error });
    const message = publicMessage(error);
    const content = failure(state, name, message);
    yield fail(message.slice(0, 200), content);
    return { content };
  }
  if (state.signal.aborted) throw new AdvisorError('aborted', 'aborted');
  const proposal = outcome.proposal ? ProposalViewSchema.safeParse(outcome.proposal) : undefined;
  if (proposal && !proposal.success) {
    const content = failure(state, name, 'the proposal could not be made');
    yield fail('invalid proposal', content);
    return { content };
  }
  mergeFacts(state.facts, dataFacts(outcome.data, name, tool.source ?? 'service'));
  const content = resultContent(state, name, outcome);
  state.results.set(key, content);
  yield {
    type: 'tool',
    name,
    status: 'done',
    callId: call.id,
    ...(outcome.summary ? { summary: outcome.summary } : {}),
  };
  if (proposal?.success) yield { type: 'proposal', proposal: proposal.data };
  return { content, outcome };
}
