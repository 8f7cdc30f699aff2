import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fillCacheCommand } from './fill-cache-command.js';
import { refreshCommand } from './refresh-command.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const TEN_K = '0000320193-25-000079';

let dataDir: string;
let out: string;
let err: string;
let server: Server;
let sec: string;
const requests: { path: string; userAgent: string | undefined }[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-refresh-'));
  out = '';
  err = '';
  requests.length = 0;
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  // SEC's web origin, replayed: the ticker map of the shared data and one daily index.
  const tickers = readFileSync(join(SHARED, 'sec/company_tickers_2026-02-13.json'));
  const index = [
    'Form Type   Company Name   CIK   Date Filed  File Name',
    '-'.repeat(141),
    `10-K             Apple Inc.                                                    320193      20251031    edgar/data/320193/${TEN_K}.txt`,
    '8-K              Apple Inc.                                                    320193      20251031    edgar/data/320193/0000320193-25-000080.txt',
  ].join('\n');
  server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', userAgent: req.headers['user-agent'] });
    if (req.url === '/files/company_tickers.json') res.writeHead(200).end(tickers);
    else if (req.url === '/Archives/edgar/daily-index/2025/QTR4/form.20251031.idx')
      res.writeHead(200).end(index);
    else res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  sec = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((done) => server.close(() => done()));
  await rm(dataDir, { recursive: true, force: true });
});

const env = () => ({
  SHARED_DATA_DIR: SHARED,
  DATA_DIR: dataDir,
  FUNDAMENTALS_PROVIDER: 'snapshot',
  SEC_USER_AGENT: 'Issue33 CLI cli@example.com',
  SEC_WWW_URL: sec,
  SEC_DATA_URL: sec,
});

describe('svc refresh', { timeout: 60_000 }, () => {
  it('reads the day’s index, re-evaluates the cached company that filed, and says so', async () => {
    expect(await fillCacheCommand(['AAPL', 'JNJ'], env())).toBe(0);
    out = '';
    expect(await refreshCommand(['--date', '2025-10-31'], env())).toBe(0);
    expect(out).toContain('2025-10-31  index read: 1 annual filing(s), 1 of cached companies');
    expect(out).toMatch(new RegExp(`AAPL\\s+10-K\\s+${TEN_K} filed 2025-10-31  re-evaluated: `));
    // The snapshot's figures did not move: kept, without an event.
    expect(out).toContain('(no change)');
    expect(requests.every((r) => r.userAgent === 'Issue33 CLI cli@example.com')).toBe(true);

    out = '';
    expect(await refreshCommand(['--date', '2025-10-31', '--json'], env())).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ filings: [] });
  });

  it('refuses a bad date and runs only with SEC_USER_AGENT', async () => {
    expect(await refreshCommand(['--date', '31.10.2025'], env())).toBe(2);
    expect(err).toContain('--date must be a day');
    const { SEC_USER_AGENT: _, ...without } = env();
    expect(await refreshCommand([], without)).toBe(2);
    expect(err).toContain('set SEC_USER_AGENT');
  });
});
