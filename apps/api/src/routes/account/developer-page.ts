import { randomBytes } from 'node:crypto';

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
 * The Content-Security-Policy of the page: nothing but its own nonce'd script and style, fetches
 * to its own origin, no framing, no plugins, no base rewriting, forms only to itself.
 */
export function developerPageCsp(nonce: string): string {
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

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd}
input,select,button{font:inherit;padding:.3rem .5rem}#new-token{width:100%;font-family:monospace}
.note{color:#555}.error{color:#a40000}.secret{background:#fff8d6;padding:1rem;border:1px solid #e5c600}
[hidden]{display:none}`;

/* The page script uses only textContent and DOM nodes for data: nothing fetched is parsed as HTML. */
const SCRIPT = `
const $ = (id) => document.getElementById(id);
const json = { 'content-type': 'application/json' };
async function problem(res) {
  try { const body = await res.json(); return body.detail || body.title || res.statusText; }
  catch { return res.statusText; }
}
function show(id, text) { const el = $(id); el.textContent = text; el.hidden = !text; }
async function login(event) {
  event.preventDefault();
  const body = JSON.stringify({ email: $('email').value, password: $('password').value });
  const res = await fetch('/api/auth/login', { method: 'POST', headers: json, body, credentials: 'same-origin' });
  if (res.ok) { location.reload(); return; }
  show('login-error', await problem(res));
}
function cell(row, text) { const td = document.createElement('td'); td.textContent = text; row.append(td); return td; }
async function loadTokens() {
  const res = await fetch('/api/account/tokens', { credentials: 'same-origin' });
  if (!res.ok) { show('tokens-error', await problem(res)); return; }
  const tokens = await res.json();
  const body = $('tokens-body');
  body.replaceChildren();
  for (const token of tokens) {
    const row = document.createElement('tr');
    row.dataset.tokenId = token.id;
    cell(row, token.name);
    cell(row, token.prefix + '…');
    cell(row, token.createdAt.slice(0, 10));
    cell(row, token.lastUsedAt ? token.lastUsedAt.replace('T', ' ').slice(0, 19) : 'never');
    cell(row, token.expiresAt ? token.expiresAt.slice(0, 10) : 'never');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Revoke';
    button.className = 'revoke';
    button.addEventListener('click', () => revoke(token.id, token.name));
    cell(row, '').append(button);
    body.append(row);
  }
  $('no-tokens').hidden = tokens.length > 0;
}
async function mint(event) {
  event.preventDefault();
  const payload = { name: $('token-name').value, expiresInDays: Number($('token-days').value) };
  const res = await fetch('/api/account/tokens', { method: 'POST', headers: json, body: JSON.stringify(payload), credentials: 'same-origin' });
  if (!res.ok) { show('mint-error', await problem(res)); return; }
  show('mint-error', '');
  const minted = await res.json();
  $('new-token').value = minted.token;
  $('new-token-box').hidden = false;
  $('token-name').value = '';
  await loadTokens();
}
async function copyToken() {
  try { await navigator.clipboard.writeText($('new-token').value); show('copy-status', 'Copied.'); }
  catch { $('new-token').select(); show('copy-status', 'Press Ctrl+C to copy.'); }
}
async function revoke(id, name) {
  const res = await fetch('/api/account/tokens/' + encodeURIComponent(id), { method: 'DELETE', credentials: 'same-origin' });
  if (!res.ok) { show('tokens-error', await problem(res)); return; }
  show('tokens-error', 'Revoked "' + name + '".');
  await loadTokens();
}
async function logout() {
  await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' });
  location.reload();
}
if ($('login-form')) $('login-form').addEventListener('submit', login);
if ($('mint-form')) {
  $('mint-form').addEventListener('submit', mint);
  $('copy-token').addEventListener('click', copyToken);
  $('logout').addEventListener('click', logout);
  loadTokens();
}`;

/** What the page shows: a signed-in user, or the sign-in form. */
export type DeveloperPageView =
  | { readonly kind: 'signed-in'; readonly email: string; readonly name: string | null }
  | { readonly kind: 'signed-out'; readonly oidcEnabled: boolean };

function signedOut(oidcEnabled: boolean): string {
  const oidc = oidcEnabled
    ? '<p><a id="oidc-login" href="/api/auth/oidc/login?returnTo=%2Faccount%2Fdeveloper">Sign in with your identity provider</a></p>'
    : '';
  return `<h2>Sign in</h2>
<form id="login-form">
<p><label>E-mail <input id="email" type="email" autocomplete="username" required></label></p>
<p><label>Password <input id="password" type="password" autocomplete="current-password" required></label></p>
<p><button type="submit">Sign in</button></p>
<p id="login-error" class="error" role="alert" hidden></p>
</form>${oidc}`;
}

function signedIn(email: string, name: string | null, baseUrl: string): string {
  const who = name ? `${escapeHtml(name)} (${escapeHtml(email)})` : escapeHtml(email);
  const mcpUrl = escapeHtml(`${baseUrl}/api/mcp/user/mcp`);
  return `<p>Signed in as <strong id="who">${who}</strong>. <button id="logout" type="button">Sign out</button></p>
<h2>Personal access tokens</h2>
<p class="note">Tokens let MCP clients read your portfolios and use the moat tools as you, at
<code>${mcpUrl}</code> with <code>Authorization: Bearer svc_pat_…</code>. A token is shown once.</p>
<form id="mint-form">
<label>Name <input id="token-name" required maxlength="100" placeholder="e.g. Claude Desktop"></label>
<label>Expires in <select id="token-days"><option value="30">30 days</option><option value="90" selected>90 days</option><option value="365">365 days</option></select></label>
<button type="submit">Create token</button>
<p id="mint-error" class="error" role="alert" hidden></p>
</form>
<div id="new-token-box" class="secret" hidden>
<p><strong>Copy your new token now. It will not be shown again.</strong></p>
<input id="new-token" readonly aria-label="New token"> <button id="copy-token" type="button">Copy</button>
<span id="copy-status" role="status" hidden></span>
</div>
<table><thead><tr><th>Name</th><th>Token</th><th>Created</th><th>Last used</th><th>Expires</th><th></th></tr></thead>
<tbody id="tokens-body"></tbody></table>
<p id="no-tokens" class="note" hidden>No tokens yet.</p>
<p id="tokens-error" role="status" hidden></p>`;
}

/**
 * Renders `GET /account/developer`: minimal server-rendered HTML with a small inline script
 * (nonce'd for the CSP) that calls the token routes. Every server value is HTML-escaped.
 */
export function renderDeveloperPage(
  view: DeveloperPageView,
  baseUrl: string,
  nonce: string,
): string {
  const main =
    view.kind === 'signed-in'
      ? signedIn(view.email, view.name, baseUrl)
      : signedOut(view.oidcEnabled);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Developer settings</title><style nonce="${nonce}">${STYLE}</style></head>
<body><h1>Developer settings</h1>
<p class="note">Output of this service is informational only and is not financial advice.</p>
${main}
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
}
