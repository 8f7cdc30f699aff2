import { resolve } from 'node:path';
import type { Fundamentals } from '@svc/schemas';
import { createSnapshotProvider } from '@svc/service/testing';
import { describe, expect, it } from 'vitest';
import { figureMarks, formatYearRanges } from './figure-marks.js';
import { formatFundamentalsTable } from './fundamentals-table.js';

// On the real companyfacts files of the shared data (never copied into the repository).
const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../../shared/data'),
);
const provider = createSnapshotProvider({ dir: resolve(SHARED, 'fundamentals/raw/companyfacts') });
const cache = new Map<string, Promise<Fundamentals>>();
function get(ticker: string): Promise<Fundamentals> {
  let f = cache.get(ticker);
  if (!f) {
    f = provider.getFundamentals(ticker);
    cache.set(ticker, f);
  }
  return f;
}

describe('figure marks (CLI tables)', () => {
  it('GM: marks the company-wide cost of revenue and the derived gross profit, with reasons', async () => {
    const marks = figureMarks(
      await get('GM'),
      ['costOfRevenue', 'grossProfit', 'revenue'],
      [2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024],
    );
    expect(marks).toContainEqual({
      metric: 'costOfRevenue',
      mark: '*',
      fiscalYears: [2015, 2016, 2017, 2018, 2019, 2020, 2021],
      reason:
        'derived: costsAndExpenses-sellingGeneralAdministrative; company-wide cost of revenue',
    });
    expect(marks).toContainEqual(
      expect.objectContaining({
        metric: 'grossProfit',
        mark: '*',
        reason: 'derived: revenue-costOfRevenue',
      }),
    );
    // GM revenue is us-gaap:Revenues in every year: a plain reported series, no mark.
    expect(marks.filter((m) => m.metric === 'revenue')).toEqual([]);
  });

  it('marks a tag switch and a scope note with †, and formats year ranges', async () => {
    const kr = figureMarks(await get('KR'), ['costOfRevenue']);
    expect(kr.some((m) => m.mark === '†' && /excludes depreciation/.test(m.reason))).toBe(true);
    const pg = figureMarks(await get('PG'), ['dilutedEps'], [2019, 2020]);
    expect(pg).toEqual([
      {
        metric: 'dilutedEps',
        mark: '†',
        fiscalYears: [2020],
        reason:
          'tag us-gaap:IncomeLossFromContinuingOperationsPerDilutedShare → us-gaap:EarningsPerShareDiluted',
      },
    ]);
    expect(formatYearRanges([2015, 2016, 2017, 2019, 2021, 2022])).toBe(
      'FY2015–FY2017, FY2019, FY2021–FY2022',
    );
    const table = formatFundamentalsTable(await get('GM'));
    expect(table).toMatch(/Cost of revenue\s+118,299\*/);
    expect(table).toContain(
      '  * Cost of revenue, FY2015–FY2021: derived: costsAndExpenses-sellingGeneralAdministrative; company-wide cost of revenue',
    );
  });
});
