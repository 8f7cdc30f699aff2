import { Decimal } from 'decimal.js';
import type { DailyCloses } from '../price-history.js';
import type { Quote } from '../quote.js';
import { sliceRange } from './history-range.js';
import { lastIndexOnOrBefore, type PriceSeries } from './price-files.js';
import { type StockSplit, splitFactor } from './splits.js';

/** Everything known about one symbol's prices, loaded once and cached. */
export interface SymbolHistory {
  readonly symbol: string;
  /** Unadjusted series (split-adjusted to their own last day), any order. */
  readonly unadjusted: readonly PriceSeries[];
  /** The total-return adjusted series, used only to fill gaps, un-adjusted. */
  readonly totalReturn: PriceSeries | null;
  readonly splits: readonly StockSplit[];
  /** Days where the dividend factor of the total-return series is known, oldest first. */
  readonly anchors: readonly DividendAnchor[];
}

/** On `date`, actual close = adjusted close × split factor × `factor`. */
export interface DividendAnchor {
  readonly date: string;
  readonly factor: number;
}

/** Dividend factors outside this range mean the splits table disagrees with the data. */
const PLAUSIBLE_DIVIDEND_FACTOR = { min: 0.995, max: 2 } as const;

/**
 * Builds the dividend anchors: the first and last day of each unadjusted series (where the
 * actual close is known) and the total-return series' last day (factor 1 by construction).
 * Anchors with an implausible factor are dropped, so no estimate is built on them.
 */
export function dividendAnchors(
  unadjusted: readonly PriceSeries[],
  totalReturn: PriceSeries | null,
  splits: readonly StockSplit[],
): DividendAnchor[] {
  if (totalReturn === null) return [];
  const anchors: DividendAnchor[] = [{ date: totalReturn.basis, factor: 1 }];
  for (const series of unadjusted) {
    for (const row of [series.rows[0], series.rows.at(-1)]) {
      if (!row) continue;
      const adjusted = totalReturn.rows[lastIndexOnOrBefore(totalReturn.rows, row.date)];
      if (!adjusted || adjusted.date !== row.date) continue;
      const actual = row.close * splitFactor(splits, row.date, series.basis);
      const factor = actual / (adjusted.close * splitFactor(splits, row.date, totalReturn.basis));
      if (factor >= PLAUSIBLE_DIVIDEND_FACTOR.min && factor <= PLAUSIBLE_DIVIDEND_FACTOR.max) {
        anchors.push({ date: row.date, factor });
      }
    }
  }
  return anchors.sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** The latest day any series of the history covers. */
export function latestDate(history: SymbolHistory): string | null {
  const days = [...history.unadjusted, history.totalReturn]
    .filter((s): s is PriceSeries => s !== null)
    .map((s) => s.basis);
  return days.sort().at(-1) ?? null;
}

/**
 * The close on or before `asOf`, on the share basis of its own trading day.
 *
 * Prefers an unadjusted series' close (times the splits after that day up to the file's basis).
 * When the total-return series has a later day than every unadjusted series (the gap
 * 2024-03-11 → 2025-02-27, or after 2026-02-27) and dividend anchors bracket it, the actual
 * close is estimated as adjusted close × split factor × a dividend factor interpolated linearly
 * in time between the anchors; `maxRelativeError` is the anchors' factor ratio − 1 (the factor is
 * monotone between them). Otherwise the latest unadjusted close is returned, or `null`.
 */
export function quoteOnOrBefore(
  history: SymbolHistory,
  asOf: string,
  options: { currency: string; name: string },
): Quote | null {
  const raw = latestUnadjusted(history, asOf);
  const adjustedIndex = history.totalReturn
    ? lastIndexOnOrBefore(history.totalReturn.rows, asOf)
    : -1;
  const adjusted = history.totalReturn?.rows[adjustedIndex];
  if (history.totalReturn && adjusted && (!raw || adjusted.date > raw.row.date)) {
    const estimate = estimateActualClose(history, history.totalReturn, adjusted);
    if (estimate) {
      return {
        symbol: history.symbol,
        price: estimate.price,
        currency: options.currency,
        asOf: adjusted.date,
        source: `${options.name}:${history.totalReturn.source.folder} (dividend adjustment removed)`,
        splitBasisAsOf: adjusted.date,
        adjustment: 'dividends-estimated',
        maxRelativeError: estimate.maxRelativeError,
      };
    }
  }
  if (!raw) return null;
  const factor = splitFactor(history.splits, raw.row.date, raw.series.basis);
  return {
    symbol: history.symbol,
    price: round(new Decimal(raw.row.close).times(factor)),
    currency: options.currency,
    asOf: raw.row.date,
    source: `${options.name}:${raw.series.source.folder}`,
    splitBasisAsOf: raw.row.date,
    adjustment: 'none',
  };
}

function latestUnadjusted(history: SymbolHistory, asOf: string) {
  let best: { series: PriceSeries; row: { date: string; close: number } } | null = null;
  for (const series of history.unadjusted) {
    const row = series.rows[lastIndexOnOrBefore(series.rows, asOf)];
    if (row && (!best || row.date > best.row.date)) best = { series, row };
  }
  return best;
}

function estimateActualClose(
  history: SymbolHistory,
  totalReturn: PriceSeries,
  row: { date: string; close: number },
): { price: number; maxRelativeError: number } | null {
  const afterIndex = history.anchors.findIndex((a) => a.date >= row.date);
  const after = history.anchors[afterIndex];
  const before = after?.date === row.date ? after : history.anchors[afterIndex - 1];
  if (!after || !before) return null;
  const span = Date.parse(after.date) - Date.parse(before.date);
  const weight = span === 0 ? 0 : (Date.parse(row.date) - Date.parse(before.date)) / span;
  const factor = before.factor + (after.factor - before.factor) * weight;
  const splits = splitFactor(history.splits, row.date, totalReturn.basis);
  const price = round(new Decimal(row.close).times(splits).times(factor));
  const maxRelativeError = Math.abs(before.factor / after.factor - 1);
  return { price, maxRelativeError: Number(maxRelativeError.toFixed(6)) };
}

function round(value: Decimal): number {
  return value.toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN).toNumber();
}

/**
 * The closes of every trading day of any series from the last one before `range.from` through
 * `range.to`, each as {@link quoteOnOrBefore} gives it for that day (kept when it is that day's
 * own close).
 */
export function dailyCloses(
  history: SymbolHistory,
  range: { from: string; to: string },
  options: { currency: string; name: string },
): DailyCloses {
  const days = new Set<string>();
  for (const series of [...history.unadjusted, history.totalReturn]) {
    if (series === null) continue;
    for (const row of sliceRange(series.rows, range.from, range.to)) days.add(row.date);
  }
  const sorted = [...days].sort();
  const first = sorted.findLastIndex((d) => d <= range.from);
  const dates: string[] = [];
  const values: number[] = [];
  const sources = new Set<string>();
  let estimatedDays = 0;
  for (const day of sorted.slice(Math.max(0, first))) {
    const quote = quoteOnOrBefore(history, day, options);
    if (quote === null || quote.asOf !== day) continue;
    dates.push(day);
    values.push(quote.price);
    sources.add(quote.source.replace(' (dividend adjustment removed)', ''));
    if (quote.adjustment === 'dividends-estimated') estimatedDays += 1;
  }
  return {
    symbol: history.symbol,
    currency: options.currency,
    source: [...sources].join(', ') || options.name,
    dates,
    values,
    estimatedDays,
  };
}
