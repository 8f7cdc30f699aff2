import { readFileSync } from 'node:fs';

/** The `ui://` address of the moat card's MCP App (named by `getMoatEvaluation`). */
export const MOAT_CARD_URI = 'ui://moat/card.html';

/** The MIME type of an MCP App's HTML (SEP-1865). */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The bundled app, beside the package's `dist/index.js` (written by `scripts/bundle-app.mjs`). */
const APP_FILE = new URL('../dist/moat-card.html', import.meta.url);

let html: string | undefined;

/**
 * The HTML of the moat card's MCP App: one self-contained document (inline style and script, no
 * network, fits the hosts' default app CSP) that connects to its host with the ext-apps `App`
 * bridge and draws the `structuredContent` of each `getMoatEvaluation` result it is given as the
 * card ({@link renderMoatCard}); the host's light or dark theme is followed. Built with the
 * package (`pnpm --filter @svc/moat-card build`); read once per process.
 *
 * @throws Error when the package was built without its app bundle (`dist/moat-card.html`).
 */
export function moatCardAppHtml(): string {
  html ??= readFileSync(APP_FILE, 'utf8');
  return html;
}
