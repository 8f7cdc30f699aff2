import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { safeReturnPath } from '../auth/oidc.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** A fresh CSP nonce (128 random bits, base64). */
export function cspNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The Content-Security-Policy of the people's pages (`/`, `/signup`, `/signin`, the developer
 * page): only their own nonce'd style and (when present) script, fetches and forms to their own
 * origin, no framing, no plugins, no base rewriting.
 */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * The style of the people's pages: readable at 375 px (nothing wider than the viewport), light
 * and dark (`prefers-color-scheme`), colours with at least 4.5:1 contrast (WCAG 2.1 AA 1.4.3).
 */
const STYLE = `
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--muted:#4a4a4a;--line:#d0d0d0;--link:#0b57d0;--err:#a40000;--box:#f4f6f8}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--bg:#15171a;--muted:#b8b8b8;--line:#3a3d42;--link:#8ab4f8;--err:#ff8a80;--box:#20242a}}
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:1rem;color:var(--fg);background:var(--bg);overflow-wrap:anywhere}
a{color:var(--link)}h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin-top:2rem}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding-bottom:.5rem;border-bottom:1px solid var(--line)}
.note{color:var(--muted)}.error{color:var(--err)}
label{display:block;margin:.75rem 0 .25rem}
input,button{font:inherit;padding:.45rem .6rem;border:1px solid var(--line);border-radius:4px;color:var(--fg);background:var(--bg)}
input{width:100%;max-width:24rem}button{cursor:pointer;background:var(--box)}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}.search input{width:12rem}
pre{background:var(--box);padding:.75rem;overflow-x:auto;max-width:100%;font-size:13px}
[hidden]{display:none}`;

/** How {@link sendHtml} serves a page. */
export interface HtmlHeaders {
  /** The page's Content-Security-Policy (e.g. {@link pageCsp}). */
  readonly csp: string;
  /** Default `no-store`; `private, no-store` for a page of someone's data. */
  readonly cacheControl?: string;
  /** Default 200. */
  readonly status?: number;
}

/**
 * Sends a server-rendered page with the headers every page of the site carries: its CSP,
 * `x-content-type-options: nosniff`, `referrer-policy: same-origin` and no caching.
 */
export function sendHtml(reply: FastifyReply, html: string, headers: HtmlHeaders) {
  return reply
    .code(headers.status ?? 200)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', headers.csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', headers.cacheControl ?? 'no-store')
    .send(html);
}

/** One page of the site: its `<title>`, body HTML (already escaped) and optional inline script. */
export interface PageParts {
  readonly title: string;
  readonly body: string;
  readonly nonce: string;
  readonly script?: string;
  /** Whether the visitor is signed in (the navigation offers sign-out, else sign-in/up). */
  readonly signedIn?: boolean;
  /** The page's own CSS, after the site's (its rules win where both set a property). */
  readonly style?: string;
}

/** Renders a complete HTML document with the site's navigation (skip link, landmarks). */
export function renderPage(parts: PageParts): string {
  const account = parts.signedIn
    ? '<a href="/account/developer">Developer settings</a>'
    : '<a href="/signin">Sign in</a><a href="/signup">Sign up</a>';
  const script = parts.script ? `<script nonce="${parts.nonce}">${parts.script}</script>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(parts.title)}</title><style nonce="${parts.nonce}">${STYLE}${parts.style ?? ''}</style></head>
<body><header><nav aria-label="Site"><a href="/">Home</a><a href="/api/docs">API docs</a>${account}</nav></header>
<main id="main"><h1>${escapeHtml(parts.title)}</h1>
${parts.body}
</main>
<footer><p class="note">Output of this service is informational only and is not financial advice.</p></footer>
${script}
</body></html>`;
}

/**
 * Where sign-in may send a browser back to: a same-site path only (`/…`, never `//host`, `/\host`,
 * a scheme or control characters: no open redirect, OWASP "Unvalidated Redirects and Forwards").
 * Anything else becomes `/`.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2_000) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(next)) return '/';
  return safeReturnPath(next);
}

/** `/signin?next=…` for the page a signed-out browser asked for. */
export function signInLocation(requestedUrl: string): string {
  return `/signin?next=${encodeURIComponent(safeNext(requestedUrl))}`;
}

/**
 * Whether a request is a browser asking for a page: its `Accept` names `text/html` with a higher
 * (or equal and earlier) preference than `application/json` (RFC 9110 §12.5.1). `*\/*` alone, as
 * curl and most clients send, is not a browser.
 */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = -1;
  let json = -1;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) || 0 : 1;
    if (type.trim() === 'text/html' && weight > html) html = weight;
    if (type.trim() === 'application/json' && weight > json) json = weight;
  }
  return html > 0 && html >= json;
}
