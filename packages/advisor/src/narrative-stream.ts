import { setImmediate as nextTurn } from 'node:timers/promises';
import type OpenAI from 'openai';
import { AdvisorError } from './errors.js';
import type { GroundingReport, NarrativeEvent, UngroundedFigure } from './frames.js';
import type { FactSet } from './grounding/facts.js';
import { LiveGrounding } from './grounding/live.js';
import { type CallLimits, type ModelCallResult, streamModelCall } from './model-call.js';
import { GROUND_STEP, type ModelEndpoint } from './types.js';

/** Written after a figure of a narrative that no fact grounds. */
export const UNGROUNDED_MARK = ' [⚠]';

/** How a marked narrative stream ended. */
export type MarkedOutcome =
  | { readonly kind: 'done'; readonly result: ModelCallResult; readonly grounding: GroundingReport }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'aborted' };

interface MarkedInput {
  readonly endpoint: ModelEndpoint;
  readonly messages: OpenAI.ChatCompletionMessageParam[];
  readonly signal: AbortSignal;
  readonly limits: CallLimits;
  readonly facts: FactSet;
  readonly maxChunkChars: number;
}

/** The pieces of `text` of at most `max` characters. */
function pieces(text: string, max: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += max) out.push(text.slice(at, at + max));
  return out;
}

/**
 * Streams one narrative model call as markdown chunks as the text arrives: only a figure being
 * checked (and the words of its clause after it, at most ~300 characters) is held back, so that
 * a figure no fact grounds is shown with {@link UNGROUNDED_MARK} after it.
 * Leading whitespace is held too, so an answer of only whitespace shows nothing and throws.
 * The report's offsets are those of the markdown as sent (marks included).
 *
 * @throws {AdvisorError} before any chunk: `upstream_unavailable` (the model failed or answered
 *   only whitespace) or `aborted`. After a chunk a failure is the `error` outcome.
 */
export async function* streamMarkedNarrative(
  input: MarkedInput,
): AsyncGenerator<NarrativeEvent, MarkedOutcome> {
  const call = streamModelCall(
    input.endpoint,
    { messages: input.messages },
    input.signal,
    input.limits,
  );
  const live = new LiveGrounding(input.facts);
  const marks: number[] = [];
  let sent = 0;
  let sinceTurn = 0;
  function* emit(upTo: number, flagged: UngroundedFigure[]): Generator<NarrativeEvent> {
    if (upTo <= sent || live.text.trim() === '') return;
    let out = '';
    let at = sent;
    for (const figure of flagged) {
      const end = Math.min(upTo, figure.index + figure.text.length);
      if (end < at) continue;
      out += live.text.slice(at, end) + UNGROUNDED_MARK;
      marks.push(end);
      at = end;
    }
    out += live.text.slice(at, upTo);
    sent = upTo;
    for (const piece of pieces(out, input.maxChunkChars)) yield { type: 'chunk', markdown: piece };
  }
  let result: ModelCallResult;
  try {
    for (;;) {
      const step = await call.next();
      if (step.done) {
        result = step.value;
        break;
      }
      // A large chunk is checked a step at a time, and many small ones that arrived together
      // every GROUND_STEP characters: the event loop runs between steps.
      for (let at = 0; at < step.value.length; at += GROUND_STEP) {
        if (at > 0 || sinceTurn >= GROUND_STEP) {
          sinceTurn = 0;
          await nextTurn();
        }
        const piece = step.value.slice(at, at + GROUND_STEP);
        sinceTurn += piece.length;
        const flagged = live.push(piece);
        yield* emit(live.checked, flagged);
      }
    }
  } catch (error) {
    if (sent === 0) throw error;
    if (error instanceof AdvisorError && error.code === 'aborted') return { kind: 'aborted' };
    yield* emit(live.text.length, live.flush());
    return { kind: 'error', message: 'The model endpoint failed while answering.' };
  } finally {
    await call.return(undefined as never);
  }
  if (live.text.trim() === '') {
    throw new AdvisorError('upstream_unavailable', 'the model answered with no text');
  }
  yield* emit(live.text.length, live.flush());
  const report = live.finish();
  const shift = (index: number) =>
    index + UNGROUNDED_MARK.length * marks.filter((m) => m <= index).length;
  const grounding = {
    ...report,
    ungrounded: report.ungrounded.map((u) => ({ ...u, index: shift(u.index) })),
  };
  return { kind: 'done', result, grounding };
}
