import { StoreError } from '@svc/portfolio-store';
import { ConfigError, createLogger, loadConfig, logSettingsOf, openRuntime } from '@svc/service';
import closeWithGrace from 'close-with-grace';
import { buildApp, SERVER_TIMEOUTS } from './app.js';

/** Reads the configuration once, opens the runtime, builds the app, listens, closes gracefully. */
async function main(): Promise<void> {
  const logger = createLogger(logSettingsOf(process.env));
  const config = await loadConfig(process.env, {
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
  });
  logger.level = config.logLevel;
  const runtime = await openRuntime(config, { warn: (message) => logger.warn(message) });
  const app = await buildApp(runtime.deps, {
    server: { loggerInstance: logger, ...SERVER_TIMEOUTS },
  });

  // SHUTDOWN_GRACE_SECONDS: how long requests in flight may take after SIGTERM before the exit
  closeWithGrace({ delay: config.shutdownGraceMs, logger }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing');
    await app.close();
    await runtime.close();
  });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      baseUrl: config.baseUrl,
      database: runtime.dialect,
      dataDir: config.dataDir,
      fundamentals: config.fundamentals.provider,
      quotes: config.quotes.provider,
      fx: config.fx.provider,
    },
    'service ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || (error instanceof StoreError && error.code === 'locked')) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
