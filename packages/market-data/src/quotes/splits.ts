/**
 * A stock split (or a distribution that price series treat as one).
 *
 * - `date`: the first trading day on the new share basis (the ex-date), `YYYY-MM-DD`.
 * - `ratio`: new shares per old share (4 for 4-for-1, 1.5 for 3-for-2). A close before `date`
 *   on the new basis times `ratio` is the close on the old basis.
 * - `evidence`: how the entry was established. `tick-grid`: derived from the price files (see
 *   README, "How splits are known"); `cross-series`: the factor between two files' split bases;
 *   `public-record`: the company's announcement, not derivable from the files.
 */
export interface StockSplit {
  readonly symbol: string;
  readonly date: string;
  readonly ratio: number;
  readonly evidence: 'tick-grid' | 'cross-series' | 'public-record';
}

/**
 * Splits of the 30 tickers of the shared data set, 2000-01-01 → 2026-08-03.
 *
 * Splits from decimalisation (2001-04-09) to 2024-03-08 were derived from
 * `yahoo_daily_2000_2024-03` by the tick grid: raw US prices are whole cents, so a split-adjusted
 * close times the cumulative split factor lands on the cent grid, and the factor changes at a
 * split. Where the grid leaves a day of doubt (a pre-split day whose prices happen to fit the new
 * basis: NVDA 2006-04-06, 2007-09-10) the ex-date of the public record was taken; the grid
 * bounds every date in this table (tested). The NVDA 10:1 of 2024-06-10 falls in the gap of the
 * unadjusted files: its factor is the ratio of the 2024-03-08 close to the adjusted series
 * (10.017, dividends included), its date the public record. No other ticker's factor between
 * the files' split bases differs from 1 (tested). Pre-decimal splits (prices in 1/16 $) cannot be
 * seen on the grid; AAPL and NVDA 2000 come from the public record, others may be missing.
 */
export const KNOWN_SPLITS: readonly StockSplit[] = [
  { symbol: 'AAPL', date: '2000-06-21', ratio: 2, evidence: 'public-record' },
  { symbol: 'AAPL', date: '2005-02-28', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'AAPL', date: '2014-06-09', ratio: 7, evidence: 'tick-grid' },
  { symbol: 'AAPL', date: '2020-08-31', ratio: 4, evidence: 'tick-grid' },
  { symbol: 'BBY', date: '2002-05-13', ratio: 1.5, evidence: 'tick-grid' },
  { symbol: 'BBY', date: '2005-08-04', ratio: 1.5, evidence: 'tick-grid' },
  { symbol: 'CL', date: '2013-05-16', ratio: 2, evidence: 'tick-grid' },
  // Class C distribution; Yahoo adjusts GOOGL by 1.998 (fits every prior day's cent grid).
  { symbol: 'GOOGL', date: '2014-04-03', ratio: 1.998, evidence: 'tick-grid' },
  { symbol: 'GOOGL', date: '2022-07-18', ratio: 20, evidence: 'tick-grid' },
  { symbol: 'JNJ', date: '2001-06-13', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'KR', date: '2015-07-14', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'LUV', date: '2001-02-15', ratio: 1.5, evidence: 'tick-grid' },
  { symbol: 'MA', date: '2014-01-22', ratio: 10, evidence: 'tick-grid' },
  { symbol: 'MNST', date: '2005-08-09', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'MNST', date: '2006-07-10', ratio: 4, evidence: 'tick-grid' },
  { symbol: 'MNST', date: '2012-02-16', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'MNST', date: '2016-11-10', ratio: 3, evidence: 'tick-grid' },
  { symbol: 'MNST', date: '2023-03-28', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'NUE', date: '2004-10-18', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'NUE', date: '2006-06-01', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'NVDA', date: '2000-06-27', ratio: 2, evidence: 'public-record' },
  { symbol: 'NVDA', date: '2001-09-17', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'NVDA', date: '2006-04-07', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'NVDA', date: '2007-09-11', ratio: 1.5, evidence: 'tick-grid' },
  { symbol: 'NVDA', date: '2021-07-20', ratio: 4, evidence: 'tick-grid' },
  { symbol: 'NVDA', date: '2024-06-10', ratio: 10, evidence: 'cross-series' },
  { symbol: 'PG', date: '2004-06-21', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'SPGI', date: '2005-05-18', ratio: 2, evidence: 'tick-grid' },
  { symbol: 'TSLA', date: '2020-08-31', ratio: 5, evidence: 'tick-grid' },
  { symbol: 'TSLA', date: '2022-08-25', ratio: 3, evidence: 'tick-grid' },
  { symbol: 'V', date: '2015-03-19', ratio: 4, evidence: 'tick-grid' },
  { symbol: 'WMT', date: '2024-02-26', ratio: 3, evidence: 'tick-grid' },
  { symbol: 'XOM', date: '2001-07-19', ratio: 2, evidence: 'tick-grid' },
];

/**
 * Product of the ratios of `splits` effective after `from` and on or before `to`
 * (`from < split.date ≤ to`): the number of `to`-basis shares per `from`-basis share. 1 when
 * `to ≤ from`.
 *
 * @example splitFactor(KNOWN_SPLITS.filter((s) => s.symbol === 'AAPL'), '2020-08-28', '2024-03-08') // 4
 */
export function splitFactor(splits: readonly StockSplit[], from: string, to: string): number {
  let factor = 1;
  for (const split of splits) {
    if (split.date > from && split.date <= to) factor *= split.ratio;
  }
  return factor;
}
