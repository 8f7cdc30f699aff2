import {
  createPersonalAccessTokenGuard,
  DEFAULT_SERVER_INFO,
  MCP_ENDPOINT_PATH,
  mcpPlugin,
} from '@svc/mcp-server';
import {
  type AppDeps,
  checkReadiness,
  createLogger,
  defaultTokenCrypto,
  mcpServicesOf,
  openCredentialMemo,
  REQUEST_ID_OPTIONS,
  registerIdleConnectionSweep,
  registerInputGuard,
  registerRequestIdEcho,
  registerSharedRateLimit,
  toProblem,
} from '@svc/service';
import {
  createPersonalAccessTokens,
  createTokenActivity,
  createTokenMemo,
  PROBLEM_CONTENT_TYPE,
  problemBody,
  scheduleActivityPurge,
} from '@svc/use-cases';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';

/** Largest JSON-RPC request body accepted (1 MiB), as the API's. */
export const BODY_LIMIT_BYTES = 1_048_576;

/** Options of {@link buildMcpApp} beyond the runtime's dependencies. */
export interface McpAppOptions {
  /**
   * Fastify logger option; default the service's logger (`createLogger` of `@svc/service`:
   * `LOG_LEVEL`, `LOG_FORMAT`, credentials redacted), as the API's.
   */
  readonly logger?: FastifyServerOptions['logger'];
}

/**
 * The MCP server on its own (interface spec 4.5): `POST /api/mcp/user/mcp` (streamable HTTP,
 * stateless, personal access tokens), `GET /.well-known/mcp.json`, and `GET /healthz` /
 * `GET /readyz` for a load balancer; every error is problem+json (JSON-RPC errors inside MCP).
 * Built from the same runtime as the REST app (`openRuntime` of `@svc/service`): the same flows,
 * quotas, shared rate limit and PAT checks, so both can run side by side on one PostgreSQL and a
 * token revoked through the API is refused here at once (the session-change feed).
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
  const { config } = deps;
  const app = Fastify({
    ...(options.logger === undefined
      ? { loggerInstance: createLogger(config) }
      : { logger: options.logger }),
    ...REQUEST_ID_OPTIONS,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    requestTimeout: 30_000,
  }) as unknown as FastifyInstance; // pino's Logger is a FastifyBaseLogger

  // the API's one mapping: Fastify's own refusals, then every package's errors
  app.setErrorHandler((error, request, reply) => {
    const answer = toProblem(error, request.url.split('?')[0]);
    if (answer.unexpected) request.log.error({ err: error }, 'request failed');
    return reply
      .code(answer.status)
      .headers(answer.headers)
      .type(PROBLEM_CONTENT_TYPE)
      .send(answer.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problemBody('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );

  registerIdleConnectionSweep(app);
  registerRequestIdEcho(app);
  registerInputGuard(app);
  await registerSharedRateLimit(app, { counters: deps.counters });

  const memo = openCredentialMemo(deps, createTokenMemo);
  app.addHook('onClose', async () => memo.close());
  const tokens = createPersonalAccessTokens({
    repos: deps.repos,
    crypto: deps.tokenCrypto ?? defaultTokenCrypto,
    now: deps.now ?? (() => new Date()),
    memo: memo.memo,
  });
  const pat = createPersonalAccessTokenGuard({
    verify: tokens.authenticate,
    realm: config.baseUrl,
  });
  const activity = createTokenActivity({
    repos: deps.repos,
    now: deps.now ?? (() => new Date()),
    retentionDays: config.auditRetentionDays,
  });
  const stopPurge = scheduleActivityPurge(activity, {
    onError: (error) => app.log.warn({ err: error }, 'token activity purge failed'),
  });
  app.addHook('onClose', async () => stopPurge());

  app.get('/healthz', async () => ({ status: 'ok' as const }));
  app.get('/readyz', (request) => checkReadiness(deps.pendingMigrations, request.log));

  await app.register(mcpPlugin, {
    services: mcpServicesOf(deps),
    toProblem: (error, request) => {
      const answer = toProblem(error, MCP_ENDPOINT_PATH);
      if (answer.unexpected) request.log.error({ err: error }, 'MCP tool failed');
      return answer.body;
    },
    guard: pat.guard,
    principalOf: pat.principalOf,
    audit: activity.record,
    baseUrl: config.baseUrl,
    accountUrl: config.accountUrl,
    rateLimitPerMinute: config.rateLimitPerMinute,
    info: DEFAULT_SERVER_INFO,
  });
  return app;
}
