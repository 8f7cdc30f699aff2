import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { trackEventStream } from '../plugins/external/metrics.js';

/** An open `text/event-stream` response. */
export interface EventStream {
  /** Aborted when the client goes away before the stream ended (abort the model request). */
  readonly signal: AbortSignal;
  /**
   * Writes one event (`event:` line when named, one `data:` line per line of `data`) and waits
   * for `drain` when the socket's buffer is full, so a slow client slows the model read loop.
   * Does nothing once the client is gone.
   */
  send(data: string, event?: string): Promise<void>;
  /** Ends the response (idempotent). */
  end(): void;
}

/** The last event of a stream that the server ends because it shuts down (see {@link endOpenStreams}). */
export interface ShutdownEvent {
  readonly data: string;
  readonly event?: string;
}

interface OpenStream {
  shutdown(): void;
}

/** The event streams open on each server (the root instance), for a graceful shutdown. */
const openStreams = new WeakMap<object, Set<OpenStream>>();

function streamsOf(server: FastifyInstance): Set<OpenStream> {
  let set = openStreams.get(server.server);
  if (!set) {
    set = new Set();
    openStreams.set(server.server, set);
  }
  return set;
}

/**
 * Ends every event stream still open on `server` with its terminal shutdown event (written as
 * the stream's last event, so the client reads "retry" rather than a cut connection) and aborts
 * the model request behind it. Answers how many streams were ended.
 */
export function endOpenStreams(server: FastifyInstance): number {
  const streams = [...streamsOf(server)];
  for (const stream of streams) stream.shutdown();
  return streams.length;
}

/** Options of {@link openEventStream}. */
export interface EventStreamOptions {
  /** A comment line (`: heartbeat`) is written after this many ms without an event. */
  readonly heartbeatMs: number;
  /** Aborted with {@link EventStream.signal}; pass one created before the stream opened. */
  readonly controller?: AbortController;
  /** The stream's last event when the server ends it on shutdown ({@link endOpenStreams}). */
  readonly shutdownEvent: ShutdownEvent;
}

/** The event-stream headers (research/ai-anchors.md §4: also `X-Accel-Buffering: no` for nginx). */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

function formatEvent(data: string, event: string | undefined): string {
  const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`);
  return `${event === undefined ? '' : `event: ${event}\n`}${lines.join('')}\n`;
}

/**
 * Takes the response over from Fastify (`reply.hijack()`, required before writing to
 * `reply.raw`), writes status 200 with the event-stream headers plus those already set on the
 * reply (rate-limit headers…), and flushes them at once.
 *
 * Disconnects are seen on the RESPONSE (`reply.raw` `'close'` while not `writableFinished`): on a
 * POST the request's own `'close'` fires when its body has been read (research §4), not when the
 * client leaves.
 *
 * @example
 * const stream = openEventStream(reply, { heartbeatMs: 15_000 });
 * await stream.send(JSON.stringify({ type: 'start' }));
 * stream.end();
 */
export function openEventStream(reply: FastifyReply, options: EventStreamOptions): EventStream {
  const controller = options.controller ?? new AbortController();
  const raw: ServerResponse = reply.raw;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  reply.hijack();
  trackEventStream(reply);
  raw.writeHead(200, { ...headers, ...STREAM_HEADERS });
  raw.flushHeaders();

  let ended = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const live = () => !ended && !raw.destroyed && !raw.writableEnded;
  const arm = () => {
    clearTimeout(heartbeat);
    heartbeat = setTimeout(() => {
      if (!live()) return;
      raw.write(': heartbeat\n\n');
      arm();
    }, options.heartbeatMs);
  };
  const registry = streamsOf(reply.server);
  const open: OpenStream = {
    shutdown() {
      if (live()) raw.write(formatEvent(options.shutdownEvent.data, options.shutdownEvent.event));
      ended = true;
      clearTimeout(heartbeat);
      controller.abort();
      if (!raw.writableEnded) raw.end();
    },
  };
  registry.add(open);
  raw.on('close', () => {
    registry.delete(open);
    clearTimeout(heartbeat);
    if (!raw.writableFinished) controller.abort();
  });
  arm();

  return {
    signal: controller.signal,
    async send(data, event) {
      if (!live()) return;
      arm();
      if (raw.write(formatEvent(data, event))) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          raw.off('drain', done);
          raw.off('close', done);
          resolve();
        };
        raw.on('drain', done);
        raw.on('close', done);
      });
    },
    end() {
      if (ended) return;
      ended = true;
      clearTimeout(heartbeat);
      if (!raw.writableEnded) raw.end();
    },
  };
}
