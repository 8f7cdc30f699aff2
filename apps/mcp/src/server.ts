import { startServer } from '@svc/service';
import { buildMcpApp } from './app.js';

/**
 * The standalone MCP server: the API's configuration (same environment variables: DATABASE_URL or
 * DATA_DIR, providers, quotas, OPENAI_*, PORT, HOST, BASE_URL), the same runtime and start-up
 * (`startServer` of `@svc/service`), only the MCP routes. Meant for PostgreSQL (`DATABASE_URL`),
 * where it runs beside any number of API processes; on the embedded database it runs only where
 * no API process holds `DATA_DIR`.
 */
await startServer({
  build: ({ runtime, server }) => buildMcpApp(runtime.deps, { server }),
  readyMessage: 'mcp server ready',
  readyFields: () => ({ endpoint: '/api/mcp/user/mcp' }),
});
