import { mcpPlugin } from '@svc/mcp-server';
import {
  type AppDeps,
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
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { endOpenStreams } from './advisor/event-stream.js';
import { OPENAPI_VERSION, SESSION_CHALLENGE } from './openapi.js';
import { registerBearerGuard } from './plugins/app/bearer-guard.js';
import { decorateServices } from './plugins/app/services.js';
import { registerSessionGuard } from './plugins/app/session-guard.js';
import { registerCookies } from './plugins/external/cookie.js';
import { registerMetrics } from './plugins/external/metrics.js';
import { registerSwagger } from './plugins/external/swagger.js';
import { accountDataRoutes } from './routes/account/data.js';
import { developerPageRoutes } from './routes/account/developer.js';
import { accountTokenRoutes } from './routes/account/index.js';
import { accountWebhookRoutes } from './routes/account/webhooks.js';
import { advisorRoutes, aiChatRoutes } from './routes/advisor/index.js';
import { authRoutes } from './routes/auth/index.js';
import { oidcRoutes } from './routes/auth/oidc.js';
import { docsRoutes } from './routes/docs/index.js';
import { evaluationPageRoutes } from './routes/evaluation-page/index.js';
import { healthRoutes } from './routes/health/index.js';
import { moatReportRoutes } from './routes/moat-reports/index.js';
import { moatScreenerRoutes } from './routes/moat-screener/index.js';
import { openapiRoutes } from './routes/openapi/index.js';
import { pageRoutes } from './routes/pages/index.js';
import { portfolioRoutes } from './routes/portfolio/index.js';
import { xrayRoutes } from './routes/portfolio/xray.js';
import { quoteRoutes } from './routes/quote/index.js';
import { stockEvaluationRoutes } from './routes/stock-evaluation/index.js';
import { narrativeRoutes } from './routes/stock-evaluation/narrative.js';
import { xrayPageRoutes } from './routes/xray-page/index.js';
import './types.js';

/**
 * The service as a Fastify plugin (fastify/demo layout): compilers, the problem handler, the
 * domain services (decorated once), external plugins, guards, then the routes per resource.
 * Registered through `fastify-plugin` so handlers and decorations apply to the whole instance.
 */
/**
 * On close (SIGTERM/SIGINT through `close-with-grace` in `startServer` of `@svc/service`), requests in flight go on;
 * event streams still open 1 s before the grace period (`SHUTDOWN_GRACE_SECONDS`) ends are ended
 * with their terminal error event (`upstream_unavailable`: retry), so a client reads why rather
 * than a cut connection, and the server can close before the process is made to exit; keep-alive
 * connections are closed as soon as their last request is answered.
 */
function registerStreamDrain(app: FastifyInstance, graceMs: number): void {
  registerIdleConnectionSweep(app);
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setTimeout(
      () => {
        const ended = endOpenStreams(app);
        if (ended > 0)
          app.log.warn({ streams: ended }, 'ended event streams at the shutdown deadline');
      },
      Math.max(0, graceMs - 1_000),
    );
    timer.unref();
  });
  app.addHook('onClose', async () => clearTimeout(timer));
}

export const apiApp = fp(
  async (app: FastifyInstance, deps: AppDeps) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerProblemHandler(app, { challenge: SESSION_CHALLENGE });
    registerRequestHooks(app);
    registerInputGuard(app);
    decorateServices(app, deps);
    registerStreamDrain(app, deps.config.shutdownGraceMs);
    await registerMetrics(app, { metrics: deps.metrics, token: deps.config.metricsToken });

    registerSessionGuard(app);
    registerBearerGuard(app);
    await registerCookies(app);
    await registerSharedRateLimit(app, {
      counters: deps.counters,
      syncMs: rateLimitSyncMs(deps.config),
    });
    await registerSwagger(app, deps.config.baseUrl);

    await app.register(openapiRoutes);
    await app.register(healthRoutes);
    await app.register(docsRoutes, { prefix: '/api/docs' });
    await app.register(authRoutes, { prefix: '/api/auth' });
    await app.register(oidcRoutes, { prefix: '/api/auth/oidc' });
    await app.register(accountTokenRoutes, { prefix: '/api/account' });
    await app.register(accountDataRoutes, { prefix: '/api/account' });
    await app.register(accountWebhookRoutes, { prefix: '/api/account' });
    await app.register(developerPageRoutes, { prefix: '/account' });
    await app.register(stockEvaluationRoutes, { prefix: '/api/stock-evaluation' });
    await app.register(evaluationPageRoutes, { prefix: '/evaluation' });
    await app.register(pageRoutes);
    await app.register(narrativeRoutes, { prefix: '/api/stock-evaluation' });
    await app.register(advisorRoutes, { prefix: '/api/advisor' });
    await app.register(aiChatRoutes, { prefix: '/api/portfolio' });
    await app.register(moatScreenerRoutes, { prefix: '/api/moat-screener' });
    await app.register(moatReportRoutes, { prefix: '/api/moat-reports' });
    await app.register(portfolioRoutes, { prefix: '/api' });
    await app.register(quoteRoutes, { prefix: '/api/quote' });
    await app.register(xrayRoutes, { prefix: '/api' });
    await app.register(xrayPageRoutes, { prefix: '/xray' });
    await app.register(
      mcpPlugin,
      mcpPluginOptionsOf(deps, {
        guard: app.requirePersonalAccessToken,
        principalOf: (request) => request.tokenPrincipal,
        info: { name: 'moat-portfolio', version: OPENAPI_VERSION },
      }),
    );
  },
  { name: 'svc-api', fastify: '5.x' },
);

/** Options of {@link buildApp}: the logger and extra Fastify server options (`createServer`). */
export type BuildAppOptions = ServerOptions;

/**
 * Builds the app: a Fastify instance with {@link apiApp} registered. Not yet listening; call
 * `inject()` in tests or `listen()` in the server.
 *
 * @example
 * const app = await buildApp({ config, repos: createRepositories(database.db), quotas });
 * const res = await app.inject({ method: 'GET', url: '/api/docs' });
 */
export async function buildApp(
  deps: AppDeps,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = createServer(deps.config, options);
  await app.register(apiApp, deps);
  return app;
}
