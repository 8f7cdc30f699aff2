import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DEFAULT_SERVER_INFO, type McpServerDeps } from './deps.js';
import { ToolRegistry } from './tool-registry.js';
import { registerMoatTools } from './tools/moat-tools.js';
import { registerPerformanceTool, registerPortfolioTools } from './tools/portfolio-tools.js';

/**
 * Builds the MCP server for ONE request of one user (stateless: the HTTP plugin builds a new
 * server and transport per request, while the flows in `deps.services` are created once per
 * process). Registers the 8 tools of interface spec 4.5, each with a title, a description, a zod
 * `inputSchema` (when it takes input), an `outputSchema` and annotations, listed as portable JSON
 * Schema; results carry `structuredContent` plus the same JSON as text; failures (arguments that
 * do not match the input schema included) answer `isError: true` with the problem object of
 * `deps.toProblem` as JSON text only (see {@link ToolRegistry}).
 *
 * @example
 * const server = buildMcpServer({ services, actor: { id: user.id, plan: user.plan }, toProblem });
 * await server.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
 */
export function buildMcpServer(deps: McpServerDeps): Server {
  const tools = new ToolRegistry(deps.info ?? DEFAULT_SERVER_INFO, deps.toProblem);
  registerPortfolioTools(tools, deps);
  registerMoatTools(tools, deps);
  registerPerformanceTool(tools, deps);
  return tools.server;
}
