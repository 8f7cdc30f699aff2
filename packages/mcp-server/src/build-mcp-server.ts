import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { toolsOn } from '@svc/use-cases';
import { DEFAULT_SERVER_INFO, type McpServerDeps } from './deps.js';
import { registerMoatPrompts } from './prompts/moat-prompts.js';
import { CARD_TOOL_META, registerMoatCardApp } from './resources/moat-card-app.js';
import { registerMoatResources } from './resources/moat-resources.js';
import { ToolRegistry } from './tool-registry.js';

/** What {@link buildToolRegistry} needs: the flows and the caller, no error mapping. */
export type ToolRegistryDeps = Pick<McpServerDeps, 'services' | 'actor' | 'scopes' | 'audit'>;

/**
 * The tools of one caller (see {@link ToolRegistry}): every tool offered on the `mcp` surface
 * (`toolsOn('mcp')` of `@svc/use-cases`, in catalogue order: interface spec 4.5's eight, the
 * evaluation-history tools of issue 21, `getPortfolioPerformance` of issue 20, …), each one flow
 * call for the token's user (`tool.run(services, actor, args, call)`, the call's token call
 * passed down as an argument), and the moat card named in `getMoatEvaluation`'s `_meta`. A new
 * tool is a definition in `@svc/use-cases` `src/tools/`, not code here. No SDK object is built:
 * the HTTP plugin's fast path calls it directly.
 */
export function buildToolRegistry(deps: ToolRegistryDeps): ToolRegistry {
  const { services, actor } = deps;
  const tools = new ToolRegistry({ scopes: deps.scopes, audit: deps.audit });
  for (const tool of toolsOn('mcp')) {
    tools.registerTool(tool, (args, call) => tool.run(services, actor, args, call));
  }
  const [cardTool, meta] = CARD_TOOL_META;
  if (tools.has(cardTool)) tools.setToolMeta(cardTool, meta);
  return tools;
}

/**
 * The JSON Schema validator the SDK `Server` keeps (used only for elicitation, which these tools
 * do not use): one per process. The SDK's default builds a new Ajv instance per `Server`, about a
 * millisecond of every server built.
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** An MCP server of {@link buildMcpServer} and the tool registry its tool handlers answer from. */
export interface BuiltMcpServer {
  /** The SDK server answering `initialize`, tools, resources and prompts; connect it to a transport. */
  readonly server: Server;
  /** Its tools (the registry of {@link buildToolRegistry}), also callable without the SDK. */
  readonly tools: ToolRegistry;
}

/**
 * Builds an MCP server for one caller (a token's owner, scopes and audit; the flows in
 * `deps.services` are created once per process and shared), with its tools. The HTTP plugin
 * builds one per request that the SDK's transport answers (`mcpPlugin`); its plain `tools/call`s
 * skip the SDK and call a token's {@link ToolRegistry} directly. The tools
 * ({@link buildToolRegistry}) answer the SDK's `tools/list` and `tools/call` handlers (the SDK's
 * low-level `Server`: results carry `structuredContent` plus the same JSON as text; failures,
 * arguments that do not match the input schema included, answer `isError: true` with the
 * problem object of `deps.toProblem` as JSON text only; `tools/list` shows only the tools
 * `deps.scopes` allow; a call outside them answers `insufficient_scope`; each call is recorded
 * with `deps.audit` before it is answered). Also the resources (the user's saved reports and the
 * cached evaluations, JSON and markdown) and the prompts (`evaluateCompany`,
 * `reviewPortfolioMoats`, `explainCriterion`) through the SDK's `McpServer`, which advertises the
 * `resources`, `prompts` and `completions` capabilities; and the moat card, the MCP App that
 * `getMoatEvaluation` names for hosts that show apps ({@link registerMoatCardApp}).
 *
 * @example
 * const { server } = buildMcpServer({ services, actor: { id: user.id, plan: user.plan }, toProblem });
 * await server.connect(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined }));
 */
export function buildMcpServer(deps: McpServerDeps): BuiltMcpServer {
  const tools = buildToolRegistry(deps);
  const info = deps.info ?? DEFAULT_SERVER_INFO;
  const mcp = new McpServer(
    { name: info.name, version: info.version },
    { capabilities: { tools: {} }, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR },
  );
  const { server } = mcp;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list() }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    tools.call(request.params.name, request.params.arguments, deps.toProblem),
  );
  registerMoatResources(mcp, deps);
  registerMoatCardApp(mcp);
  registerMoatPrompts(mcp, deps);
  return { server, tools };
}
