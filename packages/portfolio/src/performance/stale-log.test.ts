import { describe, expect, it } from 'vitest';
import { measurePeriod } from './measure.js';
import { resolvePeriod } from './periods.js';
import { everyDay, plus, tx } from './test-fixtures.js';
import { buildTimeline } from './timeline.js';
import type { DailySeries, StaleUse, Timeline, Track } from './types.js';

const D0 = '2023-01-02';
const END = plus(D0, 120);

/** Weekdays of `series` only, less the days of `holidays` (offsets from its first day). */
function trading(series: DailySeries, holidays: readonly number[] = []): DailySeries {
  const keep = series.dates
    .map((d, i) => (new Date(d).getUTCDay() % 6 === 0 || holidays.includes(i) ? -1 : i))
    .filter((i) => i >= 0);
  return {
    currency: series.currency,
    dates: keep.map((i) => series.dates[i] as string),
    values: keep.map((i) => series.values[i] as number),
  };
}

/**
 * A ledger whose stale uses come from every source the walk records: closes with holidays, a
 * close series that ends before the timeline (X), a holding quoted in another currency than it
 * is bought in (Q: USD closes, bought in GBP), EUR rates that end before the timeline (USD) and
 * one with holidays of its own (GBP); and a holding sold to zero (Y), so a period can hold
 * stale uses of one holding only.
 */
function timeline(): Timeline {
  const prices = new Map([
    [
      'X',
      trading(
        everyDay('USD', plus(D0, -10), plus(D0, 80), (i) => 100 + (i % 9)),
        [20, 21],
      ),
    ],
    [
      'Y',
      trading(
        everyDay('EUR', plus(D0, -10), plus(END, 10), (i) => 50 + (i % 4)),
        [45],
      ),
    ],
    [
      'Q',
      trading(
        everyDay('USD', plus(D0, -10), plus(END, 10), (i) => 20 + (i % 3)),
        [33],
      ),
    ],
  ]);
  const eurRates = new Map([
    ['USD', trading(everyDay('USD', plus(D0, -10), plus(D0, 100), (i) => 1.1 + (i % 5) / 100))],
    [
      'GBP',
      trading(
        everyDay('GBP', plus(D0, -10), plus(END, 10), () => 0.87),
        [60, 61],
      ),
    ],
  ]);
  const transactions = [
    tx(D0, { type: 'deposit', amount: '10000' }),
    tx(D0, { type: 'buy', symbol: 'X', quantity: '10', price: '100', currency: 'USD' }),
    tx(plus(D0, 1), { type: 'buy', symbol: 'Y', quantity: '20', price: '50' }),
    tx(plus(D0, 3), { type: 'buy', symbol: 'Q', quantity: '30', price: '17', currency: 'GBP' }),
    tx(plus(D0, 50), { type: 'sell', symbol: 'Y', quantity: '20', price: '52' }),
    tx(plus(D0, 90), { type: 'buy', symbol: 'X', quantity: '1', price: '104', currency: 'USD' }),
  ];
  return buildTimeline({ transactions, prices, eurRates, end: END });
}

/** `track` as a plain object: its stale uses an array of its own, as any caller may make one. */
function plainTrack(track: Track): Track {
  return {
    valueEur: track.valueEur,
    inEur: track.inEur,
    outEur: track.outEur,
    numLocal: track.numLocal,
    denLocal: track.denLocal,
    dividendsEur: track.dividendsEur,
    feesEur: track.feesEur,
    withholdingTaxEur: track.withholdingTaxEur,
    missing: track.missing,
    stale: track.stale.map((use) => ({ ...use })),
  };
}

describe('stale uses recorded as numbers by the walk (issue 37)', () => {
  const built = timeline();
  const tracks = [built.portfolio, ...built.holdings.values()];

  it('the ledger has stale uses of every kind, on the portfolio and on holdings', () => {
    const kinds = new Set(built.portfolio.stale.map((u) => `${u.kind} ${u.symbol ?? ''}`));
    expect(kinds).toEqual(new Set(['price X', 'price Y', 'price Q', 'fx_rate ']));
    for (const track of built.holdings.values()) expect(track.stale.length).toBeGreaterThan(0);
  });

  it('a track reads its stale uses as objects, ascending, the same array each time', () => {
    const [holding] = built.holdings.values();
    const uses = holding?.stale as StaleUse[];
    expect(holding?.stale).toBe(uses);
    expect(uses.map((u) => u.index)).toEqual([...uses.map((u) => u.index)].sort((a, b) => a - b));
    for (const use of uses) {
      expect(Object.keys(use)).toEqual(
        use.kind === 'price'
          ? ['index', 'kind', 'symbol', 'currency', 'ageDays']
          : ['index', 'kind', 'currency', 'ageDays'],
      );
      expect(use.ageDays).toBeGreaterThan(0);
    }
  });

  it('summarises every period as the uses read as objects do, for every track', () => {
    const periods = [
      resolvePeriod({}, built),
      ...[
        [1, 119],
        [20, 30],
        [21, 22],
        [44, 47],
        [49, 60],
        [59, 63],
        [81, 119],
        [100, 101],
        [110, 120],
      ].map(([from, to]) =>
        resolvePeriod(
          { period: 'custom', from: plus(D0, from as number), to: plus(D0, to as number) },
          built,
        ),
      ),
    ];
    let summaries = 0;
    for (const period of periods) {
      for (const track of tracks) {
        const fast = measurePeriod(built, track, period);
        expect(fast).toEqual(measurePeriod(built, plainTrack(track), period));
        summaries += fast.stale.length;
      }
    }
    expect(summaries).toBeGreaterThan(periods.length);
  });
});
