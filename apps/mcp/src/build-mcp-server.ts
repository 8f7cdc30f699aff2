import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_SERVER_INFO, type McpServerDeps } from './deps.js';
import { registerMoatTools } from './tools/moat-tools.js';
import { registerPortfolioTools } from './tools/portfolio-tools.js';

/**
 * Builds the MCP server for ONE request of one user (stateless: the HTTP plugin builds a new
 * server and transport per request, while the flows in `deps.services` are created once per
 * process). Registers the 8 tools of interface spec 4.5, each with a title, a description, a zod
 * `inputSchema` (when it takes input), an `outputSchema` and annotations; results carry
 * `structuredContent` plus the same JSON as text, failures `isError: true` with the problem
 * object of `deps.toProblem`.
 *
 * @example
 * const server = buildMcpServer({ services, actor: { id: user.id, plan: user.plan }, toProblem });
 * await server.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
 */
export function buildMcpServer(deps: McpServerDeps): McpServer {
  const info = deps.info ?? DEFAULT_SERVER_INFO;
  const server = new McpServer(
    { name: info.name, version: info.version },
    { capabilities: { tools: {} } },
  );
  registerPortfolioTools(server, deps);
  registerMoatTools(server, deps);
  return server;
}
