import { StoreError } from '@svc/portfolio-store';
import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from './config.js';
import { createLogger, logSettingsOf } from './http/logging.js';
import { SERVER_TIMEOUTS } from './http/server.js';
import { openRuntime, type Runtime } from './runtime.js';

/** What a server's `build` gets from {@link startServer}. */
export interface StartContext {
  readonly runtime: Runtime;
  /**
   * Fastify server options for the running process: the logger made once for the whole process
   * (`loggerInstance`) and `SERVER_TIMEOUTS`; pass them to `createServer` (as `server`).
   */
  readonly server: typeof SERVER_TIMEOUTS & { readonly loggerInstance: FastifyBaseLogger };
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** Builds the server over the runtime (not yet listening). */
  readonly build: (context: StartContext) => Promise<FastifyInstance>;
  /** The log line once it listens, e.g. `service ready`. */
  readonly readyMessage: string;
  /** Fields of that line beyond `baseUrl` and `database`. */
  readonly readyFields?: (runtime: Runtime) => Record<string, unknown>;
  /** The environment; default `process.env`. */
  readonly env?: Record<string, string | undefined>;
}

/**
 * The start-up both servers share (`src/server.ts` of apps/api and apps/mcp): reads the
 * configuration once (`loadConfig`, logging through the service's logger), opens the runtime
 * (`openRuntime`), builds the server, closes gracefully on SIGTERM/SIGINT or a fatal error
 * (`close-with-grace`, `SHUTDOWN_GRACE_SECONDS`: the server, then the runtime), listens on
 * `HOST`:`PORT` and logs `readyMessage`. An invalid configuration or a data directory held by
 * another process prints its message; any failure to start exits with code 1.
 *
 * @example
 * await startServer({ build: ({ runtime, server }) => buildMcpApp(runtime.deps, { server }), readyMessage: 'mcp server ready' });
 */
export async function startServer(options: StartOptions): Promise<void> {
  try {
    await start(options);
  } catch (error) {
    if (error instanceof ConfigError || (error instanceof StoreError && error.code === 'locked')) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  }
}

async function start(options: StartOptions): Promise<void> {
  const env = options.env ?? process.env;
  const logger = createLogger(logSettingsOf(env));
  const config = await loadConfig(env, {
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
  });
  logger.level = config.logLevel;
  const runtime = await openRuntime(
    config,
    { warn: (message) => logger.warn(message) },
    { background: true },
  );
  const app = await options.build({
    runtime,
    server: { loggerInstance: logger as FastifyBaseLogger, ...SERVER_TIMEOUTS },
  });

  // SHUTDOWN_GRACE_SECONDS: how long requests in flight may take after SIGTERM before the exit
  closeWithGrace({ delay: config.shutdownGraceMs, logger }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing');
    // how long each half took, so that a close that ran into the grace says where it waited
    const started = performance.now();
    await app.close();
    const server = performance.now();
    // what is left of the grace, less a margin for the exit itself
    await runtime.close(Math.max(0, config.shutdownGraceMs - (server - started) - 250));
    app.log.info(
      {
        serverMs: Math.round(server - started),
        runtimeMs: Math.round(performance.now() - server),
      },
      'closed',
    );
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      baseUrl: config.baseUrl,
      database: runtime.dialect,
      ...options.readyFields?.(runtime),
    },
    options.readyMessage,
  );
}
