import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA_DIR } from '../../test/support/shared-data.js';
import { createSimfinProvider } from './simfin-provider.js';
import { simfinCsv } from './test-csv.js';

const SIMFIN_DIR = join(SHARED_DATA_DIR, 'fundamentals/raw/simfin_us_annual_2021-04');
const M = 1_000_000;

let fixtureDir: string;
let badDir: string;

const incomeRow = (ticker: string, fy: number, netIncome: number | string) => [
  ticker,
  1,
  'USD',
  fy,
  'FY',
  `${fy}-12-31`,
  `${fy + 1}-02-20`,
  '',
  10,
  1000,
  netIncome,
  netIncome,
];

beforeAll(async () => {
  fixtureDir = await mkdtemp(join(tmpdir(), 'simfin-fixture-'));
  const income = simfinCsv(
    ['Shares (Diluted)', 'Revenue', 'Net Income', 'Net Income (Common)'],
    [
      ...[2017, 2018, 2019].map((fy) => incomeRow('BRK.B', fy, 100)),
      ...[2018, 2019].map((fy) => incomeRow('TWO', fy, 5)),
      // Only two years with net income: blank net income does not count as a usable year.
      ...[2016, 2017, 2018, 2019].map((fy) => incomeRow('GAPS', fy, fy < 2018 ? '' : 5)),
      incomeRow('AGN_old', 2019, 1),
      ['TWO', 1, 'USD', 2019, 'Q4', '2019-12-31', '', '', 1, 1, 1, 1], // not an annual income row
    ],
  );
  await writeFile(join(fixtureDir, 'us-income-annual.csv'), income);
  await writeFile(join(fixtureDir, 'us-balance-annual.csv'), simfinCsv(['Total Equity'], []));
  await writeFile(join(fixtureDir, 'us-cashflow-annual.csv'), simfinCsv(['Dividends Paid'], []));
  await writeFile(
    join(fixtureDir, 'us-companies.csv'),
    'Ticker;SimFinId;Company Name;IndustryId\nBRK.B;1;Berkshire Hathaway Inc.;104004\n',
  );
  await writeFile(
    join(fixtureDir, 'industries.csv'),
    'IndustryId;Sector;Industry\n104004;Financial Services;Insurance\n',
  );
  badDir = await mkdtemp(join(tmpdir(), 'simfin-bad-'));
  await writeFile(join(badDir, 'us-income-annual.csv'), 'Symbol;Revenue\nX;1\n');
  await writeFile(join(badDir, 'us-balance-annual.csv'), simfinCsv([], []));
  await writeFile(join(badDir, 'us-cashflow-annual.csv'), simfinCsv([], []));
});

afterAll(async () => {
  await rm(fixtureDir, { recursive: true, force: true });
  await rm(badDir, { recursive: true, force: true });
});

describe('createSimfinProvider over hand-made files', () => {
  it('lists valid tickers once, normalised and sorted, skipping SimFin’s AGN_old style names', async () => {
    const provider = createSimfinProvider({ dir: fixtureDir });
    expect(provider.name).toBe('simfin');
    expect(await provider.listTickers()).toEqual(['BRK-B', 'GAPS', 'TWO']);
  });

  it('names the company from us-companies.csv and industries.csv', async () => {
    const f = await createSimfinProvider({ dir: fixtureDir }).getFundamentals('brk.b');
    expect(f.company).toMatchObject({
      ticker: 'BRK-B',
      name: 'Berkshire Hathaway Inc.',
      sector: 'Financial Services',
      industry: 'Insurance',
    });
    expect(f.years.map((y) => y.fiscalYear)).toEqual([2017, 2018, 2019]);
    // Share basis: the newest Publish Date of the fixture rows (2019 + 1 → 2020-02-20).
    expect(f.years.at(-1)?.dilutedEps?.source.filed).toBe('2020-02-20');
    expect(Date.parse(f.retrievedAt ?? '')).not.toBeNaN();
  });

  it.each([
    ['an unknown ticker', 'NOPE', 'insufficient_data'],
    ['fewer years than minYears', 'TWO', 'insufficient_data'],
    ['years without net income', 'GAPS', 'insufficient_data'],
    ['a malformed symbol', 'AGN_old', 'invalid_symbol'],
  ])('rejects %s with %s', async (_name, ticker, code) => {
    await expect(
      createSimfinProvider({ dir: fixtureDir }).getFundamentals(ticker),
    ).rejects.toMatchObject({
      name: 'FundamentalsError',
      code,
    });
  });

  it('honours minYears', async () => {
    const f = await createSimfinProvider({ dir: fixtureDir, minYears: 2 }).getFundamentals('TWO');
    expect(f.years).toHaveLength(2);
  });

  it('answers upstream_unavailable for a missing folder, then retries on the next call', async () => {
    const provider = createSimfinProvider({ dir: join(fixtureDir, 'missing') });
    await expect(provider.listTickers()).rejects.toMatchObject({ code: 'upstream_unavailable' });
    await expect(provider.getFundamentals('KO')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
  });

  it('answers parse_failed for a file without the SimFin key columns', async () => {
    await expect(createSimfinProvider({ dir: badDir }).getFundamentals('X')).rejects.toMatchObject({
      code: 'parse_failed',
    });
  });

  it('requires a dir', () => {
    expect(() => createSimfinProvider({ dir: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_config' }),
    );
  });
});

// The first call streams 13.6 MB of CSV (about 1 s idle); on a loaded shared machine it can take
// several times that, so these tests allow 60 s (speed is measured by the bench, not here).
describe('createSimfinProvider over the real 2021-04 bulk download', { timeout: 60_000 }, () => {
  const provider = createSimfinProvider({ dir: SIMFIN_DIR });

  it('lists every valid ticker of the income file', async () => {
    const tickers = await provider.listTickers();
    // 2,283 tickers in the files (`cut -d';' -f1 | sort -u`), 21 of them like AGN_old / ACET_delis.
    expect(tickers).toHaveLength(2283 - 21);
    expect(tickers).toEqual(expect.arrayContaining(['KO', 'MSFT', 'MCO', 'PEP', 'AAPL']));
  });

  it('matches the spot checks of the research notes and the companies’ 10-K figures', async () => {
    const ko = (await provider.getFundamentals('KO')).years.find((y) => y.fiscalYear === 2019);
    const msft = (await provider.getFundamentals('MSFT')).years.find((y) => y.fiscalYear === 2019);
    const mco = (await provider.getFundamentals('MCO')).years.find((y) => y.fiscalYear === 2019);
    // Research notes §5: KO revenue 37,266 M, net income 8,920 M; MSFT net income 39,240 M;
    // MCO revenue 4,815 M.
    expect(ko?.revenue?.value).toBe(37_266 * M);
    expect(ko?.netIncome?.value).toBe(8_920 * M);
    expect(msft?.netIncome?.value).toBe(39_240 * M);
    expect(mco?.revenue?.value).toBe(4_815 * M);
    // KO 10-K 2019 cash-flow statement: dividends 6,845 M; purchases of PP&E 2,054 M less
    // disposals 978 M = 1,076 M; treasury purchases 1,103 M less issuances 1,012 M = 91 M.
    expect(ko?.dividendsPaid?.value).toBe(6_845 * M);
    expect(ko?.capitalExpenditure?.value).toBe((2_054 - 978) * M);
    expect(ko?.shareRepurchases?.value).toBe((1_103 - 1_012) * M);
    // Diluted EPS as reported in the 10-Ks: KO $2.07, MSFT $5.06 (derived here, to the cent).
    expect(ko?.dilutedEps?.value).toBeCloseTo(2.07, 2);
    expect(ko?.dilutedEps?.source.derived).toBe(true);
    // SimFin's shares are split-adjusted up to its download: the newest Publish/Restated Date in
    // the three files is 2021-03-31 (`cut -d';' -f7,8 | sort | tail -1`), the EPS's share basis.
    // AAPL FY2019 diluted shares 18,595,652,000 = 4,648,913,000 (10-K 2019) × 4 (2020-08-31 split).
    expect(ko?.dilutedEps?.source.filed).toBe('2021-03-31');
    const aapl = (await provider.getFundamentals('AAPL')).years.find((y) => y.fiscalYear === 2019);
    expect(aapl?.dilutedShares?.value).toBe(4_648_913_000 * 4);
    expect(msft?.dilutedEps?.value).toBeCloseTo(5.06, 2);
    // MSFT FY2019 ends 2019-06-30 (label 2019); SimFin has no net interest line for it.
    expect(msft).toMatchObject({ periodEnd: '2019-06-30', interestExpense: null });
    expect(msft?.revenue?.source).toMatchObject({ tag: 'simfin:Revenue', filed: '2019-08-01' });
  });

  it('labels a January year end by the Compustat convention (WMT FY ending 2020-01-31 → 2019)', async () => {
    const wmt = await provider.getFundamentals('WMT');
    expect(wmt.years.at(-1)).toMatchObject({ fiscalYear: 2019, periodEnd: '2020-01-31' });
    expect(wmt.company.name).toBe('WMT'); // no us-companies.csv in this download
  });
});
