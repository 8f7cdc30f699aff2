export {
  bearerToken,
  createPersonalAccessTokenGuard,
  type McpPrincipal,
  type PersonalAccessTokenGuard,
} from './bearer-guard.js';
export { type BuiltMcpServer, buildMcpServer } from './build-mcp-server.js';
export {
  DEFAULT_SERVER_INFO,
  type McpCallAudit,
  type McpProblem,
  type McpServerDeps,
  type McpServerInfo,
  type McpServices,
  type ProblemMapper,
} from './deps.js';
export {
  type DiscoveryAddresses,
  MCP_DISCOVERY_PATH,
  MCP_ENDPOINT_PATH,
  type McpDiscovery,
  mcpDiscovery,
} from './discovery.js';
export { type BearerGuard, type McpPluginOptions, mcpPlugin } from './mcp-plugin.js';
export {
  MCP_METHOD_SCOPES,
  MCP_TOOL_NAMES,
  MCP_TOOLS,
  type McpToolName,
  type McpToolText,
} from './tool-catalog.js';
export { problemResult, toolResult } from './tool-result.js';
