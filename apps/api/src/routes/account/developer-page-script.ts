/**
 * The script of `GET /account/developer` (inlined with the page's CSP nonce): minting
 * with scopes, the token list, revocation, a token's activity, the password change and erasing the account (after a
 * confirmation). It uses only `textContent` and
 * DOM nodes for data: nothing fetched is parsed as HTML.
 */
export const DEVELOPER_PAGE_SCRIPT = `
const $ = (id) => document.getElementById(id);
const json = { 'content-type': 'application/json' };
async function problem(res) {
  try { const body = await res.json(); return body.detail || body.title || res.statusText; }
  catch { return res.statusText; }
}
function show(id, text) { const el = $(id); el.textContent = text; el.hidden = !text; }
function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.append(td);
  return td;
}
function label(body) {
  const heads = [...body.closest('table').querySelectorAll('thead th')].map((th) => th.textContent);
  for (const row of body.rows) [...row.cells].forEach((td, i) => { td.dataset.label = heads[i] || ''; });
}
async function changePassword(event) {
  event.preventDefault();
  const body = JSON.stringify({ currentPassword: $('current-password').value, newPassword: $('new-password').value });
  const res = await fetch('/api/auth/password', { method: 'POST', headers: json, body, credentials: 'same-origin' });
  if (res.ok) { $('password-form').reset(); show('password-status', 'Password changed. Other sessions are signed out.'); $('password-status').className = ''; return; }
  show('password-status', await problem(res));
  $('password-status').className = 'error';
}
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
    cell(row, token.scopes.join(' '));
    cell(row, token.createdAt.slice(0, 10));
    cell(row, token.lastUsedAt ? token.lastUsedAt.replace('T', ' ').slice(0, 19) : 'never');
    cell(row, token.expiresAt ? token.expiresAt.slice(0, 10) : 'never');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Revoke';
    button.className = 'revoke';
    button.addEventListener('click', () => revoke(token.id, token.name));
    const activity = document.createElement('button');
    activity.type = 'button';
    activity.textContent = 'Activity';
    activity.className = 'activity';
    activity.addEventListener('click', () => loadActivity(token.id, token.name));
    cell(row, '').append(activity, ' ', button);
    body.append(row);
  }
  label(body);
  $('no-tokens').hidden = tokens.length > 0;
}
async function mint(event) {
  event.preventDefault();
  const scopes = [...document.querySelectorAll('input[name=scope]:checked')].map((box) => box.value);
  const payload = { name: $('token-name').value, expiresInDays: Number($('token-days').value), scopes };
  const res = await fetch('/api/account/tokens', { method: 'POST', headers: json, body: JSON.stringify(payload), credentials: 'same-origin' });
  if (!res.ok) { show('mint-error', await problem(res)); return; }
  show('mint-error', '');
  const minted = await res.json();
  $('new-token').value = minted.token;
  $('new-token-box').hidden = false;
  $('token-name').value = '';
  await loadTokens();
}
async function loadActivity(id, name) {
  const res = await fetch('/api/account/tokens/' + encodeURIComponent(id) + '/activity?limit=50', { credentials: 'same-origin' });
  if (!res.ok) { show('tokens-error', await problem(res)); return; }
  const page = await res.json();
  $('activity-name').textContent = name;
  const body = $('activity-body');
  body.replaceChildren();
  for (const call of page.items) {
    const row = document.createElement('tr');
    cell(row, call.at.replace('T', ' ').slice(0, 19));
    cell(row, call.tool);
    cell(row, call.errorCode ? call.outcome + ' (' + call.errorCode + ')' : call.outcome);
    cell(row, Object.entries(call.quotaSpent).map(([q, n]) => q + ' ' + n).join(', '));
    cell(row, String(call.durationMs));
    const code = document.createElement('code');
    code.textContent = call.arguments === null ? '' : JSON.stringify(call.arguments);
    cell(row, '').append(code);
    body.append(row);
  }
  label(body);
  $('no-activity').hidden = page.items.length > 0;
  $('activity').hidden = false;
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
  location.assign('/');
}
async function erase(event) {
  event.preventDefault();
  if (!confirm('Erase your account and everything in it? This cannot be undone.')) return;
  const password = $('erase-password').value;
  const body = JSON.stringify(password ? { password } : {});
  const res = await fetch('/api/account', { method: 'DELETE', headers: json, body, credentials: 'same-origin' });
  if (res.ok) { location.reload(); return; }
  show('erase-error', await problem(res));
}
if ($('erase-form')) $('erase-form').addEventListener('submit', erase);
if ($('password-form')) $('password-form').addEventListener('submit', changePassword);
if ($('mint-form')) {
  $('mint-form').addEventListener('submit', mint);
  $('copy-token').addEventListener('click', copyToken);
  $('logout').addEventListener('click', logout);
  loadTokens();
}`;
