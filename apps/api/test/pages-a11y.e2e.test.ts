import { existsSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { freePort } from '@svc/service/testing';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const isCI = process.env.CI === 'true' || process.env.CI === '1';
/** Set to a directory to keep a screenshot of every page at both widths and schemes. */
const SHOTS = process.env.SCREENSHOT_DIR;
if (!available && !isCI) {
  console.warn(`skipping the pages E2E: no chromium at ${CHROMIUM} (run scripts/ci-deps.sh)`);
}

const EMAIL = 'a11y@example.com';
const PASSWORD = 'correct horse battery';

/**
 * The people's pages in headless Chromium (issue 42): sign-up through the form, then every page
 * (`/`, `/signup`, the developer page, the card of a strong company and of one with missing
 * years) at 375 px and 1200 px, light and dark: no axe-core violation rated serious or critical
 * (WCAG 2.1 A/AA rules), nothing wider than the viewport, and the search box works from the
 * keyboard.
 */
describe.skipIf(!available && !isCI)('pages in headless Chromium: axe, 375 px, keyboard', () => {
  let ctx: TestContext;
  let browser: Browser;
  let base: string;
  let signedIn: BrowserContext;

  beforeAll(async () => {
    if (!available) throw new Error(`chromium is missing at ${CHROMIUM}: run scripts/ci-deps.sh`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({ env: { BASE_URL: base } });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('signs up through /signup and comes back to the page asked for', async () => {
    signedIn = await browser.newContext();
    const page = await signedIn.newPage();
    await page.goto(`${base}/evaluation/MA`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/evaluation/MA');
    await page.click('text=Create an account');
    await page.fill('#email', EMAIL);
    await page.fill('#password', PASSWORD);
    await page.click('#auth-form button[type=submit]');
    await page.waitForURL(`${base}/evaluation/MA`);
    expect(await page.textContent('h1')).toContain('MA');
  }, 60_000);

  it('every page: no serious or critical axe violation, fits 375 px, light and dark', async () => {
    const pages = [
      { name: 'home', path: '/', signed: false },
      { name: 'signup', path: '/signup', signed: false },
      { name: 'developer', path: '/account/developer', signed: true },
      { name: 'card-strong', path: '/evaluation/MA', signed: true },
      { name: 'card-weak-gaps', path: '/evaluation/CCL', signed: true },
    ];
    const cookies = await signedIn.cookies();
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [375, 1200]) {
        const context = await browser.newContext({
          colorScheme,
          viewport: { width, height: 800 },
        });
        for (const p of pages) {
          await context.clearCookies();
          if (p.signed) await context.addCookies(cookies);
          const page = await context.newPage();
          const res = await page.goto(`${base}${p.path}`);
          expect(res?.status(), p.path).toBe(200);
          if (p.signed && p.name === 'developer') await page.waitForSelector('#no-tokens, tr');
          // a string: this test is compiled without the DOM library
          const wide = Number(
            await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'),
          );
          if (wide > 0) found.push(`${p.name} ${width}px ${colorScheme}: ${wide}px too wide`);
          if (width === 375) {
            const axe = await new AxeBuilder({ page })
              .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
              .analyze();
            for (const v of axe.violations) {
              if (v.impact === 'serious' || v.impact === 'critical') {
                const where = v.nodes.map((n) => n.target.join(' ')).slice(0, 3);
                found.push(
                  `${p.name} ${colorScheme}: ${v.id} (${v.impact}) at ${where.join(', ')}`,
                );
              }
            }
          }
          if (SHOTS) {
            await page.screenshot({
              path: join(SHOTS, `${p.name}-${width}-${colorScheme}.png`),
              fullPage: true,
            });
          }
          await page.close();
        }
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 240_000);

  it('the search box works from the keyboard', async () => {
    const page = await signedIn.newPage();
    await page.goto(`${base}/`);
    // Tab to the ticker field: the navigation's links come first
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate('document.activeElement?.id')) === 'symbol') break;
    }
    expect(await page.evaluate('document.activeElement?.id')).toBe('symbol');
    await page.keyboard.type('ma');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/evaluation/MA`);
    await page.close();
  }, 60_000);
});
