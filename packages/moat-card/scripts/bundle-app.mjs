#!/usr/bin/env node
// Builds the moat card's MCP App: bundles src/app/main.ts (the ext-apps `App` bridge, the card
// renderer and the evaluation schema) for the browser with esbuild, and writes one
// self-contained HTML document, dist/moat-card.html, with the card's style and the script inline
// (no network: the hosts' default app CSP allows inline script and style only). Run after tsup
// (`pnpm build`), which provides CARD_STYLE in dist/index.js.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const { CARD_STYLE } = await import(new URL('dist/index.js', root).href);

/**
 * zod's classic API re-exports every locale (`z.locales`), which the bundle would carry (about
 * 260 kB of the 540): the app never selects one, and the English messages it uses are imported
 * on their own, so the locale index is left empty.
 */
const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(context) {
    context.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      args.importer.includes('/zod/') ? { path: 'zod-locales', namespace: 'empty' } : undefined,
    );
    context.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {}' }));
  },
};

const result = await build({
  entryPoints: [new URL('src/app/main.ts', root).pathname],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  legalComments: 'none',
  write: false,
  plugins: [withoutZodLocales],
  logLevel: 'warning',
});
// `</script` cannot appear inside an inline script; in strings and regular expressions `<\/` is the same.
const script = result.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1');

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Moat card</title><style>${CARD_STYLE}</style></head>
<body><main id="root"><p class="card-status" role="status">Waiting for the evaluation…</p></main>
<script>${script}</script>
</body></html>
`;
writeFileSync(new URL('dist/moat-card.html', root), html);
console.log(`dist/moat-card.html: ${(html.length / 1024).toFixed(0)} kB`);
