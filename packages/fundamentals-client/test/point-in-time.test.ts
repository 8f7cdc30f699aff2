import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Fundamentals } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshotProvider, FundamentalsError, parseCompanyFacts } from '../src/index.js';
import { companyFacts, cy, dec31 } from './support/companyfacts-builder.js';
import { COMPANYFACTS_DIR } from './support/shared-data.js';

/*
 * Point-in-time reads (issue 39): a company with a restated FY2019 (filed 2021), a late 10-K/A
 * that first brings FY2016 figures (filed 2020-09), a 4:1 split in 2021 and FY2020 filed on
 * 2021-02-15.
 */
const doc = companyFacts({
  NetIncomeLoss: [
    cy(2016, 50e6, { filed: '2020-09-30', form: '10-K/A' }), // late: first filed in 2020
    cy(2017, 60e6, { filed: '2018-02-15' }),
    cy(2018, 70e6, { filed: '2019-02-15' }),
    cy(2019, 80e6, { filed: '2020-02-15' }),
    cy(2019, 64e6, { filed: '2021-02-15' }), // restated in the next 10-K
    cy(2020, 90e6, { filed: '2021-02-15' }),
  ],
  Revenues: [
    cy(2017, 600e6, { filed: '2018-02-15' }),
    cy(2018, 700e6, { filed: '2019-02-15' }),
    cy(2018, 700e6, { filed: '2020-02-15' }), // a comparative, unchanged
    cy(2019, 800e6, { filed: '2020-02-15' }),
    cy(2020, 900e6, { filed: '2021-02-15' }),
  ],
  WeightedAverageNumberOfDilutedSharesOutstanding: [
    cy(2018, 100e6, { filed: '2019-02-15' }),
    cy(2019, 100e6, { filed: '2020-02-15' }),
    cy(2019, 400e6, { filed: '2021-02-15' }), // the split's restated basis
    cy(2020, 400e6, { filed: '2021-02-15' }),
  ],
  CashAndCashEquivalentsAtCarryingValue: [
    dec31(2018, 5e6, { filed: '2019-02-15' }),
    dec31(2019, 6e6, { filed: '2020-02-15' }),
  ],
});

const at = (asOf?: string) => {
  const f = parseCompanyFacts(doc, { ticker: 'PIT', ...(asOf ? { asOf } : {}) });
  Fundamentals.parse(f);
  return f;
};
const values = (f: Fundamentals, key: 'netIncome' | 'revenue' | 'dilutedShares') =>
  f.years.map((y) => [y.fiscalYear, y[key]?.value ?? null]);

describe('parseCompanyFacts with asOf', () => {
  it('reads the latest figures, restatements included, without asOf', () => {
    const f = at();
    expect(f.asOf).toBeUndefined();
    expect(values(f, 'netIncome')).toEqual([
      [2016, 50e6],
      [2017, 60e6],
      [2018, 70e6],
      [2019, 64e6],
      [2020, 90e6],
    ]);
  });

  it('keeps only what was filed by the date, and of a restated value the first filing', () => {
    const f = at('2021-06-30');
    expect(f.asOf).toBe('2021-06-30');
    // FY2019 as first filed (80 M, 2020-02-15), not the restatement (64 M) filed 2021-02-15
    expect(values(f, 'netIncome')).toContainEqual([2019, 80e6]);
    const fy2019 = f.years.find((y) => y.fiscalYear === 2019);
    expect(fy2019?.netIncome?.source).toMatchObject({ filed: '2020-02-15', form: '10-K' });
    const restated = f.issues.filter((i) => i.kind === 'restated');
    expect(restated).toHaveLength(1);
    expect(restated[0]?.message).toMatch(
      /80000000 .* → 64000000 .*as of 2021-06-30 the first filing/,
    );
  });

  it('drops facts filed after the date and fiscal years not yet reported', () => {
    const f = at('2020-06-30');
    // FY2020 ends after the date; FY2016 was first filed (10-K/A) on 2020-09-30
    expect(values(f, 'netIncome')).toEqual([
      [2017, 60e6],
      [2018, 70e6],
      [2019, 80e6],
    ]);
    expect(f.issues.filter((i) => i.kind === 'restated')).toHaveLength(0);
    // the 2021 split is not known yet: share counts stay on the basis of their day
    expect(values(f, 'dilutedShares')).toEqual([
      [2017, null],
      [2018, 100e6],
      [2019, 100e6],
    ]);
    expect(f.issues.filter((i) => i.kind === 'split_adjusted')).toHaveLength(0);
  });

  it('counts a fact filed on the date itself, not one filed the day after', () => {
    expect(at('2020-02-15').years.map((y) => y.fiscalYear)).toEqual([2017, 2018, 2019]);
    expect(at('2020-02-14').years.map((y) => y.fiscalYear)).toEqual([2017, 2018]);
  });

  it('knows the late-filed year from its filing date on', () => {
    expect(at('2020-09-29').years.map((y) => y.fiscalYear)).toEqual([2017, 2018, 2019]);
    expect(at('2020-09-30').years.map((y) => y.fiscalYear)).toEqual([2016, 2017, 2018, 2019]);
  });

  it('puts values on the split basis once the split was filed', () => {
    const f = at('2021-06-30');
    expect(values(f, 'dilutedShares')).toEqual([
      [2016, null],
      [2017, null],
      [2018, 400e6],
      [2019, 400e6],
      [2020, 400e6],
    ]);
  });

  it('does not take an EPS restatement with unchanged share counts for a split', () => {
    // AAPL's 10-K/A of 2010-01-25: EPS of two years restated by ×0.79 (a new accounting rule),
    // share counts as before. As first filed, those EPS must stay as filed.
    const restated = companyFacts({
      NetIncomeLoss: [
        cy(2007, 30e6, { filed: '2009-10-27' }),
        cy(2008, 40e6, { filed: '2009-10-27' }),
        cy(2009, 50e6, { filed: '2009-10-27' }),
      ],
      EarningsPerShareDiluted: [
        cy(2007, 3.93, { filed: '2009-10-27' }),
        cy(2008, 5.36, { filed: '2009-10-27' }),
        cy(2009, 6.29, { filed: '2009-10-27' }),
        cy(2008, 6.78, { filed: '2010-01-25', form: '10-K/A' }),
        cy(2009, 7.86, { filed: '2010-01-25', form: '10-K/A' }),
      ],
      WeightedAverageNumberOfDilutedSharesOutstanding: [
        cy(2008, 902e6, { filed: '2009-10-27' }),
        cy(2009, 907e6, { filed: '2009-10-27' }),
        cy(2008, 902e6, { filed: '2010-01-25', form: '10-K/A' }),
        cy(2009, 907e6, { filed: '2010-01-25', form: '10-K/A' }),
      ],
    });
    const f = parseCompanyFacts(restated, { ticker: 'PIT', asOf: '2010-06-30' });
    expect(f.years.map((y) => y.dilutedEps?.value)).toEqual([3.93, 5.36, 6.29]);
    expect(f.issues.filter((i) => i.kind === 'split_adjusted')).toEqual([]);
    expect(f.issues.filter((i) => i.kind === 'restated')).toHaveLength(2);
  });

  it('finds nothing before the first filing', () => {
    expect(at('2018-02-14').years).toEqual([]);
  });
});

describe('snapshot provider with asOf', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fc-pit-'));
    await writeFile(join(dir, 'PIT_CIK0000001234.json'), JSON.stringify(doc));
    await symlink(
      join(COMPANYFACTS_DIR, 'AAPL_CIK0000320193.json'),
      join(dir, 'AAPL_CIK0000320193.json'),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('caches a point in time apart from the latest figures', async () => {
    const provider = createSnapshotProvider({ dir });
    const latest = await provider.getFundamentals('PIT');
    const then = await provider.getFundamentals('PIT', { asOf: '2020-06-30' });
    const again = await provider.getFundamentals('PIT');
    expect(latest.years).toHaveLength(5);
    expect(then.asOf).toBe('2020-06-30');
    expect(then.years).toHaveLength(3);
    expect(again).toBe(latest);
    expect(await provider.getFundamentals('PIT', { asOf: '2020-06-30' })).toBe(then);
  });

  it('answers insufficient_history for a known company with too few years filed by then', async () => {
    const provider = createSnapshotProvider({ dir });
    const error = await provider.getFundamentals('PIT', { asOf: '2019-06-30' }).catch((e) => e);
    expect(error).toBeInstanceOf(FundamentalsError);
    expect(error.code).toBe('insufficient_history');
    expect(error.message).toMatch(/2 usable fiscal year\(s\) filed by 2019-06-30/);
    // an unknown ticker stays insufficient_data, whatever the date
    const unknown = await provider.getFundamentals('NOPE', { asOf: '2019-06-30' }).catch((e) => e);
    expect(unknown.code).toBe('insufficient_data');
  });

  it('rejects a malformed date before reading anything', async () => {
    const provider = createSnapshotProvider({ dir });
    await expect(provider.getFundamentals('PIT', { asOf: '2020-13-01' })).rejects.toThrow(
      RangeError,
    );
  });

  it('reads AAPL as of 2019-06-30 from what was filed by then', async () => {
    const provider = createSnapshotProvider({ dir });
    const f = await provider.getFundamentals('AAPL', { asOf: '2019-06-30' });
    expect(f.years.at(-1)?.fiscalYear).toBe(2018);
    for (const y of f.years) {
      for (const key of ['revenue', 'netIncome', 'dilutedEps', 'operatingCashFlow'] as const) {
        const filed = y[key]?.source.filed;
        if (filed) expect(filed <= '2019-06-30').toBe(true);
      }
      expect(y.periodEnd < '2019-06-30').toBe(true);
    }
    const byYear = new Map(f.years.map((y) => [y.fiscalYear, y]));
    // FY2018 (ending 2018-09-29): revenue 265,595 M, net income 59,531 M, 10-K filed 2018-11-05
    expect(byYear.get(2018)?.revenue?.value).toBe(265_595_000_000);
    expect(byYear.get(2018)?.netIncome?.value).toBe(59_531_000_000);
    // FY2008 as first reported (10-K of 2009, 4,834 M), before the 2010 restatement (6,119 M)
    expect(byYear.get(2008)?.netIncome?.value).toBe(4_834_000_000);
    // EPS on the basis of mid-2019 (before the 4:1 split of 2020): FY2018 diluted EPS 11.91
    expect(byYear.get(2018)?.dilutedEps?.value).toBe(11.91);
  });
});
