import { type FakeOpenAI, type FakeTurn, startFakeOpenAI } from '@svc/service/testing';
import { type AdvisorFrame, AdvisorFrameSchema, GroundingReportSchema } from '@svc/use-cases';
import { createParser } from 'eventsource-parser';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { ProblemDetails } from '../src/problem.js';
import { ORIGIN } from './helpers.js';

/** One parsed server-sent event. */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** Parses an event-stream body with `eventsource-parser` (a standard SSE parser). */
export function parseSse(text: string): { events: SseEvent[]; comments: string[] } {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (message) => events.push({ event: message.event, data: message.data }),
    onComment: (comment) => comments.push(comment),
  });
  parser.feed(text);
  return { events, comments };
}

/**
 * The advisor frames of a stream body, each checked against `AdvisorFrameSchema`, and the turn
 * invariant: exactly one `start` first and exactly one terminal frame (`done` or `error`) last.
 */
export function advisorFrames(text: string): AdvisorFrame[] {
  const { events } = parseSse(text);
  const frames = events.map((e) => {
    expect(e.event, 'advisor frames are unnamed events').toBeUndefined();
    return AdvisorFrameSchema.parse(JSON.parse(e.data));
  });
  expect(frames[0]?.type).toBe('start');
  expect(frames.filter((f) => f.type === 'start')).toHaveLength(1);
  const terminal = frames.filter((f) => f.type === 'done' || f.type === 'error');
  expect(terminal).toHaveLength(1);
  expect(frames.at(-1)).toBe(terminal[0]);
  return frames;
}

const NarrativeDone = z.strictObject({
  model: z.string().min(1),
  finishReason: z.string().min(1),
  complete: z.boolean(),
  _grounding: GroundingReportSchema,
  notes: z.array(z.string()),
});

/** A narrative stream: its markdown, and its `done` or `error` event, each checked against its schema. */
export function narrativeStream(text: string): {
  markdown: string;
  done?: z.infer<typeof NarrativeDone>;
  error?: ProblemDetails;
} {
  const { events } = parseSse(text);
  let markdown = '';
  const last = events.at(-1);
  for (const event of events.slice(0, -1)) {
    expect(event.event).toBeUndefined();
    const chunk: unknown = JSON.parse(event.data);
    expect(typeof chunk).toBe('string');
    markdown += chunk as string;
  }
  if (last?.event === 'done') return { markdown, done: NarrativeDone.parse(JSON.parse(last.data)) };
  expect(last?.event).toBe('error');
  return { markdown, error: ProblemDetails.parse(JSON.parse(last?.data ?? 'null')) };
}

/** A fake OpenAI-compatible server whose answers are queued by the test ({@link FakeModel.next}). */
export interface FakeModel {
  readonly server: FakeOpenAI;
  /** Queues the answers of the next chat-completions requests. */
  next(...turns: FakeTurn[]): void;
  /** Environment naming this server as the narrative and advisor endpoint. */
  readonly env: Record<string, string>;
}

/** Starts a {@link FakeModel}; unqueued requests get a 500. */
export async function startFakeModel(): Promise<FakeModel> {
  const queue: FakeTurn[] = [];
  const server = await startFakeOpenAI({
    script: () => queue.shift() ?? { status: 500, body: { error: { message: 'unscripted' } } },
  });
  return {
    server,
    next: (...turns) => queue.push(...turns),
    env: {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: 'sk-test',
      NARRATIVE_MODEL: 'fake-narrator',
      ADVISOR_MODEL: 'fake-advisor',
      // One retry, as a deployment has (default 2): the SDK retries a request whose pooled
      // keep-alive connection turns out closed, before any token.
      OPENAI_MAX_RETRIES: '1',
      OPENAI_IDLE_TIMEOUT_SECONDS: '3',
    },
  };
}

/** A minimal one-page PDF whose text is `text` (Helvetica, one text object). */
export function minimalPdf(text: string): Buffer {
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A file part of a multipart body. */
export interface FilePart {
  readonly name: string;
  readonly type: string;
  readonly data: Buffer | string;
}

/** A `multipart/form-data` body (built by the platform's FormData) for `inject`. */
export async function multipartBody(
  fields: Record<string, string>,
  files: readonly FilePart[],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append('files[]', new Blob([file.data], { type: file.type }), file.name);
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

/** Creates a portfolio through the REST API and records a buy in it; answers its id. */
export async function portfolioWith(
  app: FastifyInstance,
  cookie: string,
  name: string,
  buy: { symbol: string; quantity: string; price: string; currency: string },
): Promise<string> {
  const headers = { cookie, ...ORIGIN };
  const created = await app.inject({
    method: 'POST',
    url: '/api/portfolios',
    headers,
    payload: { name },
  });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  const tx = await app.inject({
    method: 'POST',
    url: `/api/portfolios/${id}/transactions`,
    headers,
    payload: { type: 'buy', ...buy, executedAt: '2024-01-02T15:00:00Z' },
  });
  expect(tx.statusCode).toBe(201);
  return id;
}
