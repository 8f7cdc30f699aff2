import { describe, expect, it } from 'vitest';
import type { SimfinRow } from './columns.js';
import { shareAdjustments } from './share-basis.js';

/** An income row: period end, Restated Date, diluted shares. */
const row = (end: string, restated: string, shares: number | null): SimfinRow<'income'> => ({
  reportDate: end,
  publishDate: null,
  restatedDate: restated,
  currency: 'USD',
  values: { 'Shares (Diluted)': shares },
  malformedCells: 0,
});

const factors = (m: Map<string, { factor: number }>) =>
  Object.fromEntries([...m].map(([end, a]) => [end.slice(0, 4), a.factor]));

const split = (date: string, ratio: number) => ({ symbol: 'ACME', date, ratio });

describe('shareAdjustments', () => {
  it.each([
    {
      name: 'KR: rows restated before the 2:1 and still on the old count get it',
      rows: [row('2012-12-31', '2015-03-31', 537), row('2013-12-31', '2016-03-29', 1040)],
      splits: [split('2015-07-14', 2)],
      expected: { 2012: 2, 2013: 1 },
    },
    {
      name: 'CL: restated before the split, but the count already shows it: left alone',
      rows: [row('2010-12-31', '2013-02-21', 1021.8), row('2011-12-31', '2014-02-20', 984.1)],
      splits: [split('2013-05-16', 2)],
      expected: { 2010: 1, 2011: 1 },
    },
    {
      name: 'AAPL: no year after the split to compare with: SimFin’s basis is trusted',
      rows: [row('2018-09-30', '2019-10-31', 20000), row('2019-09-30', '2019-10-31', 18596)],
      splits: [split('2020-08-31', 4)],
      expected: { 2018: 1, 2019: 1 },
    },
    {
      name: 'NVDA: splits after the download apply to every year',
      rows: [row('2018-01-31', '2019-02-21', 625), row('2019-01-31', '2020-02-20', 618)],
      splits: [split('2021-07-20', 4), split('2024-06-10', 10)],
      expected: { 2018: 40, 2019: 40 },
    },
    {
      name: 'the comparison chains through years without shares and across several old years',
      rows: [
        row('2009-12-31', '2011-01-01', 130),
        row('2010-12-31', '2012-01-01', null),
        row('2011-12-31', '2013-01-01', 131),
        row('2012-12-31', '2015-01-01', 1284),
      ],
      splits: [split('2014-01-22', 10)],
      expected: { 2009: 10, 2010: 1, 2011: 10, 2012: 1 },
    },
    {
      name: 'a reverse split lacking shows as a fall below √ratio',
      rows: [row('2018-12-31', '2019-02-01', 1000), row('2019-12-31', '2020-02-01', 101)],
      splits: [split('2019-06-01', 0.1)],
      expected: { 2018: 0.1, 2019: 1 },
    },
  ])('$name', ({ rows, splits, expected }) => {
    expect(factors(shareAdjustments(rows, splits, '2021-03-31'))).toEqual(expected);
  });

  it('needs the evidence for every split when the download date is unknown', () => {
    const rows = [row('2018-12-31', '2019-02-01', 600), row('2019-12-31', '2020-02-01', 610)];
    expect(factors(shareAdjustments(rows, [split('2024-06-10', 10)], null))).toEqual({
      2018: 1,
      2019: 1,
    });
  });

  it('says which split was applied and why', () => {
    const rows = [row('2012-12-31', '2015-03-31', 537), row('2013-12-31', '2016-03-29', 1040)];
    const a = shareAdjustments(rows, [split('2015-07-14', 2)], '2021-03-31').get('2012-12-31');
    expect(a?.applied[0]?.why).toBe(
      "not restated by SimFin: this year's diluted shares 537, the next year's 1040",
    );
  });
});
