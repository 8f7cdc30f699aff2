import type { AdvisorFrame, NarrativeEvent } from '@svc/use-cases';
import { PROBLEM_CODES, type ProblemCode, problemBody, toProblem } from '../problem.js';
import type { EventStream, ShutdownEvent } from './event-stream.js';

const SHUTTING_DOWN = 'The server is shutting down; send the request again.';

/** The last event of a narrative stream ended by a shutdown: `event: error` with a problem. */
export function narrativeShutdownEvent(instance: string): ShutdownEvent {
  const body = problemBody('upstream_unavailable', SHUTTING_DOWN, { instance });
  return { data: JSON.stringify(body), event: 'error' };
}

/** The last frame of an advisor stream ended by a shutdown: a terminal `error` frame. */
export const ADVISOR_SHUTDOWN_EVENT: ShutdownEvent = {
  data: JSON.stringify({ type: 'error', code: 'upstream_unavailable', message: SHUTTING_DOWN }),
};

/** A frame or event code as a problem code of CONTRACT §1 (unknown codes: `upstream_unavailable`). */
export function asProblemCode(code: string): ProblemCode {
  return (PROBLEM_CODES as readonly string[]).includes(code)
    ? (code as ProblemCode)
    : 'upstream_unavailable';
}

/** Logs what failed unexpectedly inside a stream (the client only sees a problem or an error frame). */
export type StreamErrorLogger = (error: unknown) => void;

/**
 * Writes a narrative (CONTRACT §4): each markdown chunk as `data: "<JSON string>"`, then
 * `event: done` with `{ model, _grounding, notes }`; an error event or a throw becomes
 * `event: error` with a problem object. The stream always ends.
 */
export async function pipeNarrative(
  events: AsyncIterable<NarrativeEvent>,
  stream: EventStream,
  instance: string,
  log: StreamErrorLogger,
): Promise<void> {
  try {
    for await (const event of events) {
      if (event.type === 'chunk') await stream.send(JSON.stringify(event.markdown));
      else if (event.type === 'done') {
        const { type: _type, ...done } = event;
        await stream.send(JSON.stringify(done), 'done');
      } else {
        const body = problemBody(asProblemCode(event.code), event.message, { instance });
        await stream.send(JSON.stringify(body), 'error');
      }
    }
  } catch (error) {
    const answer = toProblem(error, instance);
    if (answer.unexpected) log(error);
    await stream.send(JSON.stringify(answer.body), 'error');
  } finally {
    stream.end();
  }
}

/**
 * Writes advisor frames, one JSON object per `data:` line. A throw after the stream began becomes
 * a terminal `error` frame (so the stream still ends with exactly one `done` or `error`).
 */
export async function pipeFrames(
  frames: AsyncIterable<AdvisorFrame>,
  stream: EventStream,
  instance: string,
  log: StreamErrorLogger,
): Promise<void> {
  let terminal = false;
  try {
    for await (const frame of frames) {
      terminal = frame.type === 'done' || frame.type === 'error';
      await stream.send(JSON.stringify(frame));
    }
  } catch (error) {
    if (!terminal && !stream.signal.aborted) {
      const answer = toProblem(error, instance);
      if (answer.unexpected) log(error);
      const frame: AdvisorFrame = {
        type: 'error',
        code: answer.body.code,
        message: answer.body.detail,
      };
      await stream.send(JSON.stringify(frame));
    }
  } finally {
    stream.end();
  }
}

/** The advisor turn collected into one answer (`POST /api/portfolio/ai-chat`). */
export interface CollectedTurn {
  readonly content: string;
  readonly proposals: Extract<AdvisorFrame, { type: 'proposal' }>['proposal'][];
  /** The terminal `done` frame (finish reason, completeness, notes, grounding). */
  readonly done?: Extract<AdvisorFrame, { type: 'done' }>;
  /** The terminal error frame, if the turn failed. */
  readonly error?: Extract<AdvisorFrame, { type: 'error' }>;
}

/** Joins the `delta` texts and gathers the proposals and the terminal frame of a turn. */
export async function collectTurn(frames: AsyncIterable<AdvisorFrame>): Promise<CollectedTurn> {
  let content = '';
  const proposals: CollectedTurn['proposals'] = [];
  for await (const frame of frames) {
    if (frame.type === 'delta') content += frame.text;
    else if (frame.type === 'proposal') proposals.push(frame.proposal);
    else if (frame.type === 'error') return { content, proposals, error: frame };
    else if (frame.type === 'done') return { content, proposals, done: frame };
  }
  return { content, proposals };
}
