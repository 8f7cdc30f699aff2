import { MCP_ENDPOINT_PATH, type McpPluginOptions } from '@svc/mcp-server';
import { type AppDeps, mcpServicesOf } from './deps.js';
import { toProblem } from './http/problem.js';

/** What differs between the servers that mount `mcpPlugin`: how each checks a token. */
export type McpTokenCheck = Pick<McpPluginOptions, 'guard' | 'principalOf' | 'info'>;

/**
 * The options of `mcpPlugin` (`@svc/mcp-server`) for a server of this runtime, the same for the
 * REST app and the standalone MCP server: the runtime's flows ({@link mcpServicesOf}), the one
 * error mapping (`toProblem`; an unexpected error is logged on the request's logger with its
 * stack, as the REST problem handler does), every call recorded in its token's audit log
 * (`deps.accounts.activity.record`, before the answer), the configured base and account URLs
 * and the per-owner rate limit (`RATE_LIMIT_PER_MINUTE`). The server gives its token check
 * (`guard`, `principalOf`) and, optionally, its name and version (`info`, default the
 * package's).
 *
 * @example
 * await app.register(mcpPlugin, mcpPluginOptionsOf(deps, { guard: pat.guard, principalOf: pat.principalOf }));
 */
export function mcpPluginOptionsOf(deps: AppDeps, server: McpTokenCheck): McpPluginOptions {
  const { config } = deps;
  return {
    services: mcpServicesOf(deps),
    toProblem: (error, request) => {
      const answer = toProblem(error, MCP_ENDPOINT_PATH);
      if (answer.unexpected) request.log.error({ err: error }, 'MCP tool failed');
      return answer.body;
    },
    guard: server.guard,
    principalOf: server.principalOf,
    audit: deps.accounts.activity.record,
    baseUrl: config.baseUrl,
    accountUrl: config.accountUrl,
    rateLimitPerMinute: config.rateLimitPerMinute,
    ...(server.info && { info: server.info }),
  };
}
