import { describe, expect, it } from 'vitest';
import { measurePeriod, type ReturnFigure } from './measure.js';
import { resolvePeriod } from './periods.js';
import { valueSeries } from './series.js';
import { everyDay, plus, tx } from './test-fixtures.js';
import { buildTimeline } from './timeline.js';
import type { DailySeries } from './types.js';
import { xirr } from './xirr.js';

const value = (figure: ReturnFigure | null) => (figure?.status === 'ok' ? figure.value : figure);

/** Prices from a step function: `steps` maps an offset from `start` to the close from then on. */
function steps(
  currency: string,
  start: string,
  end: string,
  table: [number, number][],
): DailySeries {
  return everyDay(currency, start, end, (offset) =>
    table.reduce((close, [from, price]) => (offset >= from ? price : close), table[0]?.[1] ?? 1),
  );
}

const D0 = '2024-01-01';

describe('buildTimeline + measurePeriod, hand-checked', () => {
  it('CFA Institute TWR example: 22 % then 10 %, 15.84 % a year over two years', () => {
    // CFA Institute Level I curriculum, "Discounted Cash Flow Applications" (time-weighted
    // return example): year 1 from 100 to 120 with a 2 dividend (22 %); a second share bought
    // at 120; year 2 to 130 each with 4 of dividends (10 %); TWR = √(1.22 × 1.10) − 1 = 15.84 %.
    const prices = new Map([
      [
        'X',
        steps('EUR', '2021-01-01', '2023-01-01', [
          [0, 100],
          [364, 120],
          [729, 130],
        ]),
      ],
    ]);
    const transactions = [
      tx('2021-01-01', { type: 'buy', symbol: 'X', quantity: '1', price: '100' }),
      tx('2021-12-31', { type: 'dividend', symbol: 'X', amount: '2' }),
      tx('2022-01-01', { type: 'buy', symbol: 'X', quantity: '1', price: '120' }),
      tx('2022-12-31', { type: 'dividend', symbol: 'X', amount: '4' }),
    ];
    const timeline = buildTimeline({
      transactions,
      prices,
      eurRates: new Map(),
      end: '2022-12-31',
    });
    const holding = timeline.holdings.get('X EUR');
    if (!holding) throw new Error('no holding');
    const whole = measurePeriod(timeline, holding, resolvePeriod({}, timeline));
    expect(whole.days).toBe(730);
    expect(value(whole.twr)).toBeCloseTo(1.22 * 1.1 - 1, 12);
    expect(whole.twrAnnualised).toMatchObject({ basis: 'annualised' });
    expect(value(whole.twrAnnualised)).toBeCloseTo(Math.sqrt(1.22 * 1.1) - 1, 12);
    expect(value(whole.twrAnnualised)).toBeCloseTo(0.1584, 4);
    expect(whole.dividendsEur).toBe(6);
    expect(value(whole.currencyEffect)).toBe(0);
  });

  it('a deposit mid-period does not change the TWR: 10 % then 10 % is 21 %', () => {
    const prices = new Map([
      [
        'X',
        steps('EUR', D0, plus(D0, 40), [
          [0, 100],
          [9, 110],
          [20, 121],
        ]),
      ],
    ]);
    const transactions = [
      tx(D0, { type: 'deposit', amount: '1000' }),
      tx(D0, { type: 'buy', symbol: 'X', quantity: '10', price: '100' }),
      tx(plus(D0, 10), { type: 'deposit', amount: '1100' }),
      tx(plus(D0, 10), { type: 'buy', symbol: 'X', quantity: '10', price: '110' }),
    ];
    const timeline = buildTimeline({
      transactions,
      prices,
      eurRates: new Map(),
      end: plus(D0, 20),
    });
    expect(timeline.cashFlowBasis).toBe('recorded');
    const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(value(result.twr)).toBeCloseTo(0.21, 12);
    expect(result.endValueEur).toBeCloseTo(2420, 9);
    expect(result.netFlowsEur).toBe(2100);
    // the money-weighted return is the root of these flows: −1000, −1100 then +2420
    const mwr = xirr([
      { day: 0, amount: -1000 },
      { day: 10, amount: -1100 },
      { day: 20, amount: 2420 },
    ]);
    expect(mwr.ok).toBe(true);
    if (mwr.ok) expect(value(result.mwr)).toBeCloseTo((1 + mwr.rate) ** (20 / 365) - 1, 10);
    expect(result.mwr).toMatchObject({ basis: 'cumulative' });
  });

  it('a withdrawal after a sale: 20 %, 0 %, 10 % chain to 32 %', () => {
    const prices = new Map([
      [
        'X',
        steps('EUR', D0, plus(D0, 10), [
          [0, 100],
          [5, 120],
          [8, 132],
        ]),
      ],
    ]);
    const transactions = [
      tx(D0, { type: 'deposit', amount: '1000' }),
      tx(D0, { type: 'buy', symbol: 'X', quantity: '10', price: '100' }),
      tx(plus(D0, 6), { type: 'sell', symbol: 'X', quantity: '5', price: '120' }),
      tx(plus(D0, 6), { type: 'withdrawal', amount: '600' }),
    ];
    const timeline = buildTimeline({ transactions, prices, eurRates: new Map(), end: plus(D0, 8) });
    const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(value(result.twr)).toBeCloseTo(0.32, 12);
    expect(result.endValueEur).toBeCloseTo(660, 9);
  });

  it('a sale to zero: the holding earns to the sale price, then has no capital', () => {
    const prices = new Map([
      [
        'X',
        steps('EUR', D0, plus(D0, 30), [
          [0, 100],
          [3, 110],
          [4, 118],
        ]),
      ],
    ]);
    const transactions = [
      tx(D0, { type: 'buy', symbol: 'X', quantity: '10', price: '100' }),
      tx(plus(D0, 4), { type: 'sell', symbol: 'X', quantity: '10', price: '115', fee: '0' }),
    ];
    const timeline = buildTimeline({
      transactions,
      prices,
      eurRates: new Map(),
      end: plus(D0, 30),
    });
    expect(timeline.cashFlowBasis).toBe('implicit');
    const holding = timeline.holdings.get('X EUR');
    if (!holding) throw new Error('no holding');
    expect(value(measurePeriod(timeline, holding, resolvePeriod({}, timeline)).twr)).toBeCloseTo(
      0.15,
      12,
    );
    // the portfolio keeps the proceeds as cash: same 15 %
    const portfolio = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(value(portfolio.twr)).toBeCloseTo(0.15, 12);
    const after = resolvePeriod({ from: plus(D0, 10), to: plus(D0, 30) }, timeline);
    expect(measurePeriod(timeline, holding, after).twr).toMatchObject({
      status: 'unavailable',
      code: 'no_capital',
    });
  });

  it('a dividend is income of the holding and of the portfolio; a fee a cost', () => {
    const prices = new Map([['X', everyDay('EUR', D0, plus(D0, 10), () => 100)]]);
    const transactions = [
      tx(D0, { type: 'buy', symbol: 'X', quantity: '10', price: '100' }),
      tx(plus(D0, 5), { type: 'dividend', symbol: 'X', amount: '20' }),
      tx(plus(D0, 6), { type: 'fee', amount: '5' }),
    ];
    const timeline = buildTimeline({
      transactions,
      prices,
      eurRates: new Map(),
      end: plus(D0, 10),
    });
    const holding = timeline.holdings.get('X EUR');
    if (!holding) throw new Error('no holding');
    const h = measurePeriod(timeline, holding, resolvePeriod({}, timeline));
    expect(value(h.twr)).toBeCloseTo(0.02, 12);
    expect(h.dividendsEur).toBe(20);
    const p = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(value(p.twr)).toBeCloseTo((1020 / 1000) * (1015 / 1020) - 1, 12);
    expect(p.feesEur).toBe(5);
  });

  it('tax withheld on a dividend (a fee noted withholding tax, as imports record it) is reported apart from fees', () => {
    const prices = new Map([['X', everyDay('EUR', D0, plus(D0, 10), () => 100)]]);
    const transactions = [
      tx(D0, { type: 'buy', symbol: 'X', quantity: '10', price: '100', fee: '2' }),
      tx(plus(D0, 5), { type: 'dividend', symbol: 'X', amount: '20' }),
      tx(plus(D0, 5), { type: 'fee', symbol: 'X', amount: '3', note: 'withholding tax' }),
      tx(plus(D0, 6), { type: 'fee', amount: '1', note: 'Withholding tax: US 15%' }),
      // a fee noted otherwise stays a fee
      tx(plus(D0, 7), { type: 'fee', amount: '4', note: 'stamp duty' }),
    ];
    const timeline = buildTimeline({
      transactions,
      prices,
      eurRates: new Map(),
      end: plus(D0, 10),
    });
    const holding = timeline.holdings.get('X EUR');
    if (!holding) throw new Error('no holding');
    const h = measurePeriod(timeline, holding, resolvePeriod({}, timeline));
    expect(h).toMatchObject({ dividendsEur: 20, feesEur: 2, withholdingTaxEur: 3 });
    const p = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(p).toMatchObject({ dividendsEur: 20, feesEur: 6, withholdingTaxEur: 4 });
    // the tax is a cost inside the portfolio like any fee: the same TWR as with a plain fee
    const plain = buildTimeline({
      transactions: transactions.map(({ note: _note, ...t }) => t),
      prices,
      eurRates: new Map(),
      end: plus(D0, 10),
    });
    expect(measurePeriod(plain, plain.portfolio, resolvePeriod({}, plain)).twr).toEqual(p.twr);
  });

  it('a USD holding while EUR/USD moves: local +10 %, EUR 0 %, currency effect 1/1.1 − 1', () => {
    const start = '2024-01-02';
    const prices = new Map([
      [
        'X',
        steps('USD', start, plus(start, 20), [
          [0, 100],
          [8, 110],
        ]),
      ],
    ]);
    const eurRates = new Map([
      [
        'USD',
        steps('USD', start, plus(start, 20), [
          [0, 1],
          [8, 1.1],
        ]),
      ],
    ]);
    const transactions = [
      tx(start, { type: 'buy', symbol: 'X', quantity: '10', price: '100', currency: 'USD' }),
    ];
    const timeline = buildTimeline({ transactions, prices, eurRates, end: plus(start, 20) });
    for (const track of [timeline.holdings.get('X USD'), timeline.portfolio]) {
      if (!track) throw new Error('no track');
      const r = measurePeriod(timeline, track, resolvePeriod({}, timeline));
      expect(value(r.twrLocal)).toBeCloseTo(0.1, 12);
      expect(value(r.twr)).toBeCloseTo(0, 12);
      expect(value(r.currencyEffect)).toBeCloseTo(1 / 1.1 - 1, 12);
    }
  });
});

describe('honest gaps', () => {
  // weekdays only, and Wednesday 2024-01-10 missing (a holiday)
  const weekdays = everyDay('EUR', '2024-01-01', '2024-01-31', () => 100);
  const holiday: DailySeries = {
    currency: 'EUR',
    dates: weekdays.dates.filter(
      (d) => ![0, 6].includes(new Date(d).getUTCDay()) && d !== '2024-01-10',
    ),
    values: weekdays.dates
      .filter((d) => ![0, 6].includes(new Date(d).getUTCDay()) && d !== '2024-01-10')
      .map(() => 100),
  };
  const transactions = [
    tx('2024-01-02', { type: 'buy', symbol: 'X', quantity: '1', price: '100' }),
  ];

  it('names a stale close used within the tolerance (a holiday), not the weekend', () => {
    const timeline = buildTimeline({
      transactions,
      prices: new Map([['X', holiday]]),
      eurRates: new Map(),
      end: '2024-01-31',
    });
    const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(result.twr).toMatchObject({ status: 'ok', value: 0 });
    expect(result.stale).toEqual([
      {
        kind: 'price',
        symbol: 'X',
        currency: 'EUR',
        days: 1,
        firstDate: '2024-01-10',
        lastDate: '2024-01-10',
        maxAgeDays: 1,
      },
    ]);
  });

  it('a gap beyond the tolerance makes the returns unavailable with the first missing day', () => {
    const gap: DailySeries = {
      currency: 'EUR',
      dates: holiday.dates.filter((d) => d < '2024-01-12' || d > '2024-01-22'),
      values: holiday.dates.filter((d) => d < '2024-01-12' || d > '2024-01-22').map(() => 100),
    };
    const timeline = buildTimeline({
      transactions,
      prices: new Map([['X', gap]]),
      eurRates: new Map(),
      end: '2024-01-31',
    });
    const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    // last close Thursday 11th; 4 days later (Monday 15th) still within, Tuesday 16th is not
    for (const figure of [result.twr, result.twrLocal, result.currencyEffect, result.mwr]) {
      expect(figure).toMatchObject({
        status: 'unavailable',
        code: 'missing_price',
        firstMissingDate: '2024-01-16',
        symbol: 'X',
      });
    }
    expect(result.endValueEur).toBeNull();
    const series = valueSeries(timeline, timeline.portfolio, resolvePeriod({}, timeline), 'daily');
    expect(series.find((p) => p.date === '2024-01-16')?.valueEur).toBeNull();
    expect(series.find((p) => p.date === '2024-01-15')?.valueEur).toBe(100);
    // a period after the gap is fine again
    const later = resolvePeriod({ from: '2024-01-24', to: '2024-01-31' }, timeline);
    expect(measurePeriod(timeline, timeline.portfolio, later).twr).toMatchObject({ status: 'ok' });
  });

  it('a missing EUR rate is missing_fx_rate, never a rate of 1', () => {
    const usd = [
      tx('2024-01-02', { type: 'buy', symbol: 'X', quantity: '1', price: '100', currency: 'USD' }),
    ];
    const prices = new Map([['X', everyDay('USD', '2024-01-01', '2024-01-31', () => 100)]]);
    // a gap in the published rates (12th → 25th) beyond the tolerance
    const rates = everyDay('USD', '2024-01-01', '2024-01-31', () => 1.1);
    const keep = rates.dates.map((d) => d <= '2024-01-12' || d >= '2024-01-25');
    const gap = {
      currency: 'USD',
      dates: rates.dates.filter((_, i) => keep[i]),
      values: rates.values.filter((_, i) => keep[i]),
    };
    const timeline = buildTimeline({
      transactions: usd,
      prices,
      eurRates: new Map([['USD', gap]]),
      end: '2024-01-31',
    });
    const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(result.twr).toMatchObject({
      code: 'missing_fx_rate',
      currency: 'USD',
      firstMissingDate: '2024-01-17',
    });
  });

  it('after the last published rate and close, both carry forward, stale (issue 38)', () => {
    const usd = [
      tx('2024-01-02', { type: 'buy', symbol: 'X', quantity: '1', price: '100', currency: 'USD' }),
    ];
    // the rates end on the 12th (an ECB file of that day), the closes on the 20th
    const prices = new Map([['X', everyDay('USD', '2024-01-01', '2024-01-20', () => 110)]]);
    const eurRates = new Map([['USD', everyDay('USD', '2024-01-01', '2024-01-12', () => 1.1)]]);
    const timeline = buildTimeline({ transactions: usd, prices, eurRates, end: '2024-01-31' });
    const result = measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    expect(result.twr).toMatchObject({ status: 'ok' });
    expect(result.endValueEur).toBeCloseTo(110 / 1.1, 6);
    expect(result.stale).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'fx_rate', currency: 'USD' }),
        expect.objectContaining({ kind: 'price', symbol: 'X' }),
      ]),
    );
  });

  it('a close of 0 is a gap, unless the series says 0 is a price (issue 38: shares received at zero cost)', () => {
    const received = [
      tx('2024-01-02', { type: 'deposit', amount: '100' }),
      tx('2024-01-02', { type: 'buy', symbol: 'Y', quantity: '10', price: '0' }),
    ];
    const zero = { currency: 'EUR', dates: ['2024-01-02'], values: [0] };
    const measure = (series: DailySeries) => {
      const timeline = buildTimeline({
        transactions: received,
        prices: new Map([['Y', series]]),
        eurRates: new Map(),
        end: '2024-01-31',
      });
      return measurePeriod(timeline, timeline.portfolio, resolvePeriod({}, timeline));
    };
    expect(measure(zero).twr).toMatchObject({ status: 'unavailable', code: 'missing_price' });
    const priced = measure({ ...zero, zeroIsPrice: true });
    // the cash alone: 100 EUR, nothing gained or lost; Y's price carried forward is stale
    expect(priced.twr).toMatchObject({ status: 'ok', value: 0 });
    expect(priced.endValueEur).toBe(100);
    expect(priced.stale).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'price', symbol: 'Y' })]),
    );
  });
});

describe('periods', () => {
  it('an empty ledger has no history, whatever the period', () => {
    const timeline = buildTimeline({
      transactions: [],
      prices: new Map(),
      eurRates: new Map(),
      end: '2024-03-01',
    });
    for (const period of ['1M', 'YTD', 'inception'] as const) {
      const result = measurePeriod(
        timeline,
        timeline.portfolio,
        resolvePeriod({ period }, timeline),
      );
      expect(result.twr).toMatchObject({ status: 'unavailable', code: 'no_history' });
      expect(result.mwr).toMatchObject({ status: 'unavailable', code: 'no_history' });
    }
  });

  it('1M, 3M, YTD, 1Y and 3Y end on `to` and start the day after their base day', () => {
    const prices = new Map([['X', everyDay('EUR', '2020-01-01', '2024-03-31', () => 100)]]);
    const transactions = [
      tx('2020-01-02', { type: 'buy', symbol: 'X', quantity: '1', price: '100' }),
    ];
    const timeline = buildTimeline({
      transactions,
      prices,
      eurRates: new Map(),
      end: '2024-03-31',
    });
    const from = (period: 'YTD' | '1M' | '3M' | '1Y' | '3Y') =>
      resolvePeriod({ period }, timeline).from;
    expect(from('1M')).toBe('2024-03-01'); // base 2024-02-29 (31 March − 1 month, clamped)
    expect(from('3M')).toBe('2024-01-01');
    expect(from('YTD')).toBe('2024-01-01');
    expect(from('1Y')).toBe('2023-04-01');
    expect(from('3Y')).toBe('2021-04-01');
    expect(resolvePeriod({ period: '3Y' }, timeline).clampedToInception).toBe(false);
  });
});
