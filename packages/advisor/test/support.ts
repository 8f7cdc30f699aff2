import OpenAI from 'openai';
import { expect } from 'vitest';
import { type AdvisorFrame, AdvisorFrameSchema } from '../src/frames.js';
import type { FakeOpenAI } from '../src/testing/fake-openai.js';
import type { ModelEndpoint } from '../src/types.js';

/** A model endpoint on the fake server: the real `openai` client, no retries unless asked. */
export function endpointOf(
  fake: FakeOpenAI,
  overrides: Partial<ModelEndpoint> & { maxRetries?: number } = {},
): ModelEndpoint {
  const { maxRetries = 0, ...rest } = overrides;
  return {
    client: new OpenAI({ baseURL: fake.url, apiKey: 'sk-test', maxRetries, timeout: 5000 }),
    model: 'test-model',
    acceptsImages: false,
    maxOutputTokens: 800,
    idleTimeoutMs: 2000,
    ...rest,
  };
}

/**
 * Reads every frame, checking each against its schema and the framing rules: one `start` first,
 * at most one terminal frame (`done`/`error`), and nothing after it.
 */
export async function readFrames(
  frames: AsyncIterable<AdvisorFrame>,
  onFrame?: (frame: AdvisorFrame) => void,
): Promise<AdvisorFrame[]> {
  const out: AdvisorFrame[] = [];
  for await (const frame of frames) {
    expect(AdvisorFrameSchema.parse(frame)).toEqual(frame);
    if (out.length === 0) expect(frame.type).toBe('start');
    else expect(frame.type).not.toBe('start');
    const last = out.at(-1);
    if (last) expect(['done', 'error']).not.toContain(last.type);
    out.push(frame);
    onFrame?.(frame);
  }
  return out;
}

/** The answer text of the frames. */
export function textOf(frames: AdvisorFrame[]): string {
  return frames.map((f) => (f.type === 'delta' ? f.text : '')).join('');
}

/** The last frame, which must be terminal. */
export function terminal(frames: AdvisorFrame[]): AdvisorFrame {
  const last = frames.at(-1);
  expect(['done', 'error']).toContain(last?.type);
  return last as AdvisorFrame;
}
