import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStore, parseCommandConfig } from '@svc/service';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fillCacheCommand } from './fill-cache-command.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);

let dataDir: string;
let out: string;
let err: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-fill-cache-'));
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dataDir, { recursive: true, force: true });
});

/** The offline environment: shared data, embedded database in a temp DATA_DIR. */
const env = () => ({ SHARED_DATA_DIR: SHARED, DATA_DIR: dataDir });

async function cachedSymbols(): Promise<string[]> {
  const store = await openStore(parseCommandConfig({ DATA_DIR: dataDir }));
  try {
    const page = await store.repos.screener.screen({ sortBy: 'symbol' });
    return page.items.map((r) => r.symbol);
  } finally {
    await store.close();
  }
}

describe('svc fill-cache', { timeout: 60_000 }, () => {
  it('fills the embedded database from the snapshot provider and reports failures', async () => {
    const code = await fillCacheCommand(['AAPL', 'ZZZZ', 'mnst'], env());
    expect(code).toBe(0);
    expect(out).toMatch(/evaluated: 2\b/);
    expect(out).toMatch(/failed: +1 \(insufficient_data 1\)/);
    expect(err).toMatch(/\[1\/3\] \S+ (ok|failed)/);
    expect(err).toMatch(/ZZZZ failed insufficient_data/);
    expect(await cachedSymbols()).toEqual(['AAPL', 'MNST']);
  });

  it('keeps each run in the evaluation history (trigger fill-cache)', async () => {
    expect(await fillCacheCommand(['AAPL'], env())).toBe(0);
    expect(await fillCacheCommand(['aapl'], env())).toBe(0);
    const store = await openStore(parseCommandConfig({ DATA_DIR: dataDir }));
    try {
      const { items, total } = await store.repos.evaluationHistory.list('AAPL', {
        limit: 10,
        offset: 0,
      });
      expect(total).toBe(2);
      expect(items.map((i) => [i.trigger, i.scoreChange])).toEqual([
        ['fill-cache', 0],
        ['fill-cache', null],
      ]);
      expect(items[0]?.filings.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('fills from the SimFin bulk CSVs with --provider simfin (JSON summary)', async () => {
    // `--all` over the whole download takes ~20 s: run it by hand (`pnpm fill-cache --all …`).
    const code = await fillCacheCommand(['KO', 'MCO', '--provider', 'simfin', '--json'], env());
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ provider: 'simfin', evaluated: 2, failed: [] });
    expect(err).not.toMatch(/snapshot provider/);
    expect(await cachedSymbols()).toEqual(['KO', 'MCO']);
  });

  it('exits 1 when every ticker fails', async () => {
    expect(await fillCacheCommand(['ZZZZ'], env())).toBe(1);
  });

  it.each([
    [[], /at least one ticker/],
    [['AAPL', '--all'], /not both/],
    [['AAPL', '--provider', 'yahoo'], /unknown provider/],
    [['AAPL', '--concurrency', '0'], /--concurrency/],
  ])('rejects %j as a usage error', async (argv, message) => {
    expect(await fillCacheCommand(argv, env())).toBe(2);
    expect(err).toMatch(message);
  });

  it('refuses --all for a provider that cannot list its companies', async () => {
    const code = await fillCacheCommand(['--all', '--provider', 'sec-edgar'], {
      ...env(),
      SEC_USER_AGENT: 'Test test@example.com',
    });
    expect(code).toBe(2);
    expect(err).toMatch(/cannot list its companies/);
  });
});
