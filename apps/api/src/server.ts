import { startServer } from '@svc/service';
import { buildApp } from './app.js';

// The REST service: the shared start-up of @svc/service (configuration read once, the runtime,
// listen, close with grace on SIGTERM) over this app.
await startServer({
  build: ({ runtime, server }) => buildApp(runtime.deps, { server }),
  readyMessage: 'service ready',
  readyFields: ({ deps: { config } }) => ({
    dataDir: config.dataDir,
    fundamentals: config.fundamentals.provider,
    reconcile: config.fundamentals.reconcileProvider,
    quotes: config.quotes.provider,
    fx: config.fx.provider,
  }),
});
