/**
 * The script of `/signin` and `/signup` (inlined with the page's CSP nonce): posts the form as
 * JSON to `POST /api/auth/login` or `/api/auth/register` (same-origin `fetch`, so the browser
 * sends the `Origin` the cross-site check wants) and goes to the form's `data-next` (a same-site
 * path the server already checked) when signed in; a refusal shows the problem's `detail`.
 */
export const AUTH_PAGE_SCRIPT = `
const form = document.getElementById('auth-form');
const error = document.getElementById('auth-error');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = Object.fromEntries(new FormData(form));
  if (data.name === '') delete data.name;
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const res = await fetch(form.dataset.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data), credentials: 'same-origin' });
    if (res.ok) { location.assign(form.dataset.next); return; }
    let text = res.statusText;
    try { const body = await res.json(); text = body.detail || body.title || text; } catch {}
    error.textContent = text;
    error.hidden = false;
    error.focus();
  } finally { button.disabled = false; }
});`;
