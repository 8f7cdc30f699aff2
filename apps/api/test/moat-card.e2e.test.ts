import { existsSync, mkdirSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@svc/service/testing';
import { build } from 'esbuild';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestContext, registerUser, type TestContext } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const isCI = process.env.CI === 'true' || process.env.CI === '1';
if (!available && !isCI) {
  console.warn(`skipping the moat card E2E: no chromium at ${CHROMIUM} (run scripts/ci-deps.sh)`);
}

/** Screenshots of the run (gitignored `test-artifacts/`, kept by CI as artifacts, never committed). */
const ARTIFACTS = resolve(import.meta.dirname, '../test-artifacts/moat-card');

/** The CSP a host MUST apply to an app that declares no `_meta.ui.csp` (SEP-1865). */
const DEFAULT_APP_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

const WIDTHS = [375, 1200] as const;
/** Each test opens Chromium four times or more: generous on a busy two-core machine. */
const BROWSER_TEST_MS = 180_000;
const THEMES = ['light', 'dark'] as const;

/**
 * The minimal host, run in the browser: ext-apps' own `AppBridge` over a `PostMessageTransport`
 * to the app's iframe, as a web host does (listening before the frame loads the app). It follows
 * the app's size notifications, and `window.showResult(input, result)` hands the app a tool
 * call's arguments and result.
 */
const HOST_SCRIPT = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
// The bridge listens before the app loads, or the app's ui/initialize could come first and be lost.
const iframe = document.createElement('iframe');
iframe.id = 'app';
iframe.setAttribute('sandbox', 'allow-scripts');
iframe.style.cssText = 'width:100%;height:200px;border:0;display:block';
document.body.append(iframe);
const theme = new URLSearchParams(location.search).get('theme') ?? 'light';
const bridge = new AppBridge(null, { name: 'e2e-host', version: '1.0.0' }, {}, {
  hostContext: { theme, displayMode: 'inline', platform: 'web' },
});
bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = height + 'px'; };
const initialized = new Promise((done) => { bridge.oninitialized = done; });
window.showResult = async (input, result) => {
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
};
await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
iframe.src = '/app.html';
`;

/** What the browser sees of the drawn card, in the page or in the app's frame. */
interface DrawnCard {
  criteria: { key: string; status: string; charts: number; years: number[]; xs: number[] }[];
  verdict: string;
  disclaimer: boolean;
  fiscalYears: string;
  scrollWidth: number;
  background: string;
}

/** Reads the card as drawn: per criterion its charts and their points' years and x positions. */
async function drawnCard(target: Page | Frame): Promise<DrawnCard> {
  // Runs in the browser (the DOM types are not in this Node-typed file).
  return target.evaluate(`(() => {
    const items = [...document.querySelectorAll('li.criterion')];
    return {
      criteria: items.map((li) => {
        const points = [...li.querySelectorAll('svg.trend-chart circle.point')];
        return {
          key: li.dataset.key,
          status: li.querySelector('.status').textContent,
          charts: li.querySelectorAll('svg.trend-chart').length,
          years: points.map((p) => Number(p.dataset.year)),
          xs: points.map((p) => p.getBoundingClientRect().x),
        };
      }),
      verdict: document.querySelector('.verdict')?.textContent ?? '',
      disclaimer: (document.querySelector('.disclaimer')?.textContent ?? '').includes('not financial advice'),
      fiscalYears: document.querySelector('.years')?.textContent ?? '',
      scrollWidth: document.documentElement.scrollWidth,
      background: getComputedStyle(document.body).backgroundColor,
    };
  })()`);
}

/** The checks both surfaces share: one chart per criterion with a trend, its points in order. */
function expectDrawn(
  drawn: DrawnCard,
  evaluation: Record<string, unknown>,
  width: number,
  theme: 'light' | 'dark',
) {
  const criteria = evaluation.criteria as {
    key: string;
    trend?: number[];
    _trendYears?: number[];
  }[];
  expect(drawn.criteria.map((c) => c.key)).toEqual(criteria.map((c) => c.key));
  for (const [i, c] of criteria.entries()) {
    const seen = drawn.criteria[i];
    expect(seen?.charts, c.key).toBe((c.trend ?? []).length > 0 ? 1 : 0);
    expect(seen?.years, c.key).toEqual(c._trendYears ?? []);
    const xs = seen?.xs ?? [];
    for (let j = 1; j < xs.length; j += 1) expect(xs[j], c.key).toBeGreaterThan(xs[j - 1] ?? 0);
  }
  expect(drawn.verdict).toBe(evaluation.verdict);
  expect(drawn.disclaimer).toBe(true);
  const years = evaluation._fiscalYears as number[];
  expect(drawn.fiscalYears).toContain(`FY${years[0]}–FY${years.at(-1)}`);
  expect(drawn.scrollWidth, 'nothing wider than the viewport').toBeLessThanOrEqual(width);
  expect(drawn.background).toBe(theme === 'dark' ? 'rgb(22, 24, 29)' : 'rgb(255, 255, 255)');
}

// In CI a missing browser is a failure (beforeAll throws), locally the suite is skipped.
describe.skipIf(!available && !isCI)('moat card in headless Chromium (page and MCP App)', () => {
  let ctx: TestContext;
  let browser: Browser;
  let base: string;
  let cookie: string;
  let token: string;
  let hostServer: Server;
  let hostBase: string;

  beforeAll(async () => {
    if (!available) throw new Error(`chromium is missing at ${CHROMIUM}: run scripts/ci-deps.sh`);
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({ env: { BASE_URL: base, ACCOUNT_URL: BASE_URL } });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    const user = await registerUser(ctx.app, 'card-e2e@example.com');
    cookie = user.cookie;
    ({ token } = await ctx.app.personalAccessTokens.mint(user.userId, { name: 'host' }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => (hostServer ? hostServer.close(done) : done(undefined)));
    await ctx?.close();
  });

  /** Opens a page that reports console errors (CSP violations included) and page errors. */
  async function open(width: number, theme: 'light' | 'dark') {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme: theme,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.location().url.endsWith('/favicon.ico')) {
        problems.push(`${msg.text()} ${msg.location().url}`);
      }
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { context, page, problems };
  }

  it(
    'draws the page /evaluation/{symbol} at 375 and 1200 px, light and dark',
    async () => {
      const evaluation = (await (
        await fetch(`${base}/api/stock-evaluation?symbol=AAPL`, { headers: { cookie } })
      ).json()) as Record<string, unknown>;
      const [name, value] = cookie.split('=') as [string, string];
      for (const width of WIDTHS) {
        for (const theme of THEMES) {
          const { context, page, problems } = await open(width, theme);
          await context.addCookies([{ name, value, url: base }]);
          // As a person meets it: the developer page links the card.
          await page.goto(`${base}/account/developer`);
          const [res] = await Promise.all([
            page.waitForResponse(`${base}/evaluation/AAPL`),
            page.click('#card-link'),
          ]);
          await page.waitForURL(`${base}/evaluation/AAPL`);
          expect(res.status()).toBe(200);
          expectDrawn(await drawnCard(page), evaluation, width, theme);
          await page.screenshot({
            path: resolve(ARTIFACTS, `page-${width}-${theme}.png`),
            fullPage: true,
          });
          expect(problems).toEqual([]);
          await context.close();
        }
      }
    },
    BROWSER_TEST_MS,
  );

  it(
    'renders the MCP App the tool names inside a host built on AppBridge, under the default CSP',
    async () => {
      const client = new Client({ name: 'e2e-host', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/user/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'getMoatEvaluation');
      const uri = (tool?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
      expect(uri).toBe('ui://moat/card.html');
      const resource = await client.readResource({ uri: uri as string });
      const [content] = resource.contents;
      expect(content?.mimeType).toBe('text/html;profile=mcp-app');
      const appHtml = content && 'text' in content ? content.text : '';
      const input = { symbol: 'AAPL' };
      const result = (await client.callTool({
        name: 'getMoatEvaluation',
        arguments: input,
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const failed = (await client.callTool({
        name: 'getMoatEvaluation',
        arguments: { symbol: 'ZZZZ' },
      })) as CallToolResult;
      expect(failed.isError).toBe(true);
      await client.close();

      const hostJs = await build({
        stdin: { contents: HOST_SCRIPT, resolveDir: import.meta.dirname, loader: 'js' },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'error',
      });
      const files: Record<string, { type: string; body: string; csp?: string }> = {
        '/host.html': {
          type: 'text/html',
          body:
            '<!doctype html><html><head><meta charset="utf-8"><title>host</title></head>' +
            '<body style="margin:0"><script type="module" src="/host.js"></script></body></html>',
        },
        '/host.js': { type: 'text/javascript', body: hostJs.outputFiles[0]?.text ?? '' },
        '/app.html': { type: 'text/html', body: appHtml, csp: DEFAULT_APP_CSP },
      };
      hostServer = createHttpServer((req, res) => {
        const file = files[new URL(req.url ?? '/', 'http://x').pathname];
        if (!file) return void res.writeHead(404).end();
        res.writeHead(200, {
          'content-type': `${file.type}; charset=utf-8`,
          ...(file.csp ? { 'content-security-policy': file.csp } : {}),
        });
        res.end(file.body);
      });
      const hostPort = await freePort();
      await new Promise<void>((done) => hostServer.listen(hostPort, '127.0.0.1', done));
      hostBase = `http://127.0.0.1:${hostPort}`;

      const evaluation = result.structuredContent as Record<string, unknown>;
      for (const width of WIDTHS) {
        for (const theme of THEMES) {
          const { context, page, problems } = await open(width, theme);
          await page.goto(`${hostBase}/host.html?theme=${theme}`);
          await page.waitForFunction('typeof window.showResult === "function"');
          await page.evaluate(
            ([args, answer]) =>
              (
                globalThis as unknown as { showResult: (a: unknown, r: unknown) => Promise<void> }
              ).showResult(args, answer),
            [input, result] as const,
          );
          const frame = page.frames().find((f) => f.url().endsWith('/app.html')) as Frame;
          await frame.waitForSelector('article.moat-card');
          // The host's theme reaches the app (hostContext), whatever the system's.
          expect(await frame.evaluate('document.documentElement.dataset.theme')).toBe(theme);
          expectDrawn(await drawnCard(frame), evaluation, width, theme);
          // The app told the host its height; the host grew the frame to it.
          await page.waitForFunction(
            'document.getElementById("app").getBoundingClientRect().height > 1000',
          );
          // A sandboxed frame paints only inside the viewport: make the viewport the frame's height.
          const height = Number(
            await page.evaluate(
              'Math.ceil(document.getElementById("app").getBoundingClientRect().height)',
            ),
          );
          await page.setViewportSize({ width, height });
          await frame.evaluate(
            'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))',
          );
          await page.screenshot({ path: resolve(ARTIFACTS, `app-${width}-${theme}.png`) });
          expect(problems).toEqual([]);
          await context.close();
        }
      }

      // A failed call: the app says why, with the problem's detail, and draws no card.
      const { context, page, problems } = await open(375, 'light');
      await page.goto(`${hostBase}/host.html?theme=light`);
      await page.waitForFunction('typeof window.showResult === "function"');
      await page.evaluate(
        ([args, answer]) =>
          (
            globalThis as unknown as { showResult: (a: unknown, r: unknown) => Promise<void> }
          ).showResult(args, answer),
        [{ symbol: 'ZZZZ' }, failed] as const,
      );
      const frame = page.frames().find((f) => f.url().endsWith('/app.html')) as Frame;
      await frame.waitForSelector('.card-status:has-text("No evaluation")');
      expect(await frame.textContent('.card-status')).toBe(
        'No evaluation: Insufficient fundamental data to evaluate this symbol.',
      );
      expect(await frame.locator('article.moat-card').count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    },
    BROWSER_TEST_MS,
  );
});
