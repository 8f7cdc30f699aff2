import { DEFAULT_TOKEN_SCOPES, TOKEN_SCOPES, type TokenScope } from '@svc/use-cases';
import { escapeHtml, renderPage } from '../pages/page-shell.js';
import { DEVELOPER_PAGE_SCRIPT } from './developer-page-script.js';

/**
 * What the page adds to the site's style ({@link renderPage}): its tables, at most 40rem wide,
 * become one block per row with each cell labelled (`data-label`), so nothing scrolls sideways
 * at 375 px; compact form controls (inputs as wide as their content, checkboxes in a fieldset)
 * and the new token's box in yellow, light and dark.
 */
const DEVELOPER_STYLE = `
:root{--secret:#fff8d6;--secretline:#b59b00}
@media (prefers-color-scheme:dark){:root{--secret:#2e2a14;--secretline:#8a7a20}}
body{font-size:15px;max-width:52rem}h1{font-size:1.5rem}h2{font-size:1.15rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
input,select,button{font:inherit;padding:.3rem .5rem;max-width:100%;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px}
input{width:auto}#new-token{width:100%;font-family:monospace}label{display:inline-block;margin:.25rem 0}
fieldset{margin:.5rem 0;border:1px solid var(--line);min-width:0}fieldset label{display:block}
#activity td{font-size:13px}#activity code{word-break:break-all}.secret{background:var(--secret);padding:1rem;border:1px solid var(--secretline)}
@media (max-width:40rem){table,tbody,tr,td{display:block}thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
tr{border-bottom:1px solid var(--line);padding:.25rem 0}td{border:0;padding:.1rem 0}td[data-label]:not([data-label=""])::before{content:attr(data-label) ": ";font-weight:600}}`;

/** What the page shows: the signed-in user (a signed-out browser is sent to `/signin`). */
export interface DeveloperPageView {
  readonly email: string;
  readonly name: string | null;
}

/** What each scope lets an agent do, as the page explains it. */
const SCOPE_TEXT: Readonly<Record<TokenScope, string>> = {
  'portfolio:read': 'read portfolios, holdings and cash (quantities and weights)',
  'portfolio:values': 'see money amounts: prices, costs, values, P&L, cash balances',
  'moat:read': 'read cached evaluations, the screener and saved reports',
  'moat:fresh': 'fetch fresh evaluations (spends your stock_evaluation quota)',
  'ai:consult': 'write narratives (spends your ai_consult quota)',
  'reports:write': 'save reports to your library',
};

/** The scope checkboxes of the mint form, ticked as the API's default (`DEFAULT_TOKEN_SCOPES`: what a token minted without `scopes` gets). */
function scopeChoices(): string {
  const boxes = TOKEN_SCOPES.map((scope) => {
    const checked = DEFAULT_TOKEN_SCOPES.includes(scope) ? ' checked' : '';
    return `<label><input type="checkbox" name="scope" value="${scope}"${checked}> <code>${scope}</code>: ${escapeHtml(SCOPE_TEXT[scope])}</label>`;
  });
  return `<fieldset><legend>Scopes (what the token may do; the ones a scope needs are added)</legend>
${boxes.join('\n')}
</fieldset>`;
}

function signedIn(email: string, name: string | null, baseUrl: string): string {
  const who = name ? `${escapeHtml(name)} (${escapeHtml(email)})` : escapeHtml(email);
  const mcpUrl = escapeHtml(`${baseUrl}/api/mcp/user/mcp`);
  return `<p>Signed in as <strong id="who">${who}</strong>. <button id="logout" type="button">Sign out</button></p>
<h2>Moat card</h2>
<p class="note">The evaluation of a company as one picture (verdict, criteria and their ten-year
trends) at <code>/evaluation/{symbol}</code>, e.g. <a id="card-link" href="/evaluation/AAPL">the moat card of AAPL</a>.
MCP hosts that show apps draw the same card beside <code>getMoatEvaluation</code>.</p>
<h2>Personal access tokens</h2>
<p class="note">Tokens let MCP clients read your portfolios and use the moat tools as you, at
<code>${mcpUrl}</code> with <code>Authorization: Bearer svc_pat_…</code>. A token is shown once.</p>
<form id="mint-form">
<label>Name <input id="token-name" required maxlength="100" placeholder="e.g. Claude Desktop"></label>
<label>Expires in <select id="token-days"><option value="30">30 days</option><option value="90" selected>90 days</option><option value="365">365 days</option></select></label>
${scopeChoices()}
<button type="submit">Create token</button>
<p id="mint-error" class="error" role="alert" hidden></p>
</form>
<div id="new-token-box" class="secret" hidden>
<p><strong>Copy your new token now. It will not be shown again.</strong></p>
<input id="new-token" readonly aria-label="New token"> <button id="copy-token" type="button">Copy</button>
<span id="copy-status" role="status" hidden></span>
</div>
<table><thead><tr><th>Name</th><th>Token</th><th>Scopes</th><th>Created</th><th>Last used</th><th>Expires</th><th>Actions</th></tr></thead>
<tbody id="tokens-body"></tbody></table>
<p id="no-tokens" class="note" hidden>No tokens yet.</p>
<p id="tokens-error" role="status" hidden></p>
<section id="activity" hidden><h2>Activity of <span id="activity-name"></span></h2>
<p class="note">Every call made with the token (MCP tools, and REST routes that take a token, such as the X-ray), newest first (the last 50), kept for a limited time.</p>
<table><thead><tr><th>Time</th><th>Tool or route</th><th>Outcome</th><th>Quota spent</th><th>ms</th><th>Arguments</th></tr></thead>
<tbody id="activity-body"></tbody></table>
<p id="no-activity" class="note" hidden>No calls recorded.</p></section>
${passwordForm()}
${yourData()}`;
}

/** The password change form (`POST /api/auth/password`, CONTRACT §6). */
function passwordForm(): string {
  return `<h2>Password</h2>
<form id="password-form">
<p class="note">Changing the password signs out every other session; tokens keep working.</p>
<p><label for="current-password">Current password</label><input id="current-password" type="password" autocomplete="current-password" required maxlength="512"></p>
<p><label for="new-password">New password (at least 8 characters)</label><input id="new-password" type="password" autocomplete="new-password" required minlength="8" maxlength="512"></p>
<button type="submit">Change password</button>
<p id="password-status" role="status" hidden></p>
</form>`;
}

/** The export links and the erase form (CONTRACT §6). */
function yourData(): string {
  return `<h2>Your data</h2>
<p>Download everything you put in (portfolios with every transaction, saved reports, column
mappings, token names): <a id="export-native" href="/api/account/export?format=native" download>this service's JSON</a>
(import it into any account with <code>POST /api/account/import</code>) or
<a id="export-ghostfolio" href="/api/account/export?format=ghostfolio" download>Ghostfolio's export shape</a>.</p>
<form id="erase-form">
<p class="note">Erasing the account deletes everything of yours at once and for good, and signs
out every session and token. Download your data first: it is your last copy. An account without a
password (signed in through your identity provider) needs a sign-in in the last 10 minutes.</p>
<label>Password <input id="erase-password" type="password" autocomplete="current-password"></label>
<button id="erase" type="submit">Erase my account</button>
<p id="erase-error" class="error" role="alert" hidden></p>
</form>`;
}

/**
 * Renders `GET /account/developer` in the site's page shell ({@link renderPage}: navigation,
 * landmarks, the disclaimer in the footer; served with `pageCsp`): minimal server-rendered HTML
 * with a small inline script (nonce'd for the CSP) that calls the token routes. Every server
 * value is HTML-escaped.
 */
export function renderDeveloperPage(
  view: DeveloperPageView,
  baseUrl: string,
  nonce: string,
): string {
  return renderPage({
    title: 'Developer settings',
    body: signedIn(view.email, view.name, baseUrl),
    nonce,
    script: DEVELOPER_PAGE_SCRIPT,
    signedIn: true,
    style: DEVELOPER_STYLE,
  });
}
