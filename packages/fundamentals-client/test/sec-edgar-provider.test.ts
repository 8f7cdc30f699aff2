import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSecEdgarProvider, type SecEdgarProviderOptions } from '../src/index.js';
import { COMPANYFACTS_DIR, SEC_DIR } from './support/shared-data.js';

/**
 * A real HTTP server on 127.0.0.1 that replays SEC's documents from shared/data, with scripted
 * failures per path (`503`, `429`, `slow`) consumed one per request.
 */
interface Hit {
  path: string;
  userAgent: string | undefined;
  at: number;
}
const hits: Hit[] = [];
const scripts = new Map<string, string[]>();
let server: Server;
let base: string;

const factsFileByCik = new Map(
  readdirSync(COMPANYFACTS_DIR).map((n) => [
    /CIK(\d{10})/.exec(n)?.[1] ?? '',
    join(COMPANYFACTS_DIR, n),
  ]),
);

function route(path: string): string | undefined {
  if (path === '/files/company_tickers.json')
    return join(SEC_DIR, 'company_tickers_2026-02-13.json');
  const facts = /^\/api\/xbrl\/companyfacts\/CIK(\d{10})\.json$/.exec(path);
  if (facts) return factsFileByCik.get(facts[1] ?? '');
  const subs = /^\/submissions\/(CIK\d{10}\.json)$/.exec(path);
  if (subs) {
    const file = join(SEC_DIR, 'submissions', subs[1] ?? '');
    return existsSync(file) ? file : undefined;
  }
  return undefined;
}

function serveFile(res: ServerResponse, file: string | undefined) {
  if (!file) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  createReadStream(file).pipe(res);
}

function handle(req: IncomingMessage, res: ServerResponse) {
  const path = req.url ?? '/';
  hits.push({ path, userAgent: req.headers['user-agent'], at: performance.now() });
  const step = scripts.get(path)?.shift();
  if (step === '503' || step === '429') {
    res.writeHead(Number(step), { 'content-type': 'text/plain' }).end('try later');
  } else if (step === 'slow') {
    const timer = setTimeout(() => serveFile(res, route(path)), 2_000);
    res.on('close', () => clearTimeout(timer));
  } else {
    serveFile(res, route(path));
  }
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits.length = 0;
  scripts.clear();
});

const UA = 'Moat Service Tests tests@example.com';
const provider = (options: Partial<SecEdgarProviderOptions> = {}) =>
  createSecEdgarProvider({
    userAgent: UA,
    baseUrl: base,
    tickersUrl: `${base}/files/company_tickers.json`,
    retryMinTimeoutMs: 10,
    now: () => new Date('2026-07-01T12:00:00Z'),
    ...options,
  });
const hitsOn = (path: string) => hits.filter((h) => h.path === path).length;
const AAPL_FACTS = '/api/xbrl/companyfacts/CIK0000320193.json';
const JNJ_FACTS = '/api/xbrl/companyfacts/CIK0000200406.json';

describe('createSecEdgarProvider: configuration', () => {
  it.each([
    ['no User-Agent', { userAgent: '' }],
    ['a User-Agent without contact email', { userAgent: 'MyApp/1.0' }],
    ['more than 10 requests per second', { maxRequestsPerSecond: 11 }],
    ['zero requests per second', { maxRequestsPerSecond: 0 }],
    ['a fractional rate', { maxRequestsPerSecond: 2.5 }],
  ])('throws invalid_config for %s', (_name, options) => {
    expect(() => createSecEdgarProvider({ userAgent: UA, ...options })).toThrowError(
      expect.objectContaining({ name: 'FundamentalsError', code: 'invalid_config' }),
    );
  });
});

describe('createSecEdgarProvider against a local SEC replay server', () => {
  it('fetches tickers, companyfacts and submissions with the configured User-Agent', async () => {
    const f = await provider().getFundamentals('aapl');
    expect(f).toMatchObject({ provider: 'sec-edgar', retrievedAt: '2026-07-01T12:00:00.000Z' });
    expect(f.company).toMatchObject({
      ticker: 'AAPL',
      cik: '0000320193',
      sicCode: '3571',
      fiscalYearEnd: '09-26',
    });
    expect(f.years.at(-1)?.revenue?.value).toBe(416_161e6);
    expect(hits.map((h) => h.path).sort()).toEqual([
      AAPL_FACTS,
      '/files/company_tickers.json',
      '/submissions/CIK0000320193.json',
    ]);
    expect(new Set(hits.map((h) => h.userAgent))).toEqual(new Set([UA]));
  });

  it('reads a company as of a day, cached apart from its latest figures', async () => {
    const p = provider();
    const latest = await p.getFundamentals('AAPL');
    const then = await p.getFundamentals('AAPL', { asOf: '2019-06-30' });
    expect(then.asOf).toBe('2019-06-30');
    expect(then.years.at(-1)?.fiscalYear).toBe(2018);
    expect(then.years.at(-1)?.netIncome?.source.filed).toBe('2018-11-05');
    expect(latest.asOf).toBeUndefined();
    expect(await p.getFundamentals('AAPL', { asOf: '2019-06-30' })).toBe(then);
    expect(await p.getFundamentals('AAPL')).toBe(latest);
    expect(hitsOn(AAPL_FACTS)).toBe(2);
    await expect(p.getFundamentals('AAPL', { asOf: '2009-06-30' })).rejects.toMatchObject({
      code: 'insufficient_history',
    });
  });

  it('caches the ticker map and parsed companies', async () => {
    const p = provider();
    await p.getFundamentals('AAPL');
    await p.getFundamentals('JNJ');
    await p.getFundamentals('AAPL');
    expect(hitsOn('/files/company_tickers.json')).toBe(1);
    expect(hitsOn(AAPL_FACTS)).toBe(1);
  });

  it('retries 503 and 429 answers and then succeeds', async () => {
    scripts.set(JNJ_FACTS, ['503', '429']);
    const f = await provider({ retries: 3 }).getFundamentals('JNJ');
    expect(f.years.at(-1)?.netIncome?.value).toBe(26_804e6);
    expect(hitsOn(JNJ_FACTS)).toBe(3);
  });

  it('gives up with upstream_unavailable after the retries', async () => {
    scripts.set(JNJ_FACTS, ['503', '503', '503', '503']);
    await expect(provider({ retries: 2 }).getFundamentals('JNJ')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
    expect(hitsOn(JNJ_FACTS)).toBe(3);
  });

  it('times out a slow answer and retries it', async () => {
    scripts.set(JNJ_FACTS, ['slow']);
    const f = await provider({ timeoutMs: 300, retries: 1 }).getFundamentals('JNJ');
    expect(f.company.ticker).toBe('JNJ');
    expect(hitsOn(JNJ_FACTS)).toBe(2);
  });

  it('answers upstream_unavailable when every attempt times out', async () => {
    scripts.set(JNJ_FACTS, ['slow', 'slow']);
    await expect(
      provider({ timeoutMs: 200, retries: 1 }).getFundamentals('JNJ'),
    ).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
    expect(hitsOn(JNJ_FACTS)).toBe(2);
  });

  it('answers insufficient_data for an unknown ticker and for a 404 companyfacts', async () => {
    const p = provider();
    await expect(p.getFundamentals('ZZZZZZZZ')).rejects.toMatchObject({
      code: 'insufficient_data',
    });
    // MSFT resolves to a CIK but the replay server has no companyfacts for it: 404, not retried
    await expect(p.getFundamentals('MSFT')).rejects.toMatchObject({ code: 'insufficient_data' });
    expect(hitsOn('/api/xbrl/companyfacts/CIK0000789019.json')).toBe(1);
  });

  it('rejects a malformed symbol before any request', async () => {
    await expect(provider().getFundamentals('$$$')).rejects.toMatchObject({
      code: 'invalid_symbol',
    });
    expect(hits).toHaveLength(0);
  });

  it('still answers when only the submissions document fails', async () => {
    scripts.set('/submissions/CIK0000320193.json', ['503', '503']);
    const f = await provider({ retries: 1 }).getFundamentals('AAPL');
    expect(f.company).toMatchObject({ sicCode: null, sector: null, name: 'Apple Inc.' });
  });

  it('answers upstream_unavailable when nothing listens', async () => {
    const dead = 'http://127.0.0.1:9';
    const p = provider({
      baseUrl: dead,
      tickersUrl: `${dead}/files/company_tickers.json`,
      retries: 1,
    });
    await expect(p.getFundamentals('AAPL')).rejects.toMatchObject({ code: 'upstream_unavailable' });
  });

  it('rejects with the abort reason when the caller aborts', async () => {
    await expect(
      provider().getFundamentals('AAPL', { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('never starts more than maxRequestsPerSecond requests in any second', async () => {
    const p = provider({ maxRequestsPerSecond: 4 });
    await Promise.all(['AAPL', 'JNJ', 'WMT'].map((t) => p.getFundamentals(t)));
    expect(hits).toHaveLength(7); // 1 ticker map + 3 × (companyfacts + submissions)
    const times = hits.map((h) => h.at).sort((a, b) => a - b);
    // Count arrivals per rolling window at the server. The client throttle spaces the 1st and
    // 5th start ≥ 1000 ms apart; 900 ms leaves room for socket jitter without flaking.
    const maxInWindow = Math.max(
      ...times.map((t) => times.filter((u) => u >= t && u < t + 900).length),
    );
    expect(maxInWindow).toBeLessThanOrEqual(4);
  });
});
