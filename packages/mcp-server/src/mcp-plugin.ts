import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { insufficientScope, missingScopes, type TokenCallRecord } from '@svc/use-cases';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type { McpPrincipal } from './bearer-guard.js';
import { buildMcpServer, buildToolRegistry, type ToolRegistryDeps } from './build-mcp-server.js';
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
import { TokenTools } from './token-tools.js';
import { answerToolCall, plainToolCall } from './tool-call.js';
import { MCP_METHOD_SCOPES } from './tool-catalog.js';

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

/** The caller of a request's tools: the verified token's owner and scopes, audited against it. */
function callerOf(options: McpPluginOptions, principal: McpPrincipal): ToolRegistryDeps {
  const { user, tokenId, scopes } = principal;
  const { audit } = options;
  return {
    services: options.services,
    actor: { id: user.id, plan: user.plan },
    scopes,
    ...(audit && { audit: (call) => audit({ ...call, tokenId, userId: user.id }) }),
  };
}

/**
 * Serves one JSON-RPC POST that is not a plain `tools/call` (see {@link plainToolCall}) the SDK's
 * way: a server of this request's own ({@link buildMcpServer}: the token's tools, failures
 * mapped and logged through this request) and a `StreamableHTTPServerTransport` (stateless,
 * `sessionIdGenerator: undefined`, JSON responses), over the raw Node request and response
 * (`reply.hijack()`), both closed when the response closes.
 */
async function serveMcpRequest(
  options: McpPluginOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { server } = buildMcpServer({
    ...callerOf(options, principalOfRequest(options, request)),
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
   * One POST, one fast path and the SDK for the rest. A plain `tools/call` ({@link plainToolCall})
   * is answered by the token's tool registry directly ({@link TokenTools},
   * {@link answerToolCall}: registry → tool → flow, the arguments parsed once by the tool's
   * schema), its failures mapped through this request (`options.toProblem(error, request)`,
   * passed with the call). Everything else (`initialize`, `tools/list`, resources, prompts,
   * notifications, batches, an unknown tool, bad headers or messages) is the SDK's own:
   * {@link serveMcpRequest}. Both end in the same registry code.
   */
  const tokenTools = new TokenTools((principal) => buildToolRegistry(callerOf(options, principal)));
  const serve = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const call = plainToolCall(request);
    const tools = call && tokenTools.of(principalOfRequest(options, request));
    const body =
      call && tools && (await answerToolCall(tools, call, (e) => options.toProblem(e, request)));
    if (!body) return serveMcpRequest(options, request, reply);
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
