import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshotProvider } from '../src/index.js';
import { companyFacts, netIncomeYears } from './support/companyfacts-builder.js';
import { COMPANYFACTS_DIR, SEC_DIR } from './support/shared-data.js';

let bulkDir: string;
let fixtureDir: string;

beforeAll(async () => {
  // SEC bulk layout: CIK##########.json + company_tickers.json + submissions/, linked to real files.
  bulkDir = await mkdtemp(join(tmpdir(), 'fc-snapshot-'));
  await symlink(
    join(COMPANYFACTS_DIR, 'AAPL_CIK0000320193.json'),
    join(bulkDir, 'CIK0000320193.json'),
  );
  await symlink(
    join(COMPANYFACTS_DIR, 'BF-B_CIK0000014693.json'),
    join(bulkDir, 'CIK0000014693.json'),
  );
  await symlink(
    join(SEC_DIR, 'company_tickers_2026-02-13.json'),
    join(bulkDir, 'company_tickers.json'),
  );
  await mkdir(join(bulkDir, 'submissions'));
  await symlink(
    join(SEC_DIR, 'submissions/CIK0000320193.json'),
    join(bulkDir, 'submissions/CIK0000320193.json'),
  );
  // Hand-made fixtures in the TICKER_CIK layout.
  fixtureDir = await mkdtemp(join(tmpdir(), 'fc-fixtures-'));
  const write = (name: string, body: unknown) =>
    writeFile(join(fixtureDir, name), JSON.stringify(body));
  await write(
    'TWO_CIK0000000002.json',
    companyFacts({ NetIncomeLoss: netIncomeYears([2022, 2023]) }),
  );
  await write(
    'FOUR_CIK0000000004.json',
    companyFacts({ NetIncomeLoss: netIncomeYears([2020, 2021, 2022, 2023]) }, { cik: 4 }),
  );
  await writeFile(join(fixtureDir, 'BAD_CIK0000000009.json'), '{"cik": 9, "entityName": "Bad"');
  await write('ODD_CIK0000000010.json', { hello: 'world' });
});

afterAll(async () => {
  await rm(bulkDir, { recursive: true, force: true });
  await rm(fixtureDir, { recursive: true, force: true });
});

describe('createSnapshotProvider', () => {
  it('resolves tickers through company_tickers.json in the SEC bulk layout, with submissions', async () => {
    const provider = createSnapshotProvider({ dir: bulkDir });
    const f = await provider.getFundamentals('aapl');
    expect(provider.name).toBe('snapshot');
    expect(f.provider).toBe('snapshot');
    expect(f.company).toMatchObject({
      ticker: 'AAPL',
      cik: '0000320193',
      name: 'Apple Inc.',
      sicCode: '3571',
      sicDescription: 'Electronic Computers',
      sector: 'Manufacturing',
      industry: 'Electronic Computers',
      fiscalYearEnd: '09-26',
    });
    expect(f.years).toHaveLength(19);
    expect(Date.parse(f.retrievedAt ?? '')).not.toBeNaN();
  });

  it('treats BF.B and BF-B as the same ticker, without submissions', async () => {
    const provider = createSnapshotProvider({ dir: bulkDir });
    const dot = await provider.getFundamentals('BF.B');
    expect(dot.company).toMatchObject({
      ticker: 'BF-B',
      cik: '0000014693',
      sicCode: null,
      sector: null,
    });
    expect(await provider.getFundamentals('bf-b')).toBe(dot); // cached: parsed once
  });

  it('resolves the TICKER_CIK layout from file names, and parses each ticker once', async () => {
    const provider = createSnapshotProvider({ dir: fixtureDir });
    const [a, b] = await Promise.all([
      provider.getFundamentals('FOUR'),
      provider.getFundamentals('four'),
    ]);
    expect(a).toBe(b);
    expect(a.company).toMatchObject({ ticker: 'FOUR', cik: '0000000004', name: 'Test Corp' });
  });

  it.each([
    ['an unknown ticker', 'NOPE', 'insufficient_data'],
    ['fewer usable years than minYears', 'TWO', 'insufficient_data'],
    ['a malformed symbol', 'BAD TICKER', 'invalid_symbol'],
    ['a truncated JSON file', 'BAD', 'parse_failed'],
    ['a JSON file that is not companyfacts', 'ODD', 'parse_failed'],
  ])('rejects %s with %s', async (_name, ticker, code) => {
    const provider = createSnapshotProvider({ dir: fixtureDir });
    await expect(provider.getFundamentals(ticker)).rejects.toMatchObject({
      name: 'FundamentalsError',
      code,
    });
  });

  it('lists the tickers that resolve to a file (file-name prefixes and company_tickers.json)', async () => {
    expect(await createSnapshotProvider({ dir: fixtureDir }).listTickers()).toEqual([
      'BAD',
      'FOUR',
      'ODD',
      'TWO',
    ]);
    // company_tickers.json maps ~10,000 tickers; only those whose CIK has a file are listed.
    const bulk = await createSnapshotProvider({ dir: bulkDir }).listTickers();
    expect(bulk).toEqual(expect.arrayContaining(['AAPL', 'BF-B']));
    expect(bulk).not.toContain('MSFT');
    expect(bulk.every((t) => ['AAPL', 'BF-A', 'BF-B'].includes(t))).toBe(true);
  });

  it('honours minYears', async () => {
    const provider = createSnapshotProvider({ dir: fixtureDir, minYears: 2 });
    expect((await provider.getFundamentals('TWO')).years).toHaveLength(2);
  });

  it('answers upstream_unavailable when the folder does not exist', async () => {
    const provider = createSnapshotProvider({ dir: join(fixtureDir, 'missing') });
    await expect(provider.getFundamentals('AAPL')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
  });

  it('rejects an already aborted call', async () => {
    const provider = createSnapshotProvider({ dir: fixtureDir });
    await expect(
      provider.getFundamentals('FOUR', { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
