import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerTransaction } from '../derive-holdings.js';
import { everyDay, plus, tx } from './test-fixtures.js';
import { buildTimeline, extendTimeline, resumeDataFrom } from './timeline.js';
import type { DailySeries, Timeline } from './types.js';

const D0 = '2023-01-02';

/** The part of `series` on or after `from` (what a resumed fetch reads), to `to`. */
function window(series: DailySeries, from: string, to: string): DailySeries {
  const keep = series.dates.map((d, i) => (d >= from && d <= to ? i : -1)).filter((i) => i >= 0);
  return {
    currency: series.currency,
    dates: keep.map((i) => series.dates[i] as string),
    values: keep.map((i) => series.values[i] as number),
  };
}

function weekdays(series: DailySeries): DailySeries {
  const keep = series.dates.map((d, i) => (new Date(d).getUTCDay() % 6 === 0 ? -1 : i));
  const kept = keep.filter((i) => i >= 0);
  return {
    currency: series.currency,
    dates: kept.map((i) => series.dates[i] as string),
    values: kept.map((i) => series.values[i] as number),
  };
}

/** Every array and list of a timeline, as plain data (NaN compared as NaN). */
function plain(timeline: Timeline) {
  const track = (t: Timeline['portfolio']) => ({
    valueEur: [...t.valueEur],
    inEur: [...t.inEur],
    outEur: [...t.outEur],
    numLocal: [...t.numLocal],
    denLocal: [...t.denLocal],
    dividendsEur: [...t.dividendsEur],
    feesEur: [...t.feesEur],
    missing: t.missing,
    stale: t.stale,
  });
  return {
    firstDay: timeline.firstDay,
    length: timeline.length,
    basis: timeline.cashFlowBasis,
    portfolio: track(timeline.portfolio),
    holdings: [...timeline.holdings].map(([key, h]) => [key, track(h)]),
  };
}

const END = plus(D0, 200);
const prices = new Map([
  ['X', weekdays(everyDay('USD', plus(D0, -10), plus(END, 60), (i) => 100 + 10 * Math.sin(i / 7)))],
  ['Y', weekdays(everyDay('EUR', plus(D0, -10), plus(END, 60), (i) => 50 + (i % 13)))],
]);
const eurRates = new Map([
  ['USD', weekdays(everyDay('USD', plus(D0, -10), plus(END, 60), (i) => 1.1 + (i % 5) / 100))],
]);

const plan = fc.array(
  fc.record({
    day: fc.integer({ min: 0, max: 230 }),
    kind: fc.constantFrom('buyX', 'buyY', 'sellX', 'dividendY', 'deposit', 'fee'),
  }),
  { minLength: 1, maxLength: 15 },
);

function ledgerOf(steps: readonly { day: number; kind: string }[]): LedgerTransaction[] {
  return steps.map(({ day, kind }) => {
    const on = plus(D0, day);
    if (kind === 'buyX')
      return tx(on, {
        type: 'buy',
        symbol: 'X',
        quantity: '3',
        price: '100',
        currency: 'USD',
        fee: '1',
      });
    if (kind === 'buyY') return tx(on, { type: 'buy', symbol: 'Y', quantity: '2', price: '50' });
    if (kind === 'sellX')
      return tx(on, { type: 'sell', symbol: 'X', quantity: '1', price: '101', currency: 'USD' });
    if (kind === 'dividendY') return tx(on, { type: 'dividend', symbol: 'Y', amount: '1.5' });
    if (kind === 'deposit') return tx(on, { type: 'deposit', amount: '500' });
    return tx(on, { type: 'fee', amount: '2' });
  });
}

/**
 * `extended` equals `scratch`; or it is null, which it may be only for a short timeline or when a
 * transaction dated after the old end changes the cash-flow basis or the holdings.
 */
function expectExtended(previous: Timeline, extended: Timeline | null, scratch: Timeline) {
  if (extended === null) {
    expect(
      previous.checkpoint === undefined ||
        scratch.cashFlowBasis !== previous.cashFlowBasis ||
        scratch.holdings.size !== previous.holdings.size,
    ).toBe(true);
  } else {
    expect(plain(extended)).toEqual(plain(scratch));
  }
}

describe('extendTimeline', () => {
  it('gives the timeline a build from scratch gives, reading only the days after the checkpoint', () => {
    fc.assert(
      fc.property(plan, fc.integer({ min: 0, max: 30 }), (steps, more) => {
        const transactions = ledgerOf(steps);
        const previous = buildTimeline({ transactions, prices, eurRates, end: END });
        const end = plus(END, more);
        const from = resumeDataFrom(previous) ?? '0000-01-01';
        const cut = (m: Map<string, DailySeries>) =>
          new Map([...m].map(([k, s]) => [k, window(s, from, end)]));
        const extended = extendTimeline(previous, {
          transactions,
          prices: cut(prices),
          eurRates: cut(eurRates),
          end,
        });
        const scratch = buildTimeline({ transactions, prices, eurRates, end });
        expectExtended(previous, extended, scratch);
        // and again from the extended one (its own checkpoint)
        if (extended === null) return;
        const later = plus(end, 3);
        expectExtended(
          extended,
          extendTimeline(extended, { transactions, prices, eurRates, end: later }),
          buildTimeline({ transactions, prices, eurRates, end: later }),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('walks the last days again: a close that arrived late replaces the stale one', () => {
    const transactions = [tx(D0, { type: 'buy', symbol: 'Y', quantity: '1', price: '50' })];
    const late = plus(END, -2);
    const y = prices.get('Y') as DailySeries;
    const without = window(y, '0000-01-01', plus(late, -1));
    const early = buildTimeline({
      transactions,
      prices: new Map([['Y', without]]),
      eurRates,
      end: END,
    });
    const last = early.length - 1;
    expect(early.portfolio.missing.at(-1)?.index ?? early.portfolio.stale.at(-1)?.index).toBe(last);
    const next = plus(END, 1);
    const extended = extendTimeline(early, { transactions, prices, eurRates, end: next });
    const scratch = buildTimeline({ transactions, prices, eurRates, end: next });
    expect(extended && plain(extended)).toEqual(plain(scratch));
  });

  it('declines (null) without a checkpoint, for an earlier end or another tolerance', () => {
    const transactions = [tx(D0, { type: 'buy', symbol: 'Y', quantity: '1', price: '50' })];
    const short = buildTimeline({ transactions, prices, eurRates, end: plus(D0, 3) });
    expect(short.checkpoint).toBeUndefined();
    expect(extendTimeline(short, { transactions, prices, eurRates, end: plus(D0, 40) })).toBeNull();
    const longer = buildTimeline({ transactions, prices, eurRates, end: plus(D0, 40) });
    expect(
      extendTimeline(longer, { transactions, prices, eurRates, end: plus(D0, 20) }),
    ).toBeNull();
    const inputs = { transactions, prices, eurRates, end: plus(D0, 41), maxAgeDays: 2 };
    expect(extendTimeline(longer, inputs)).toBeNull();
  });
});
