import { existsSync } from 'node:fs';
import { freePort } from '@svc/service/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const isCI = process.env.CI === 'true' || process.env.CI === '1';
if (!available && !isCI) {
  console.warn(
    `skipping the developer page E2E: no chromium at ${CHROMIUM} (run scripts/ci-deps.sh)`,
  );
}

// In CI a missing browser is a failure (beforeAll throws), locally the suite is skipped.
describe.skipIf(!available && !isCI)('developer page in headless Chromium', () => {
  let ctx: TestContext;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    if (!available) throw new Error(`chromium is missing at ${CHROMIUM}: run scripts/ci-deps.sh`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({
      env: { BASE_URL: base },
      beforeReady: (app) => {
        // Stand-in for the MCP server: a route guarded by the exported PAT guard.
        app.get('/test/whoami', { onRequest: app.requirePersonalAccessToken }, async (request) => ({
          email: request.tokenUser?.email,
        }));
      },
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('signs in, mints and copies a token, uses it, revokes it and sees it refused', async () => {
    const register = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        email: 'dev@example.com',
        password: 'correct horse battery',
        name: 'Dev <b>',
      }),
    });
    expect(register.status).toBe(201);

    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      // The browser's own favicon probe is the only request allowed to 404.
      if (msg.type() === 'error' && !msg.location().url.endsWith('/favicon.ico')) {
        problems.push(`${msg.text()} ${msg.location().url}`);
      }
    });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`${base}/account/developer`);
    await page.fill('#email', 'dev@example.com');
    await page.fill('#password', 'correct horse battery');
    await page.click('#auth-form button[type=submit]');
    await page.waitForSelector('#who');
    expect(await page.textContent('#who')).toBe('Dev <b> (dev@example.com)');

    await page.fill('#token-name', 'e2e agent');
    await page.click('#mint-form button[type=submit]');
    await page.waitForSelector('#new-token-box:not([hidden])');
    const shown = await page.inputValue('#new-token');
    expect(shown).toMatch(/^svc_pat_[\w-]{43}$/);
    await page.click('#copy-token');
    await page.waitForSelector('#copy-status:not([hidden])');
    // Runs in the page: `navigator` is the browser's (this file is typed for Node).
    const copied = await page.evaluate('navigator.clipboard.readText()');
    expect(copied).toBe(shown);

    const row = page.locator('#tokens-body tr', { hasText: 'e2e agent' });
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe(`${shown.slice(0, 14)}…`);

    const use = () =>
      fetch(`${base}/test/whoami`, { headers: { authorization: `Bearer ${copied}` } });
    const ok = await use();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ email: 'dev@example.com' });

    await row.locator('button.revoke').click();
    await row.waitFor({ state: 'detached' });
    const refused = await use();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');

    expect(problems).toEqual([]);
    await context.close();
  });
});
