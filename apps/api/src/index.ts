/**
 * `@svc/api` is an app, not a library: this entry exists for the benchmark servers in `bench/`
 * (which import it from `dist/`, so the exports are marked public for knip), composing the
 * service the way `src/server.ts` does. Add nothing here that `bench/` does not use.
 */
import './types.js';

/** @public */
export { type AppConfig, loadConfig, openRuntime, type Runtime } from '@svc/service';
/** @public */
export { type BuildAppOptions, buildApp } from './app.js';
