import { type TokenScope, type ToolDefinition, type ToolNameOn, toolsOn } from '@svc/use-cases';

/**
 * Names of the MCP tools, in `tools/list` order: the tools whose definition (`@svc/use-cases`
 * `src/tools/`) names the `mcp` surface. Today the 8 of interface spec 4.5, then the
 * evaluation-history tools of issue 21 and `getPortfolioPerformance` (issue 20).
 */
export const MCP_TOOL_NAMES = toolsOn('mcp').map((tool) => tool.name as McpToolName);

/** One of {@link MCP_TOOL_NAMES}. */
export type McpToolName = ToolNameOn<'mcp'>;

/**
 * Title, description and required scopes of a tool, as `tools/list` and the discovery document
 * show them (taken from its definition). A token without every scope of `scopes` does not see
 * the tool in `tools/list`, and calling it answers an `insufficient_scope` tool error. Spending
 * a quota inside a call needs the quota's scope besides (`QUOTA_SCOPES` of `@svc/use-cases`:
 * `moat:fresh` for `stock_evaluation`, `ai:consult` for `ai_consult`), checked where the quota
 * is spent.
 */
export type McpToolText = Pick<ToolDefinition, 'title' | 'description' | 'scopes'>;

/**
 * Scopes of MCP methods other than `tools/*`, checked at the HTTP layer: a request that calls one
 * without them answers 403 `insufficient_scope` with `WWW-Authenticate: Bearer
 * error="insufficient_scope", scope="…"` (RFC 6750 §3.1) before any MCP handling. Resources are
 * saved reports and cached evaluations: `moat:read`.
 */
export const MCP_METHOD_SCOPES: Readonly<Record<string, readonly TokenScope[]>> = {
  'resources/list': ['moat:read'],
  'resources/templates/list': ['moat:read'],
  'resources/read': ['moat:read'],
};

/**
 * Title, description and scopes of every MCP tool, read from the definitions: the text
 * `tools/list` shows and the `tools` of `/.well-known/mcp.json`, so the two never disagree.
 */
export const MCP_TOOLS = Object.fromEntries(
  toolsOn('mcp').map(({ name, title, description, scopes }) => [
    name,
    { title, description, scopes },
  ]),
) as Readonly<Record<McpToolName, McpToolText>>;
