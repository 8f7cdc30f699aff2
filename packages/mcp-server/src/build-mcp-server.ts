import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DEFAULT_SERVER_INFO, type McpServerDeps } from './deps.js';
import { registerMoatPrompts } from './prompts/moat-prompts.js';
import { registerMoatCardApp } from './resources/moat-card-app.js';
import { registerMoatResources } from './resources/moat-resources.js';
import { ToolRegistry } from './tool-registry.js';
import { registerTools } from './tools/register-tools.js';

/**
 * Builds an MCP server for one token of one user (its owner, scopes and audit; the flows in
 * `deps.services` are created once per process and shared). The HTTP plugin keeps such servers
 * in a pool per token for the common requests and builds one for the request otherwise (see
 * `mcpPlugin`). Registers the tools of the `mcp` surface from their one definition each
 * (`toolsOn('mcp')` of `@svc/use-cases`: the 8 of interface spec 4.5, the evaluation-history
 * tools, `getPortfolioPerformance`), each with a title, a description, a zod input schema, an
 * output schema and annotations, listed as portable JSON
 * Schema; results carry `structuredContent` plus the same JSON as text; failures (arguments that
 * do not match the input schema included) answer `isError: true` with the problem object of
 * `deps.toProblem` as JSON text only (see {@link ToolRegistry}). `tools/list` shows only the tools
 * `deps.scopes` allow; a call outside them answers `insufficient_scope`; each call is recorded
 * with `deps.audit` before it is answered. Also the resources (the user's
 * saved reports and the cached evaluations, JSON and markdown) and the prompts
 * (`evaluateCompany`, `reviewPortfolioMoats`, `explainCriterion`) through the SDK's `McpServer`,
 * which advertises the `resources`, `prompts` and `completions` capabilities; and the moat card,
 * the MCP App that `getMoatEvaluation` names for hosts that show apps ({@link registerMoatCardApp}).
 *
 * @example
 * const server = buildMcpServer({ services, actor: { id: user.id, plan: user.plan }, toProblem });
 * await server.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
 */
export function buildMcpServer(mcpDeps: McpServerDeps): Server {
  const tools = new ToolRegistry(mcpDeps.info ?? DEFAULT_SERVER_INFO, mcpDeps.toProblem, {
    scopes: mcpDeps.scopes,
    audit: mcpDeps.audit,
  });
  registerTools(tools, mcpDeps);
  registerMoatResources(tools, mcpDeps);
  registerMoatCardApp(tools);
  registerMoatPrompts(tools, mcpDeps);
  registries.set(tools.server, tools);
  return tools.server;
}

/** The tool registry of each server {@link buildMcpServer} made. */
const registries = new WeakMap<Server, ToolRegistry>();

/** The tool registry behind a server of {@link buildMcpServer} (undefined for any other server). */
export function toolRegistryOf(server: Server): ToolRegistry | undefined {
  return registries.get(server);
}
