import { createPersonalAccessTokenGuard, mcpPlugin } from '@svc/mcp-server';
import {
  type AppDeps,
  checkReadiness,
  createServer,
  mcpPluginOptionsOf,
  rateLimitSyncMs,
  registerIdleConnectionSweep,
  registerInputGuard,
  registerProblemHandler,
  registerRequestHooks,
  registerSharedRateLimit,
  type ServerOptions,
} from '@svc/service';
import type { FastifyInstance } from 'fastify';

/** Options of {@link buildMcpApp}: the logger and extra Fastify server options (`createServer`). */
export type McpAppOptions = ServerOptions;

/**
 * The MCP server on its own (interface spec 4.5): `POST /api/mcp/user/mcp` (streamable HTTP,
 * stateless, personal access tokens), `GET /.well-known/mcp.json`, and `GET /healthz` /
 * `GET /readyz` for a load balancer; every error is problem+json (JSON-RPC errors inside MCP).
 * Built from the same runtime as the REST app (`openRuntime` of `@svc/service`): the same flows,
 * quotas, shared rate limit and PAT checks, so both can run side by side on one PostgreSQL and a
 * token revoked through the API is refused here at once (the session-change feed); the account
 * services (PAT verification with its memo, token activity and its purge) are the runtime's.
 *
 * @example
 * const runtime = await openRuntime(config);
 * const app = await buildMcpApp(runtime.deps);
 * await app.listen({ port: config.port, host: config.host });
 */
export async function buildMcpApp(
  deps: AppDeps,
  options: McpAppOptions = {},
): Promise<FastifyInstance> {
  const { config, accounts } = deps;
  const app = createServer(config, options);
  // the API's one mapping: Fastify's own refusals, then every package's errors
  registerProblemHandler(app, { unexpectedMessage: 'request failed' });
  registerIdleConnectionSweep(app);
  registerRequestHooks(app);
  registerInputGuard(app);
  await registerSharedRateLimit(app, {
    counters: deps.counters,
    syncMs: rateLimitSyncMs(config),
  });
  const pat = createPersonalAccessTokenGuard({
    verify: accounts.tokens.authenticate,
    realm: config.baseUrl,
  });

  app.get('/healthz', async () => ({ status: 'ok' as const }));
  app.get('/readyz', (request) => checkReadiness(deps.pendingMigrations, request.log));

  await app.register(
    mcpPlugin,
    mcpPluginOptionsOf(deps, { guard: pat.guard, principalOf: pat.principalOf }),
  );
  return app;
}
