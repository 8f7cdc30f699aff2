/** @typedef {import('tsup').Options} Options */

/**
 * The one tsup configuration every workspace package and app builds with: Node 22 syntax,
 * source maps, a clean `dist/`, and type declarations for the entry points a consumer imports.
 * A package passes only what differs (its entry points, `format`, a `bin` build without
 * declarations, a banner).
 *
 * - `library({ entry })`: ESM + CommonJS with `.d.ts` (the packages other teams may `require`).
 * - `esmOnly({ entry })`: ESM with `.d.ts` (packages that only ESM consumers use: servers, MCP).
 * - `bin({ entry })`: an ESM executable, no declarations, no clean (it shares `dist/` with the library).
 *
 * @example
 * // packages/valuation/tsup.config.ts
 * export default defineConfig(library({ entry: ['src/index.ts'] }));
 */
/** @type {Options} */
export const base = {
  sourcemap: true,
  clean: true,
  target: 'node22',
};

/** ESM and CommonJS with declarations. */
/** @param {Options} options @returns {Options} */
export const library = (options) => ({
  ...base,
  format: ['esm', 'cjs'],
  dts: true,
  ...options,
});

/** ESM only, with declarations. */
/** @param {Options} options @returns {Options} */
export const esmOnly = (options) => ({
  ...base,
  format: ['esm'],
  dts: true,
  ...options,
});

/** An ESM executable beside a library build: no declarations, does not clean `dist/`. */
/** @param {Options} options @returns {Options} */
export const bin = (options) => ({
  ...base,
  format: ['esm'],
  clean: false,
  ...options,
});
