import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  JSONRPCRequestSchema,
  type MessageExtraInfo,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';

/**
 * An in-process MCP transport: each call of {@link dispatch} hands the server one JSON-RPC
 * request under an id of its own, and answers the server's response with the caller's id
 * restored. Messages the server sends that answer no dispatched request (notifications of a
 * tool) are dropped, as the SDK's transport does in JSON-response mode.
 */
export class DispatchTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly pending = new Map<number, (message: JSONRPCMessage) => void>();

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message || typeof message.id !== 'number') return;
    const answer = this.pending.get(message.id);
    if (answer === undefined) return;
    this.pending.delete(message.id);
    answer(message);
  }

  async close(): Promise<void> {
    this.pending.clear();
    this.onclose?.();
  }

  /** The server's answer to `request` (its JSON-RPC response or error, with `request.id`). */
  dispatch(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, (message) => resolve({ ...message, id: request.id } as JSONRPCMessage));
      this.onmessage?.({ ...request, id }, extra);
    });
  }
}

/** Whether a `Content-Type` is JSON by its media type (`application/json; charset=utf-8` is). */
const isJson = (contentType: string | undefined) =>
  contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';

/**
 * The request, when it is the common case the SDK's transport would answer with one JSON
 * response and nothing else: a single JSON-RPC request (not a batch, not a notification, not
 * `initialize`), `Accept` listing both `application/json` and `text/event-stream`, a JSON
 * `Content-Type`, and no `MCP-Protocol-Version` or a supported one. Anything else (every case
 * that answers 202, 4xx or a batch) is left to the SDK's transport, so its answers and errors stay
 * exactly the SDK's.
 */
export function plainRequest(request: FastifyRequest): JSONRPCRequest | null {
  const accept = request.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (!isJson(request.headers['content-type'])) return null;
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return null;
  const body = request.body as { method?: unknown } | null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  if (body.method === 'initialize') return null;
  const parsed = JSONRPCRequestSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}
