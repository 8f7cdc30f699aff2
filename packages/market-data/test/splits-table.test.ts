import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parsePriceCsv } from '../src/quotes/price-files.js';
import { KNOWN_SPLITS, splitFactor } from '../src/quotes/splits.js';
import { PRICES_DIR } from './shared-data.js';

// Re-derives the split table from the data, independently of the provider: raw US prices since
// decimalisation are whole cents, so a split-adjusted Yahoo price times the cumulative split
// factor must land on the cent grid, and the factor must change exactly at a split.
const CLASSIC = join(PRICES_DIR, 'yahoo_daily_2000_2024-03');
const BASIS = '2024-03-08';

type Ohlc = { date: string; values: number[] };
const ohlc = (symbol: string): Ohlc[] =>
  (
    parse(readFileSync(join(CLASSIC, `${symbol}.csv`), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[]
  ).map((r) => ({ date: r.Date as string, values: [r.Open, r.High, r.Low, r.Close].map(Number) }));

const onCentGrid = (day: Ohlc, factor: number) =>
  day.values.every((v) => {
    const cents = v * factor * 100;
    return Math.abs(cents - Math.round(cents)) < 0.02 * Math.max(1, factor / 10);
  });

describe('KNOWN_SPLITS against the price files', () => {
  const gridSplits = KNOWN_SPLITS.filter(
    (s) => s.evidence === 'tick-grid' && s.date > '2001-04-10',
  );

  it.each(gridSplits.map((s) => [s.symbol, s.date, s.ratio, s] as const))(
    '%s %s (%d:1): the cent grid changes factor at the split',
    (_symbol, _date, _ratio, split) => {
      const days = ohlc(split.symbol);
      const index = days.findIndex((d) => d.date >= split.date);
      const splits = KNOWN_SPLITS.filter((s) => s.symbol === split.symbol);
      const post = splitFactor(splits, split.date, BASIS);
      const pre = post * split.ratio;
      // on and after the split: the post-split factor fits
      for (const day of days.slice(index, index + 4))
        expect(onCentGrid(day, post), day.date).toBe(true);
      // before: the pre-split factor fits every day, the post-split factor fails on at least one
      const before = days.slice(index - 5, index);
      for (const day of before) expect(onCentGrid(day, pre), day.date).toBe(true);
      expect(before.some((day) => !onCentGrid(day, post))).toBe(true);
    },
  );

  it('no undocumented split: the whole decimal era fits the table on most days', () => {
    for (const symbol of ['AAPL', 'NVDA', 'MNST', 'TSLA', 'GOOGL', 'WMT', 'XOM', 'MCD']) {
      const splits = KNOWN_SPLITS.filter((s) => s.symbol === symbol);
      const days = ohlc(symbol).filter((d) => d.date >= '2001-04-10');
      const fitting = days.filter((d) => onCentGrid(d, splitFactor(splits, d.date, BASIS)));
      expect(fitting.length / days.length, symbol).toBeGreaterThan(0.97);
    }
  });

  it('the factor between the files’ split bases is 10 for NVDA and 1 elsewhere (dividends aside)', () => {
    const adjusted = (symbol: string) =>
      parsePriceCsv(
        readFileSync(join(PRICES_DIR, 'yahoo_adjclose_ipo_2026-08', `${symbol}.csv`), 'utf8'),
        symbol,
      );
    const symbols = KNOWN_SPLITS.map((s) => s.symbol).concat([
      'MCD',
      'XOM',
      'F',
      'KR',
      'UBER',
      'SNOW',
    ]);
    for (const symbol of new Set(symbols)) {
      const unadjusted = parsePriceCsv(
        readFileSync(join(CLASSIC, `${symbol}.csv`), 'utf8'),
        symbol,
      ).at(-1);
      const adj = adjusted(symbol).find((r) => r.date === BASIS);
      if (!unadjusted || !adj) throw new Error(`no ${BASIS} close for ${symbol}`);
      const ratio = unadjusted.close / adj.close;
      const splits = splitFactor(
        KNOWN_SPLITS.filter((s) => s.symbol === symbol),
        BASIS,
        '2026-08-03',
      );
      // dividends make the adjusted close lower: ratio / splits ≥ 1, and under 1.3 for 2.4 years
      expect(ratio / splits, symbol).toBeGreaterThan(0.999);
      expect(ratio / splits, symbol).toBeLessThan(1.3);
    }
  });
});
