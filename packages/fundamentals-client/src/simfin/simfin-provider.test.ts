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

  it('with asOf, maps only the years published by that day (issue 39)', async () => {
    const provider = createSimfinProvider({ dir: fixtureDir, minYears: 2 });
    // FY2019 was published 2020-02-20: not yet public the day before, public that day.
    const before = await provider.getFundamentals('BRK.B', { asOf: '2020-02-19' });
    expect(before.years.map((y) => y.fiscalYear)).toEqual([2017, 2018]);
    expect(before.asOf).toBe('2020-02-19');
    expect((await provider.getFundamentals('BRK.B')).asOf).toBeUndefined();
    const on = await provider.getFundamentals('BRK.B', { asOf: '2020-02-20T23:00:00Z' });
    expect(on.years.map((y) => y.fiscalYear)).toEqual([2017, 2018, 2019]);
    // known company, too few years public by then: insufficient_history, as the SEC providers say
    await expect(provider.getFundamentals('BRK.B', { asOf: '2019-02-19' })).rejects.toMatchObject({
      code: 'insufficient_history',
    });
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

  it('puts every year’s EPS on the latest split basis, given the splits (issue 12)', async () => {
    // The splits of these tickers as in KNOWN_SPLITS of @svc/market-data (ex-dates; this package
    // does not depend on market-data, so they are written out).
    const splits = [
      { symbol: 'AAPL', date: '2014-06-09', ratio: 7 },
      { symbol: 'AAPL', date: '2020-08-31', ratio: 4 },
      { symbol: 'CL', date: '2013-05-16', ratio: 2 },
      { symbol: 'KR', date: '2015-07-14', ratio: 2 },
      { symbol: 'MA', date: '2014-01-22', ratio: 10 },
      { symbol: 'NVDA', date: '2021-07-20', ratio: 4 },
      { symbol: 'NVDA', date: '2024-06-10', ratio: 10 },
    ];
    const adjusted = createSimfinProvider({ dir: SIMFIN_DIR, splits });
    const year = async (ticker: string, fy: number) =>
      (await adjusted.getFundamentals(ticker)).years.find((y) => y.fiscalYear === fy);
    const near = (value: number | undefined, expected: number) =>
      expect(Math.abs((value ?? Number.NaN) / expected - 1)).toBeLessThan(0.01);
    // KR FY2012 (restated 2015-03-31): 537 M diluted shares, FY2013 1,040 M after the 2:1 of
    // 2015-07-14. Reported diluted EPS $2.77 (10-K FY2012) → $1.385 on today's basis.
    const kr = await year('KR', 2012);
    expect(kr?.dilutedShares?.value).toBe(537 * M * 2);
    near(kr?.dilutedEps?.value, 2.77 / 2);
    expect(kr?.dilutedEps?.source.note).toContain('2:1 of 2015-07-14 (not restated by SimFin');
    expect(kr?.dilutedEps?.source.filed).toBe('2021-03-31');
    // MA FY2010 (restated 2013-02-14): 131 M shares, FY2011 1,284 M; reported $14.05 → $1.405.
    near((await year('MA', 2010))?.dilutedEps?.value, 14.05 / 10);
    // Already restated by SimFin though their Restated Dates precede the split: AAPL FY2011
    // (reported $27.68 → $0.9886 after 7:1 and 4:1), FY2019 ($11.89 → $2.97), CL FY2010
    // ($4.31 → $2.155 after the 2:1 of 2013).
    near((await year('AAPL', 2011))?.dilutedEps?.value, 27.68 / 28);
    near((await year('AAPL', 2019))?.dilutedEps?.value, 11.89 / 4);
    near((await year('CL', 2010))?.dilutedEps?.value, 4.31 / 2);
    // NVDA: both splits come after the download (basis 2021-03-31); FY2019 reported $4.52 → ÷40,
    // and its basis is now that of the last split, where a price's split adjustment starts.
    const nvda = await year('NVDA', 2019);
    near(nvda?.dilutedEps?.value, 4.52 / 40);
    expect(nvda?.dilutedEps?.source.filed).toBe('2024-06-10');
    expect(nvda?.dilutedShares?.source.filed).toBe('2024-06-10');
  });

  it('labels a January year end by the Compustat convention (WMT FY ending 2020-01-31 → 2019)', async () => {
    const wmt = await provider.getFundamentals('WMT');
    expect(wmt.years.at(-1)).toMatchObject({ fiscalYear: 2019, periodEnd: '2020-01-31' });
    expect(wmt.company.name).toBe('WMT'); // no us-companies.csv in this download
  });
});
