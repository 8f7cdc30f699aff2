/** A tool call assembled from streamed fragments. */
export interface AccumulatedToolCall {
  /** The call id from the model, or `call_<n>` when the server sent none. */
  id: string;
  /** Function name ('' when the server never sent one). */
  name: string;
  /** The concatenated argument text ('' for a call without arguments), at most the bound's length. */
  arguments: string;
  /** True when the model sent more argument text than the bound: the rest was not kept. */
  oversized?: boolean;
}

/** Bounds of a {@link ToolCallAccumulator}: what a model may make the server hold. */
export interface ToolCallBounds {
  /** Most calls kept per model answer; fragments of further calls are only counted. */
  readonly maxCalls: number;
  /** Most argument characters kept per call; the rest is dropped and the call marked `oversized`. */
  readonly maxArgumentChars: number;
}

/** Default {@link ToolCallBounds.maxCalls}: 10 tool calls run in one round. */
export const MAX_TOOL_CALLS_PER_ROUND = 10;
/** Default {@link ToolCallBounds.maxArgumentChars}: 32,000 characters of arguments per call. */
export const MAX_TOOL_ARGUMENT_CHARS = 32_000;

/** Most distinct dropped calls remembered (so their later fragments are not counted again). */
const MAX_REMEMBERED_DROPS = 10_000;

/** A streamed tool-call fragment as servers send it (every field optional). */
interface ToolCallDelta {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

/**
 * Assembles tool calls from streamed `delta.tool_calls` fragments, tolerant of the
 * OpenAI-compatible servers' quirks (research/ai-anchors.md §3): a fragment continues the call
 * with the same `index`; without `index`, the call with the same `id`; without either, the last
 * open call. So parallel calls from servers that omit `index` (Ollama, Gemini, SGLang) are not
 * merged, a gateway numbering its first call 1 works, and arguments sent whole (or as an object)
 * are kept. `type` is never required. Bounded whatever the model sends ({@link ToolCallBounds}):
 * calls past `maxCalls` are counted in {@link ToolCallAccumulator.dropped} and not kept, argument
 * text past `maxArgumentChars` is dropped and the call marked `oversized`.
 */
export class ToolCallAccumulator {
  private readonly calls: AccumulatedToolCall[] = [];
  private readonly byIndex = new Map<number, AccumulatedToolCall>();
  private readonly byId = new Map<string, AccumulatedToolCall>();
  private readonly droppedKeys = new Set<string>();
  private lastDropped = false;
  /** Calls the model opened beyond {@link ToolCallBounds.maxCalls} (not kept, not run). */
  dropped = 0;

  constructor(
    private readonly bounds: ToolCallBounds = {
      maxCalls: MAX_TOOL_CALLS_PER_ROUND,
      maxArgumentChars: MAX_TOOL_ARGUMENT_CHARS,
    },
  ) {}

  /** Adds the fragments of one chunk's delta (ignores anything that is not an array). */
  add(fragments: unknown): void {
    if (!Array.isArray(fragments)) return;
    for (const fragment of fragments) {
      if (fragment && typeof fragment === 'object') this.addOne(fragment as ToolCallDelta);
    }
  }

  private find(fragment: ToolCallDelta): AccumulatedToolCall | undefined {
    const { index, id } = fragment;
    if (typeof index === 'number') {
      const known = this.byIndex.get(index) ?? (id ? this.byId.get(id) : undefined);
      if (known) this.byIndex.set(index, known);
      return known;
    }
    if (id) return this.byId.get(id);
    return this.lastDropped ? undefined : this.calls.at(-1);
  }

  /** Whether a fragment belongs to a call dropped over the bound (counting a new one). */
  private droppedCall(fragment: ToolCallDelta): boolean {
    const keys = [
      typeof fragment.index === 'number' ? `i${fragment.index}` : undefined,
      fragment.id ? `d${fragment.id}` : undefined,
    ].filter((k): k is string => k !== undefined);
    if (keys.length === 0) return this.lastDropped;
    if (keys.some((k) => this.droppedKeys.has(k))) return true;
    if (this.calls.length < this.bounds.maxCalls) return false;
    this.dropped += 1;
    this.lastDropped = true;
    for (const k of keys) if (this.droppedKeys.size < MAX_REMEMBERED_DROPS) this.droppedKeys.add(k);
    return true;
  }

  private addOne(fragment: ToolCallDelta): void {
    let call = this.find(fragment);
    if (!call) {
      if (this.droppedCall(fragment)) return;
      call = { id: fragment.id || `call_${this.calls.length}`, name: '', arguments: '' };
      this.calls.push(call);
      this.lastDropped = false;
      if (typeof fragment.index === 'number') this.byIndex.set(fragment.index, call);
    }
    if (fragment.id && !this.byId.has(fragment.id)) {
      call.id = fragment.id.slice(0, 200);
      this.byId.set(fragment.id, call);
    }
    const fn = fragment.function;
    if (fn?.name) call.name = fn.name.slice(0, 200);
    const args = fn?.arguments;
    if (call.oversized || args === undefined || args === null) return;
    const text = typeof args === 'string' ? args : JSON.stringify(args);
    const room = this.bounds.maxArgumentChars - call.arguments.length;
    if (text.length > room) {
      call.arguments += text.slice(0, Math.max(0, room));
      call.oversized = true;
      return;
    }
    call.arguments += text;
  }

  /** The calls so far, in the order they opened. */
  get result(): readonly AccumulatedToolCall[] {
    return this.calls;
  }
}

/**
 * Parses accumulated tool-call arguments: empty (or blank) text is `{}`; otherwise JSON.
 * @returns `{ ok: true, value }` or `{ ok: false, message }` for text that is not JSON.
 */
export function parseToolArguments(
  text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `arguments are not valid JSON: ${(error as Error).message}` };
  }
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagAt(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n -= 1) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

/**
 * Separates inline `<think>…</think>` reasoning from answer text across chunk boundaries (as
 * Wealthfolio's `ThinkTagParser`). Feed content deltas in order; each call returns the answer
 * text and the reasoning text it completed; a possible partial tag is held back until the next
 * call or {@link ThinkFilter.flush}.
 */
export class ThinkFilter {
  private inside = false;
  private pending = '';

  /** Splits one content delta. */
  push(delta: string): { text: string; reasoning: string } {
    let rest = this.pending + delta;
    this.pending = '';
    let text = '';
    let reasoning = '';
    while (rest.length > 0) {
      const tag = this.inside ? CLOSE : OPEN;
      const at = rest.indexOf(tag);
      if (at >= 0) {
        if (this.inside) reasoning += rest.slice(0, at);
        else text += rest.slice(0, at);
        rest = rest.slice(at + tag.length);
        this.inside = !this.inside;
        continue;
      }
      const hold = partialTagAt(rest, tag);
      const out = rest.slice(0, rest.length - hold);
      if (this.inside) reasoning += out;
      else text += out;
      this.pending = rest.slice(rest.length - hold);
      rest = '';
    }
    return { text, reasoning };
  }

  /** The held-back text at the end of the stream (answer text unless inside a think block). */
  flush(): { text: string; reasoning: string } {
    const rest = this.pending;
    this.pending = '';
    return this.inside ? { text: '', reasoning: rest } : { text: rest, reasoning: '' };
  }
}
