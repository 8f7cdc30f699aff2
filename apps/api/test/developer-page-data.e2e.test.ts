import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { freePort } from '@svc/service/testing';
import { AccountExport, GhostfolioExport } from '@svc/use-cases';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const isCI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Issue 30: the developer page's "Your data" controls in a real browser: both export links
 * download the account, the erase form refuses a wrong password and erases with the right one.
 */
describe.skipIf(!available && !isCI)(
  'developer page: export and erase in headless Chromium',
  () => {
    let ctx: TestContext;
    let browser: Browser;
    let base: string;

    beforeAll(async () => {
      if (!available) throw new Error(`chromium is missing at ${CHROMIUM}: run scripts/ci-deps.sh`);
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      ctx = await createTestContext({ env: { BASE_URL: base } });
      await ctx.app.listen({ port, host: '127.0.0.1' });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    });
    afterAll(async () => {
      await browser?.close();
      await ctx?.close();
    });

    it('downloads both exports, then erases the account after a confirmation', async () => {
      const email = 'leaving@example.com';
      const password = 'correct horse battery';
      const register = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ email, password }),
      });
      expect(register.status).toBe(201);
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${base}/account/developer`);
      await page.fill('#email', email);
      await page.fill('#password', password);
      await page.click('#auth-form button[type=submit]');
      await page.waitForSelector('#who');

      for (const [link, schema] of [
        ['#export-native', AccountExport],
        ['#export-ghostfolio', GhostfolioExport],
      ] as const) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(link)]);
        expect(download.suggestedFilename()).toMatch(/export-\d{4}-\d{2}-\d{2}\.json$/);
        const text = await readFile(await download.path(), 'utf8');
        expect(schema.safeParse(JSON.parse(text)).success, link).toBe(true);
      }

      page.on('dialog', (dialog) => void dialog.accept());
      await page.fill('#erase-password', 'not my password');
      await page.click('#erase');
      await page.waitForSelector('#erase-error:not([hidden])');
      expect(await page.textContent('#erase-error')).toContain('password');

      await page.fill('#erase-password', password);
      await page.click('#erase');
      await page.waitForSelector('#auth-form');
      const user = await ctx.repos.users.findByEmail(email);
      expect(user).toBeUndefined();
      expect(problems).toEqual([]);
      await context.close();
    });
  },
);
