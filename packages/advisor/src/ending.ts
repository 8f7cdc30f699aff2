import type { ModelCallResult } from './model-call.js';

/** How an answer ended, for the terminal frame. */
export interface Ending {
  /**
   * The model's `finish_reason` (`stop`, `length`, `content_filter`, …), or what the server
   * saw: `tool_limit` (the tool caps), `timeout` (the total time ran out), `length` (also the
   * server's character cap), `incomplete` (the stream ended without a finish reason), `offline`.
   */
  readonly finishReason: string;
  /** True only for an answer the model finished (`stop`) or the offline rules wrote. */
  readonly complete: boolean;
  /** Why an incomplete answer is incomplete, for the user. */
  readonly notes: string[];
}

/** Options of {@link endingOf}. */
export interface EndingLimits {
  readonly maxOutputChars: number;
  readonly totalTimeoutMs: number;
}

/**
 * The honest ending of a model answer: `stop` is complete; a cut (`length`, the server's
 * character cap or deadline), a filtered answer (`content_filter`), the tool limit and a stream
 * that ended without a finish reason (`incomplete`) are not, each with a note saying so.
 */
export function endingOf(
  result: Pick<ModelCallResult, 'finishReason' | 'cut'>,
  limits: EndingLimits,
): Ending {
  if (result.cut === 'chars') {
    return incomplete('length', `The answer was cut at ${limits.maxOutputChars} characters.`);
  }
  if (result.cut === 'bytes') {
    return incomplete(
      'length',
      'The model endpoint sent more than the server reads for one answer: it was cut there.',
    );
  }
  if (result.cut === 'time') {
    const seconds = Math.round(limits.totalTimeoutMs / 1000);
    return incomplete('timeout', `The answer was cut after ${seconds} s: it is incomplete.`);
  }
  switch (result.finishReason) {
    case 'stop':
      return { finishReason: 'stop', complete: true, notes: [] };
    case null:
      return incomplete(
        'incomplete',
        'The model’s stream ended without saying the answer was finished: it may be cut.',
      );
    case 'length':
      return incomplete('length', 'The answer was cut at the token budget.');
    case 'content_filter':
      return incomplete('content_filter', 'The model’s content filter stopped the answer.');
    default:
      return incomplete(
        result.finishReason.slice(0, 40),
        `The model ended the answer with "${result.finishReason.slice(0, 40)}".`,
      );
  }
}

/** An incomplete ending with one note. */
export function incomplete(finishReason: string, note: string): Ending {
  return { finishReason, complete: false, notes: [note] };
}
