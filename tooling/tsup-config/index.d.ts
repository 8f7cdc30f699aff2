import type { Options } from 'tsup';

/** Shared by every build: Node 22 syntax, source maps, a clean `dist/`. */
export declare const base: Options;
/** ESM and CommonJS with declarations (packages other teams may `require`). */
export declare const library: (options: Options) => Options;
/** ESM only, with declarations (servers, MCP). */
export declare const esmOnly: (options: Options) => Options;
/** An ESM executable beside a library build: no declarations, does not clean `dist/`. */
export declare const bin: (options: Options) => Options;
