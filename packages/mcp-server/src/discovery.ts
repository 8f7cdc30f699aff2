import type { McpServerInfo } from './deps.js';
import { MCP_PROMPTS, MCP_RESOURCES } from './resource-catalog.js';
import { MCP_TOOL_NAMES, MCP_TOOLS } from './tool-catalog.js';

/** Path of the MCP endpoint that clients are configured with (interface spec 4.5). */
export const MCP_ENDPOINT_PATH = '/api/mcp/user/mcp';

/** Path of the public discovery document (interface spec 4.5). */
export const MCP_DISCOVERY_PATH = '/.well-known/mcp.json';

/** The discovery document of `/.well-known/mcp.json` (CONTRACT §4). */
export interface McpDiscovery {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly transport: 'streamable-http';
  /** Absolute URL of the MCP endpoint. */
  readonly url: string;
  readonly authentication: {
    readonly type: 'bearer';
    readonly tokenPrefix: 'svc_pat_';
    /** Where a user mints a personal access token. */
    readonly tokenUrl: string;
  };
  readonly tools: readonly { readonly name: string; readonly description: string }[];
  /** What the server offers beyond tools (the `capabilities` of its `initialize` answer). */
  readonly capabilities: {
    readonly tools: true;
    readonly resources: true;
    readonly prompts: true;
    readonly completions: true;
  };
  /** The resource templates (`resources/templates/list`): saved reports and cached evaluations. */
  readonly resources: readonly {
    readonly name: string;
    readonly uriTemplate: string;
    readonly mimeType: string;
    readonly description: string;
  }[];
  /** The prompts (`prompts/list`) with their arguments. */
  readonly prompts: readonly {
    readonly name: string;
    readonly description: string;
    readonly arguments: readonly { name: string; description: string; required: boolean }[];
  }[];
}

/** Addresses the discovery document points at. */
export interface DiscoveryAddresses {
  /** Public base URL of the service, without a trailing slash (`BASE_URL`). */
  readonly baseUrl: string;
  /** Public base URL of the account site, without a trailing slash (`ACCOUNT_URL`). */
  readonly accountUrl: string;
}

/**
 * The discovery document (CONTRACT §4): server identity, `streamable-http` transport, the endpoint
 * URL `{baseUrl}/api/mcp/user/mcp`, bearer authentication with `svc_pat_` tokens minted at
 * `{accountUrl}/account/developer`, every tool's name and description, and (beyond CONTRACT §4)
 * the capabilities, resource templates and prompts the server offers.
 *
 * @example
 * mcpDiscovery({ baseUrl: 'http://127.0.0.1:3000', accountUrl: 'http://127.0.0.1:3000' }, info).url;
 * // 'http://127.0.0.1:3000/api/mcp/user/mcp'
 */
export function mcpDiscovery(addresses: DiscoveryAddresses, info: McpServerInfo): McpDiscovery {
  return {
    name: info.name,
    version: info.version,
    description:
      'Portfolio reads and durable-competitive-advantage (moat) tools: evaluations from SEC ' +
      'filings and their history, narratives, the screener and saved reports; saved reports and ' +
      'cached evaluations as resources; prompts to evaluate a company, review a portfolio and ' +
      'explain a criterion.',
    transport: 'streamable-http',
    url: `${addresses.baseUrl}${MCP_ENDPOINT_PATH}`,
    authentication: {
      type: 'bearer',
      tokenPrefix: 'svc_pat_',
      tokenUrl: `${addresses.accountUrl}/account/developer`,
    },
    tools: MCP_TOOL_NAMES.map((name) => ({ name, description: MCP_TOOLS[name].description })),
    capabilities: { tools: true, resources: true, prompts: true, completions: true },
    resources: Object.entries(MCP_RESOURCES).map(([name, r]) => ({
      name,
      uriTemplate: r.uriTemplate,
      mimeType: r.mimeType,
      description: r.description,
    })),
    prompts: Object.entries(MCP_PROMPTS).map(([name, p]) => ({
      name,
      description: p.description,
      arguments: p.arguments,
    })),
  };
}
