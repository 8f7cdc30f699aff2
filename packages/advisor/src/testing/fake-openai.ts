import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One step of a scripted stream:
 * - `{ chunk }`: one `data: <JSON>` event (any object: a `chat.completion.chunk`, a chunk with no
 *   `choices`, an `{ error: … }` object, `null`…);
 * - `{ raw }`: text written as is (e.g. `': comment\n\n'` or a malformed line);
 * - `{ delayMs }`: wait before the next step (slow chunks, idle timeouts);
 * - `{ drop: true }`: destroy the socket at once (a dropped connection, no `[DONE]`);
 * - `{ hang: true }`: send nothing more and keep the connection open until the client leaves.
 */
export type FakeStep =
  | { chunk: unknown }
  | { raw: string }
  | { delayMs: number }
  | { drop: true }
  | { hang: true };

/**
 * What the fake server answers to one `/v1/chat/completions` request:
 * - `{ replay, delayMs? }`: a recorded stream file. `*.sse` is sent byte for byte; any other file
 *   (`*.chunks.txt`) holds one JSON chunk per line and is sent as `data: <line>` events closed by
 *   `data: [DONE]`. A relative path resolves against `recordingsDir`. `delayMs` waits between events.
 * - `{ steps, done? }`: a scripted SSE stream (see {@link FakeStep}); `data: [DONE]` is appended
 *   unless `done` is `false` or a step dropped or hung the connection.
 * - `{ status, body?, headers? }`: an HTTP error answer (JSON body, default
 *   `{ error: { message, type } }`). Unless `headers` says otherwise it carries
 *   `retry-after-ms: 5`, so SDK retries in tests do not wait seconds.
 * - `{ json }`: a non-streaming answer (a `chat.completion` object), status 200.
 */
export type FakeTurn =
  | { replay: string; delayMs?: number }
  | { steps: FakeStep[]; done?: boolean }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { json: unknown };

/** A request the fake server received (any path). */
export interface RecordedRequest {
  /** Request path, e.g. `/v1/chat/completions`. */
  path: string;
  /** The parsed JSON body (or the raw text when it was not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary fields of the body.
  body: any;
  /** Request headers, lower-case names (multi-valued ones joined with `, `). */
  headers: Record<string, string>;
}

/** Options of {@link startFakeOpenAI}. */
export interface FakeOpenAIOptions {
  /**
   * The answers, by chat-completions request: an array (request `i` gets `script[i]`; past the end,
   * a 500 error naming the overrun) or a function of the recorded request and its 0-based index.
   */
  script: FakeTurn[] | ((request: RecordedRequest, index: number) => FakeTurn);
  /** Base directory of relative `replay` paths (default: `process.cwd()`). */
  recordingsDir?: string;
}

/** A running fake server; see {@link startFakeOpenAI}. */
export interface FakeOpenAI {
  /** Base URL for the `openai` client, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Every request received, in order (chat completions and any other path). */
  requests: RecordedRequest[];
  /** Responses the client closed before the server finished them (aborts, disconnects). */
  readonly closedConnections: number;
  /**
   * Resolves once `closedConnections` reaches `count` (default 1); rejects after `timeoutMs`
   * (default 5000). Use it after an abort: the close reaches the server asynchronously.
   */
  waitForClosedConnections(count?: number, timeoutMs?: number): Promise<void>;
  /** Stops listening and destroys open connections. */
  close(): Promise<void>;
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The SSE events of a recorded file (see {@link FakeTurn} `replay`). */
async function recordedEvents(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  if (file.endsWith('.sse')) return [text];
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return [...lines.map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'];
}

/** Responses the server itself dropped: their close is not the client's doing. */
const dropped = new WeakSet<ServerResponse>();

function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
}

/** Writes `text` and waits for it to drain; false when the client is gone. */
async function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  if (!res.write(text)) {
    await new Promise<void>((done) => {
      const settle = () => {
        res.off('drain', settle);
        res.off('close', settle);
        done();
      };
      res.once('drain', settle);
      res.once('close', settle);
    });
  }
  return !res.destroyed;
}

/** Runs scripted steps; returns how the stream ended. */
async function runSteps(
  res: ServerResponse,
  steps: FakeStep[],
  gone: Promise<void>,
): Promise<'open' | 'dropped' | 'hung' | 'gone'> {
  for (const step of steps) {
    if ('delayMs' in step) {
      await Promise.race([sleep(step.delayMs), gone]);
      if (res.destroyed) return 'gone';
    } else if ('drop' in step) {
      dropped.add(res);
      // Let what was written reach the client first, then cut the connection (no [DONE]).
      for (let n = 0; n < 100 && (res.socket?.writableLength ?? 0) > 0; n += 1) await sleep(1);
      await sleep(5);
      res.socket?.destroy();
      return 'dropped';
    } else if ('hang' in step) {
      await gone;
      return 'hung';
    } else {
      const text = 'raw' in step ? step.raw : `data: ${JSON.stringify(step.chunk)}\n\n`;
      if (!(await write(res, text))) return 'gone';
    }
  }
  return 'open';
}

function sendError(
  res: ServerResponse,
  turn: { status: number; body?: unknown; headers?: Record<string, string> },
): void {
  const body = turn.body ?? {
    error: { message: `fake upstream error ${turn.status}`, type: 'server_error' },
  };
  res.writeHead(turn.status, {
    'content-type': 'application/json',
    'retry-after-ms': '5',
    ...turn.headers,
  });
  res.end(JSON.stringify(body));
}

async function answer(
  res: ServerResponse,
  turn: FakeTurn,
  recordingsDir: string,
  gone: Promise<void>,
): Promise<void> {
  if ('status' in turn) return sendError(res, turn);
  if ('json' in turn) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(turn.json));
    return;
  }
  startStream(res);
  if ('replay' in turn) {
    const events = await recordedEvents(resolve(recordingsDir, turn.replay));
    for (const event of events) {
      if (turn.delayMs) await Promise.race([sleep(turn.delayMs), gone]);
      if (!(await write(res, event))) return;
    }
    res.end();
    return;
  }
  const ending = await runSteps(res, turn.steps, gone);
  if (ending !== 'open') return;
  if (turn.done !== false) await write(res, 'data: [DONE]\n\n');
  res.end();
}

/**
 * Starts an OpenAI-compatible chat-completions server on loopback (`127.0.0.1`, a free port) for
 * tests: `POST /v1/chat/completions` answers from `script` (recorded streams from
 * `../shared/data/openai`, scripted chunks, HTTP errors, non-streaming answers); any other path
 * answers 404. It records every request (body and headers) and counts the responses that the client
 * closed before the end (an aborted `openai` request shows up here). Point the real `openai` client
 * at `url`.
 *
 * @example
 * const fake = await startFakeOpenAI({ script: [{ steps: [textChunk('Hello')] }] });
 * const client = new OpenAI({ baseURL: fake.url, apiKey: 'test', maxRetries: 0 });
 * // … run the code under test …
 * expect(fake.requests[0].body.model).toBe('test-model');
 * await fake.close();
 */
export async function startFakeOpenAI(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const recordingsDir = options.recordingsDir ?? process.cwd();
  let chatIndex = 0;
  let closedConnections = 0;
  const closeWaiters = new Set<() => void>();

  const pick = (request: RecordedRequest, index: number): FakeTurn => {
    const { script } = options;
    if (typeof script === 'function') return script(request, index);
    return (
      script[index] ?? {
        status: 500,
        body: { error: { message: `fake server: no turn scripted for request ${index}` } },
        headers: { 'x-should-retry': 'false' },
      }
    );
  };

  const server = createServer(async (req, res) => {
    const request: RecordedRequest = {
      path: req.url ?? '/',
      body: await readBody(req),
      headers: headerRecord(req),
    };
    requests.push(request);
    const gone = new Promise<void>((done) => {
      res.on('close', () => {
        if (!dropped.has(res) && !res.writableFinished) {
          closedConnections += 1;
          for (const wake of closeWaiters) wake();
        }
        done();
      });
    });
    if (req.method !== 'POST' || !request.path.startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${request.path}` } }));
      return;
    }
    const turn = pick(request, chatIndex++);
    try {
      await answer(res, turn, recordingsDir, gone);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    }
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get closedConnections() {
      return closedConnections;
    },
    waitForClosedConnections(count = 1, timeoutMs = 5000) {
      return new Promise<void>((done, fail) => {
        const check = () => {
          if (closedConnections < count) return;
          closeWaiters.delete(check);
          clearTimeout(timer);
          done();
        };
        const timer = setTimeout(() => {
          closeWaiters.delete(check);
          fail(new Error(`expected ${count} closed connections, saw ${closedConnections}`));
        }, timeoutMs);
        closeWaiters.add(check);
        check();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((done, fail) => server.close((e) => (e ? fail(e) : done())));
    },
  };
}
