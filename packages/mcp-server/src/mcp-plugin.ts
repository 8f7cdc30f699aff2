import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  JSONRPCRequestSchema,
  type MessageExtraInfo,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '@svc/use-cases';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { buildMcpServer } from './build-mcp-server.js';
import {
  DEFAULT_SERVER_INFO,
  type McpServerInfo,
  type McpServices,
  type ProblemMapper,
} from './deps.js';
import {
  type DiscoveryAddresses,
  MCP_DISCOVERY_PATH,
  MCP_ENDPOINT_PATH,
  mcpDiscovery,
} from './discovery.js';

/** An `onRequest` hook that answers 401 (with `WWW-Authenticate: Bearer`) for a bad token. */
export type BearerGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Options of {@link mcpPlugin}. */
export interface McpPluginOptions extends DiscoveryAddresses {
  /** The flows, created once per process (see {@link McpServices}). */
  readonly services: McpServices;
  /**
   * The app's error mapping, applied to every failed tool call; it also gets the HTTP request
   * that carried the call, so that what it logs carries the request id (`request.log`).
   */
  readonly toProblem: (
    ...args: [...Parameters<ProblemMapper>, request: FastifyRequest]
  ) => ReturnType<ProblemMapper>;
  /**
   * The personal access token check, run before the handler (apps/api:
   * `app.requirePersonalAccessToken`); it must throw (401) or leave the owner for `actorOf`.
   */
  readonly guard: BearerGuard;
  /** The owner of the verified token (apps/api: `request.tokenUser`), or null. */
  readonly actorOf: (request: FastifyRequest) => Actor | null;
  /** Requests per minute per token owner on the MCP endpoint; default no limit of its own. */
  readonly rateLimitPerMinute?: number;
  /** Server name and version; default {@link DEFAULT_SERVER_INFO}. */
  readonly info?: McpServerInfo;
}

/**
 * Hides a route from the OpenAPI document (`hide` is read by `@fastify/swagger`, which this
 * package does not depend on, hence the cast).
 */
const HIDDEN = { hide: true } as FastifySchema;

/** JSON-RPC answer of GET/DELETE: a stateless server has no stream to resume nor session to end. */
const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this stateless server accepts POST only.' },
  id: null,
};

/**
 * Serves one JSON-RPC POST that is not the common case (see `plainRequest`): a new server and
 * transport for this request only (stateless,
 * `sessionIdGenerator: undefined`, JSON responses), over the raw Node request and response
 * (`reply.hijack()`), closed when the response closes.
 */
async function serveMcpRequest(
  options: McpPluginOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const actor = options.actorOf(request);
  if (actor === null) throw new Error('the bearer guard let a request through without its owner');
  const server = buildMcpServer({
    services: options.services,
    actor: { id: actor.id, plan: actor.plan },
    toProblem: (error) => options.toProblem(error, request),
    info: options.info ?? DEFAULT_SERVER_INFO,
  });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP request failed');
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { 'content-type': 'application/json' });
      reply.raw.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32603, message: 'Internal server error' },
          id: null,
        }),
      );
    }
  }
}

/**
 * An in-process MCP transport: each call of {@link dispatch} hands the server one JSON-RPC
 * request under an id of its own, and answers the server's response with the caller's id
 * restored. Messages the server sends that answer no dispatched request (notifications of a
 * tool) are dropped, as the SDK's transport does in JSON-response mode.
 */
class DispatchTransport implements Transport {
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
function plainRequest(request: FastifyRequest): JSONRPCRequest | null {
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

const mcpRoutes: FastifyPluginAsync<McpPluginOptions> = async (app, options) => {
  /**
   * Serves the common case ({@link plainRequest}): the request's server, connected to a
   * {@link DispatchTransport} instead of the SDK's HTTP transport, answers the JSON the SDK's
   * transport writes for it (status 200, `Content-Type: application/json`, the JSON-RPC
   * response), without a web `Request`/`Response` pair and its conversions from and to Node's.
   * The server is built per request as before (its tools are bound to the token's owner and
   * its problems logged through this request) and left to the garbage collector: closing it
   * would only build a "connection closed" error for requests it has none of. Everything else
   * goes to {@link serveMcpRequest}.
   */
  const serve = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const message = plainRequest(request);
    const actor = options.actorOf(request);
    if (message === null || actor === null) return serveMcpRequest(options, request, reply);
    const server = buildMcpServer({
      services: options.services,
      actor: { id: actor.id, plan: actor.plan },
      toProblem: (error) => options.toProblem(error, request),
      info: options.info ?? DEFAULT_SERVER_INFO,
    });
    const transport = new DispatchTransport();
    await server.connect(transport);
    const answer = await transport.dispatch(message, {
      requestInfo: { headers: request.headers as Record<string, string | string[] | undefined> },
    });
    const body = JSON.stringify(answer);
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    reply.raw.end(body);
  };

  const info = options.info ?? DEFAULT_SERVER_INFO;
  const discovery = mcpDiscovery(options, info);
  const rateLimit =
    options.rateLimitPerMinute === undefined
      ? {}
      : {
          rateLimit: {
            max: options.rateLimitPerMinute,
            timeWindow: 60_000,
            keyGenerator: (request: FastifyRequest) =>
              `mcp:${options.actorOf(request)?.id ?? request.ip}`,
          },
        };

  app.get(MCP_DISCOVERY_PATH, { schema: HIDDEN }, async () => discovery);

  app.post(MCP_ENDPOINT_PATH, {
    schema: HIDDEN,
    config: rateLimit,
    onRequest: options.guard,
    handler: serve,
  });

  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_ENDPOINT_PATH,
    schema: HIDDEN,
    onRequest: options.guard,
    handler: async (_request, reply) =>
      reply.code(405).header('allow', 'POST').send(METHOD_NOT_ALLOWED),
  });
};

/**
 * The MCP server as a Fastify plugin (interface spec 4.5, CONTRACT §4):
 * - `POST /api/mcp/user/mcp`: streamable HTTP (JSON-RPC), stateless, behind `options.guard`
 *   (a missing, unknown, revoked or expired personal access token answers HTTP 401 with
 *   `WWW-Authenticate: Bearer` before any MCP handling);
 * - `GET` / `DELETE /api/mcp/user/mcp`: 405 with `Allow: POST` (no SSE stream nor session to
 *   end on a stateless server);
 * - `GET /.well-known/mcp.json`: the public discovery document ({@link mcpDiscovery}).
 * The routes are hidden from OpenAPI (`schema.hide`): MCP is described by `tools/list` and the
 * discovery document instead.
 *
 * @example
 * await app.register(mcpPlugin, {
 *   services, toProblem, baseUrl, accountUrl,
 *   guard: app.requirePersonalAccessToken,
 *   actorOf: (request) => request.tokenUser,
 * });
 */
export const mcpPlugin = fp(mcpRoutes, { name: 'svc-mcp', fastify: '5.x' });
