import { StoreError } from '@svc/portfolio-store';
import { ConfigError, loadConfig, openRuntime } from '@svc/service';
import closeWithGrace from 'close-with-grace';
import { buildMcpApp } from './app.js';

/**
 * The standalone MCP server: the API's configuration (same environment variables: DATABASE_URL or
 * DATA_DIR, providers, quotas, OPENAI_*, PORT, HOST, BASE_URL), the same runtime, only the MCP
 * routes. Meant for PostgreSQL (`DATABASE_URL`), where it runs beside any number of API
 * processes; on the embedded database it runs only where no API process holds `DATA_DIR`.
 */
async function main(): Promise<void> {
  const log = (level: 'info' | 'warn') => (message: string) =>
    console.error(JSON.stringify({ level, msg: message }));
  const config = await loadConfig(process.env, { info: log('info'), warn: log('warn') });
  const runtime = await openRuntime(config, { warn: log('warn') });
  const app = await buildMcpApp(runtime.deps);
  closeWithGrace({ delay: config.shutdownGraceMs }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing');
    await app.close();
    await runtime.close();
  });
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { baseUrl: config.baseUrl, database: runtime.dialect, endpoint: '/api/mcp/user/mcp' },
    'mcp server ready',
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
