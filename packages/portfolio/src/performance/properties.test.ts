import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LedgerTransaction } from '../derive-holdings.js';
import { measurePeriod } from './measure.js';
import { resolvePeriod } from './periods.js';
import { everyDay, plus, tx } from './test-fixtures.js';
import { buildTimeline } from './timeline.js';

const D0 = '2023-01-02';

/** Deposits, buys and withdrawals at random days and sizes; prices from `priceOn`. */
const flowPlan = fc.array(
  fc.record({
    day: fc.integer({ min: 0, max: 120 }),
    deposit: fc.integer({ min: 1, max: 100_000 }),
    invest: fc.double({ min: 0, max: 1, noNaN: true }),
    withdraw: fc.double({ min: 0, max: 0.9, noNaN: true }),
  }),
  { minLength: 1, maxLength: 12 },
);

interface Step {
  readonly day: number;
  readonly deposit: number;
  readonly invest: number;
  readonly withdraw: number;
}

function ledgerOf(plan: readonly Step[], priceOn: (offset: number) => number): LedgerTransaction[] {
  const ledger: LedgerTransaction[] = [];
  for (const step of [...plan].sort((a, b) => a.day - b.day)) {
    const day = plus(D0, step.day);
    const price = priceOn(step.day);
    const units = (step.deposit * step.invest) / price;
    ledger.push(tx(day, { type: 'deposit', amount: String(step.deposit) }));
    if (units > 1e-6)
      ledger.push(
        tx(day, { type: 'buy', symbol: 'X', quantity: units.toFixed(6), price: String(price) }),
      );
    const cashLeft = step.deposit - Number(units.toFixed(6)) * price;
    const out = Math.floor(cashLeft * step.withdraw);
    if (out > 0) ledger.push(tx(day, { type: 'withdrawal', amount: String(out) }));
  }
  return ledger;
}

describe('performance properties', () => {
  it('TWR is 0 when prices are flat, whatever the size and timing of external flows', () => {
    fc.assert(
      fc.property(flowPlan, fc.double({ min: 1, max: 1000, noNaN: true }), (plan, flat) => {
        const price = Math.round(flat * 100) / 100;
        const transactions = ledgerOf(plan, () => price);
        const prices = new Map([['X', everyDay('EUR', D0, plus(D0, 150), () => price)]]);
        const timeline = buildTimeline({
          transactions,
          prices,
          eurRates: new Map(),
          end: plus(D0, 150),
        });
        const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
        expect(result.twr.status).toBe('ok');
        if (result.twr.status === 'ok') expect(result.twr.value).toBeCloseTo(0, 9);
      }),
    );
  });

  it('splitting a period and chaining the parts gives the whole-period TWR', () => {
    fc.assert(
      fc.property(
        flowPlan,
        fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), {
          minLength: 151,
          maxLength: 151,
        }),
        fc.integer({ min: 0, max: 1000 }),
        (plan, moves, pick) => {
          const closes: number[] = [];
          moves.reduce((price, move) => {
            const next = Math.round(price * (1 + move) * 100) / 100;
            closes.push(next);
            return next;
          }, 100);
          const priceOn = (offset: number) => closes[offset] as number;
          const transactions = ledgerOf(plan, priceOn);
          const prices = new Map([['X', everyDay('EUR', D0, plus(D0, 150), priceOn)]]);
          const timeline = buildTimeline({
            transactions,
            prices,
            eurRates: new Map(),
            end: plus(D0, 150),
          });
          const whole = resolvePeriod({}, timeline);
          // a last day of the first part inside the timeline, before its last day
          const cut = plus(whole.from, pick % (timeline.length - 2));
          const first = resolvePeriod({ from: whole.from, to: cut }, timeline);
          const second = resolvePeriod({ from: plus(cut, 1), to: whole.to }, timeline);
          const [a, b, all] = [first, second, whole].map(
            (p) => measurePeriod(timeline, timeline.portfolio, p).twr,
          );
          if (a?.status !== 'ok' || b?.status !== 'ok' || all?.status !== 'ok') {
            // a part with nothing invested has no TWR; the whole then equals the other part
            return;
          }
          expect((1 + a.value) * (1 + b.value) - 1).toBeCloseTo(all.value, 9);
        },
      ),
    );
  });

  it('the MWR of a single buy-and-hold equals its annualised price return', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 366, max: 3650 }),
        fc.integer({ min: 100, max: 100_000 }),
        fc.integer({ min: 20, max: 500_000 }),
        (days, buyCents, endCents) => {
          const [p0, p1] = [buyCents / 100, endCents / 100];
          const transactions = [
            tx(D0, { type: 'buy', symbol: 'X', quantity: '3', price: String(p0) }),
          ];
          const prices = new Map([
            ['X', everyDay('EUR', D0, plus(D0, days), (o) => (o < days ? p0 : p1))],
          ]);
          const timeline = buildTimeline({
            transactions,
            prices,
            eurRates: new Map(),
            end: plus(D0, days),
          });
          const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
          const expected = (p1 / p0) ** (365 / days) - 1;
          expect(result.mwr).toMatchObject({ status: 'ok', basis: 'annualised' });
          if (result.mwr.status === 'ok') expect(result.mwr.value).toBeCloseTo(expected, 8);
          // the TWR agrees over the period, which counts the purchase day whole (an inflow counts
          // from the start of its day): days + 1
          expect(result.twrAnnualised).toMatchObject({ status: 'ok' });
          if (result.twrAnnualised?.status === 'ok') {
            expect(result.twrAnnualised.value).toBeCloseTo((p1 / p0) ** (365 / (days + 1)) - 1, 9);
          }
        },
      ),
    );
  });
});
