import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { insufficientScope, missingScopes, type TokenCallRecord } from '@svc/use-cases';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type { McpPrincipal } from './bearer-guard.js';
import { buildMcpServer, toolRegistryOf } from './build-mcp-server.js';
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
import { DispatchTransport, plainRequest } from './dispatch-transport.js';
import { answerToolCall } from './tool-call.js';
import { MCP_METHOD_SCOPES } from './tool-catalog.js';
import type { ToolRegistry } from './tool-registry.js';

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
  /** The owner, id and scopes of the verified token (the guard's `principalOf`), or null. */
  readonly principalOf: (request: FastifyRequest) => McpPrincipal | null;
  /**
   * Records each tool call in its token's audit log (`createTokenActivity(...).record` of
   * `@svc/use-cases`), before the answer goes out; default none.
   */
  readonly audit?: (call: TokenCallRecord) => Promise<void>;
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

/** The verified token of a request (the guard's `principalOf`); a request without one is our bug. */
function principalOfRequest(options: McpPluginOptions, request: FastifyRequest): McpPrincipal {
  const principal = options.principalOf(request);
  if (principal === null) {
    throw new Error('the bearer guard let a request through without its owner');
  }
  return principal;
}

/**
 * An MCP server for a token's requests: its tools bound to the token's owner and scopes, each call
 * audited against that token, and failures mapped (and logged) through `requestOf()`, the
 * request it serves now.
 */
function tokenServer(
  options: McpPluginOptions,
  principal: McpPrincipal,
  requestOf: () => FastifyRequest,
): Server {
  const { user, tokenId, scopes } = principal;
  const { audit } = options;
  return buildMcpServer({
    services: options.services,
    actor: { id: user.id, plan: user.plan },
    scopes,
    ...(audit && { audit: (call) => audit({ ...call, tokenId, userId: user.id }) }),
    toProblem: (error) => options.toProblem(error, requestOf()),
    info: options.info ?? DEFAULT_SERVER_INFO,
  });
}

/** The MCP server of one request only (the SDK transport's path). */
function requestServer(options: McpPluginOptions, request: FastifyRequest): Server {
  return tokenServer(options, principalOfRequest(options, request), () => request);
}

/** A server of the common case with its in-process transport, serving one request at a time. */
interface PooledServer {
  readonly transport: DispatchTransport;
  /** The server's tools, for `tools/call` answered without the SDK's request machinery. */
  readonly tools: ToolRegistry;
  /** The request it serves now (its problems are logged through it); undefined while idle. */
  request: FastifyRequest | undefined;
}

/** Idle servers kept per token (owner, token id, plan and scopes); tokens kept, at most. */
const POOL_TOKENS = 256;
/** Idle servers kept per token: requests of one token at the same time beyond it build their own. */
const POOL_PER_TOKEN = 8;

/**
 * Servers of the common case, reused across the requests of one token, one request at a time:
 * building a server (its tools, resources and prompts registered, the SDK's handlers set) was
 * about a tenth of a tool call's CPU (issue 22). A server is bound to what the verified token
 * says (owner, plan, token id, scopes: the key), never to a request: the request it serves is
 * set when it is taken and cleared when it is given back, and no two requests share one at a
 * time. Revocation is unaffected: the bearer guard checks the token on every request before a
 * server is taken. Bounded: {@link POOL_TOKENS} tokens (the least recently used dropped), at
 * most {@link POOL_PER_TOKEN} idle servers each.
 */
class ServerPool {
  readonly #idle = new Map<string, PooledServer[]>();

  constructor(private readonly options: McpPluginOptions) {}

  /** An idle server of the request's token, or a new one; bound to `request` until {@link release}. */
  async take(request: FastifyRequest): Promise<{ key: string; pooled: PooledServer }> {
    const principal = principalOfRequest(this.options, request);
    const { user, tokenId, scopes } = principal;
    // ids, plan and scope names hold no space or NUL: the key cannot be read two ways
    const key = `${tokenId}\u0000${user.id}\u0000${user.plan}\u0000${scopes.join(' ')}`;
    const idle = this.#idle.get(key);
    const reused = idle?.pop();
    if (reused !== undefined) {
      reused.request = request;
      return { key, pooled: reused };
    }
    const bound: Pick<PooledServer, 'request'> = { request };
    const server = tokenServer(this.options, principal, () => {
      if (bound.request === undefined) throw new Error('an idle MCP server was called');
      return bound.request;
    });
    const tools = toolRegistryOf(server);
    if (tools === undefined) throw new Error('a pooled MCP server without its tool registry');
    const pooled: PooledServer = Object.assign(bound, {
      transport: new DispatchTransport(),
      tools,
    });
    await server.connect(pooled.transport);
    return { key, pooled };
  }

  /** Gives a server back once its answer is complete. */
  release(key: string, pooled: PooledServer): void {
    pooled.request = undefined;
    let idle = this.#idle.get(key);
    if (idle === undefined) {
      idle = [];
      if (this.#idle.size >= POOL_TOKENS) {
        const oldest = this.#idle.keys().next().value;
        if (oldest !== undefined) this.#idle.delete(oldest);
      }
    } else {
      this.#idle.delete(key); // moved to the end: the most recently used
    }
    this.#idle.set(key, idle);
    if (idle.length < POOL_PER_TOKEN) idle.push(pooled);
  }
}

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
  const server = requestServer(options, request);
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

/** The JSON-RPC methods of a request body (one message or a batch). */
function methodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) =>
    typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string'
      ? [(m as { method: string }).method]
      : [],
  );
}

/**
 * A `preHandler`: a request calling an MCP method of {@link MCP_METHOD_SCOPES} without its scopes
 * answers 403 `insufficient_scope` with the RFC 6750 challenge. Tool calls are checked per tool
 * instead, as tool errors an agent can read.
 */
function scopeCheck(options: McpPluginOptions) {
  return async (request: FastifyRequest) => {
    const scopes = options.principalOf(request)?.scopes ?? [];
    for (const method of methodsOf(request.body)) {
      const missing = missingScopes(scopes, MCP_METHOD_SCOPES[method] ?? []);
      if (missing.length > 0) {
        throw insufficientScope(missing, `the MCP method ${method}`, options.baseUrl);
      }
    }
  };
}

const mcpRoutes: FastifyPluginAsync<McpPluginOptions> = async (app, options) => {
  /**
   * One POST, two ways. The common case ({@link plainRequest}) is answered by a server of the
   * token's ({@link ServerPool}): a `tools/call` by its tool registry directly
   * ({@link answerToolCall}: the call goes down once, registry → tool → flow), any other method
   * through a {@link DispatchTransport}, with the JSON the SDK's transport writes (status 200,
   * `Content-Type: application/json`), without a web `Request`/`Response` pair and its
   * conversions. The second way, {@link serveMcpRequest} (the SDK's own HTTP transport on a server
   * of the request's), earns its place for everything whose answer the SDK must shape itself:
   * `initialize`, notifications, batches, bad headers or messages. Both end in the same registry.
   */
  const pool = new ServerPool(options);
  const serve = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const message = plainRequest(request);
    if (message === null) return serveMcpRequest(options, request, reply);
    const { key, pooled } = await pool.take(request);
    const body =
      (await answerToolCall(pooled.tools, message)) ??
      Buffer.from(
        JSON.stringify(
          await pooled.transport.dispatch(message, {
            requestInfo: {
              headers: request.headers as Record<string, string | string[] | undefined>,
            },
          }),
        ),
      );
    pool.release(key, pooled);
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
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
              `mcp:${options.principalOf(request)?.user.id ?? request.ip}`,
          },
        };

  app.get(MCP_DISCOVERY_PATH, { schema: HIDDEN }, async () => discovery);

  app.post(MCP_ENDPOINT_PATH, {
    schema: HIDDEN,
    config: rateLimit,
    onRequest: options.guard,
    preHandler: scopeCheck(options),
    handler: serve,
  });
  // GET and DELETE (no SSE stream nor session on a stateless server), like every other method
  // the endpoint does not have, answer the app's one 405 `method_not_allowed` with `Allow: POST`
  // (issue 41: a route of their own named a different Allow set than PUT or PATCH got).
};

/**
 * The MCP server as a Fastify plugin (interface spec 4.5, CONTRACT §4):
 * - `POST /api/mcp/user/mcp`: streamable HTTP (JSON-RPC), stateless, behind `options.guard`
 *   (a missing, unknown, revoked or expired personal access token answers HTTP 401 with
 *   `WWW-Authenticate: Bearer` before any MCP handling; a method of {@link MCP_METHOD_SCOPES}
 *   without its scopes answers 403 `insufficient_scope`; each tool call is recorded with
 *   `options.audit`);
 * - any other method on `/api/mcp/user/mcp` (GET, DELETE: no SSE stream nor session to end on a
 *   stateless server): the app's 405 `method_not_allowed` with `Allow: POST`;
 * - `GET /.well-known/mcp.json`: the public discovery document ({@link mcpDiscovery}).
 * The routes are hidden from OpenAPI (`schema.hide`): MCP is described by `tools/list` and the
 * discovery document instead.
 *
 * @example
 * await app.register(mcpPlugin, {
 *   services, toProblem, baseUrl, accountUrl,
 *   guard: pat.guard,
 *   principalOf: pat.principalOf,
 *   audit: activity.record,
 * });
 */
export const mcpPlugin = fp(mcpRoutes, { name: 'svc-mcp', fastify: '5.x' });
