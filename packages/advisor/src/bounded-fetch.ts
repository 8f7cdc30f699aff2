import { randomUUID } from 'node:crypto';

/**
 * Bounds of a model endpoint's raw answer, applied to the bytes before any decoding (the `openai`
 * SDK's line decoder, its JSON parse and the service's own limits all come after).
 */
export interface StreamBounds {
  /**
   * Most bytes of one line of the answer (an SSE `data:` line carries one chunk of a few hundred
   * bytes; a line past this is not passed on). Default {@link DEFAULT_MAX_LINE_BYTES}.
   */
  readonly maxLineBytes: number;
  /**
   * Most bytes of one whole answer (every line of one HTTP response, tool-call arguments
   * included). Default {@link DEFAULT_MAX_ANSWER_BYTES}.
   */
  readonly maxAnswerBytes: number;
}

/**
 * Default {@link StreamBounds.maxLineBytes}: 256 KiB. A chat-completion chunk is one JSON object
 * of a few tokens (well under 4 KiB); even a server that sends a whole tool call's arguments
 * (at most 32,000 characters are kept, `MAX_TOOL_ARGUMENT_CHARS`) in one chunk stays far below.
 * The `openai` SDK's line decoder costs more than linearly in the line's length (measured: 0.6 s
 * at 5 MiB, 8.6 s at 20 MiB on one line), so the bound is taken before it.
 */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024;

/**
 * Default {@link StreamBounds.maxAnswerBytes}: 16 MiB. An answer of `AI_MAX_ANSWER_CHARS`
 * (20,000 characters) streamed a token a chunk is about 1 MB of SSE; ten tool calls of 32,000
 * argument characters each, a token a chunk, about 12 MB.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** Why a raw answer was cut: one line, or the whole answer, over its bound. */
export type ByteCut = 'line' | 'answer';

/**
 * The marker of the synthetic last chunk a cut answer ends with. Random per process, so that no
 * model can send it: only this module's cut carries it.
 */
const CUT_MARKER = `x_bounded_cut_${randomUUID().replaceAll('-', '')}`;

/**
 * Whether a parsed stream chunk is the synthetic end of an answer cut by {@link boundedFetch}, and
 * why.
 *
 * @returns `line` or `answer`, or undefined for every other chunk.
 */
export function byteCutOf(chunk: unknown): ByteCut | undefined {
  if (chunk === null || typeof chunk !== 'object') return undefined;
  const value = (chunk as Record<string, unknown>)[CUT_MARKER];
  return value === 'line' || value === 'answer' ? value : undefined;
}

const encoder = new TextEncoder();

/** The SSE events that end a cut answer: a chunk with `finish_reason: "length"`, then `[DONE]`. */
function cutEvents(why: ByteCut): Uint8Array {
  const chunk = {
    id: 'cut',
    object: 'chat.completion.chunk',
    created: 0,
    model: '',
    choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
    [CUT_MARKER]: why,
  };
  // The leading blank line ends whatever event the last whole line belonged to.
  return encoder.encode(`\n\ndata: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * A byte stream transform that passes on whole lines only, while each line stays within
 * `maxLineBytes` and the answer within `maxAnswerBytes`; past either it drops the rest, appends
 * {@link cutEvents} and ends (the upstream body is cancelled, which closes the request). The work
 * is a byte scan for line ends: no decoding, no copy of a line beyond the bound.
 */
export class SseBoundsTransform extends TransformStream<Uint8Array, Uint8Array> {
  constructor(bounds: StreamBounds) {
    /** Bytes of the line not yet ended, held back until its end arrives (at most maxLineBytes). */
    let held: Uint8Array[] = [];
    let heldBytes = 0;
    /** Bytes passed on so far. */
    let passed = 0;
    let ended = false;
    const flushHeld = (controller: TransformStreamDefaultController<Uint8Array>) => {
      for (const part of held) controller.enqueue(part);
      passed += heldBytes;
      held = [];
      heldBytes = 0;
    };
    const cut = (controller: TransformStreamDefaultController<Uint8Array>, why: ByteCut) => {
      ended = true;
      held = [];
      heldBytes = 0;
      controller.enqueue(cutEvents(why));
      controller.terminate();
    };
    super({
      transform(chunk, controller) {
        if (ended) return;
        let start = 0; // first byte of chunk not yet passed on or held
        let nextCr = chunk.indexOf(CR);
        for (;;) {
          const nextLf = chunk.indexOf(LF, start);
          if (nextCr !== -1 && nextCr < start) nextCr = chunk.indexOf(CR, start);
          let end = nextLf;
          if (nextCr !== -1 && (end === -1 || nextCr < end)) end = nextCr;
          if (end === -1) {
            // No line end in the rest: hold it back if the line stays within its bound.
            const rest = chunk.length - start;
            if (heldBytes + rest > bounds.maxLineBytes) return cut(controller, 'line');
            if (rest > 0) {
              held.push(chunk.subarray(start));
              heldBytes += rest;
            }
            return;
          }
          const lineBytes = heldBytes + (end - start);
          if (lineBytes > bounds.maxLineBytes) return cut(controller, 'line');
          if (passed + lineBytes + 1 > bounds.maxAnswerBytes) return cut(controller, 'answer');
          flushHeld(controller);
          controller.enqueue(chunk.subarray(start, end + 1));
          passed += end + 1 - start;
          start = end + 1;
        }
      },
      flush(controller) {
        if (!ended && heldBytes > 0) flushHeld(controller);
      },
    });
  }
}

/**
 * A `fetch` for the `openai` SDK (`new OpenAI({ fetch: boundedFetch(bounds) })`) whose response
 * bodies are bounded before the SDK reads them ({@link SseBoundsTransform}): one huge line or an
 * endless answer costs a byte scan of at most the bounds, and the answer ends honestly with a
 * last chunk whose `finish_reason` is `length` ({@link byteCutOf} tells it apart from the
 * model's own). Non-streaming bodies (error JSON) are bounded the same way.
 *
 * @param bounds - defaults {@link DEFAULT_MAX_LINE_BYTES} and {@link DEFAULT_MAX_ANSWER_BYTES}.
 * @param base - the fetch to wrap; default the global `fetch`.
 */
export function boundedFetch(
  bounds: Partial<StreamBounds> = {},
  base: typeof fetch = globalThis.fetch,
): typeof fetch {
  const full: StreamBounds = {
    maxLineBytes: bounds.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    maxAnswerBytes: bounds.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  };
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null) return response;
    const body = response.body.pipeThrough(new SseBoundsTransform(full));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
