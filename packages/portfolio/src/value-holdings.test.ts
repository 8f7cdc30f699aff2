import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DerivedPortfolio } from './derive-holdings.js';
import { type Quote, type ValuationInputs, valueHoldings } from './value-holdings.js';

const valuedAt = '2024-03-02T08:00:00Z';
const quote = (price: string, currency = 'USD'): Quote => ({
  price,
  currency,
  asOf: '2024-03-01T21:00:00Z',
});
const inputs = (
  quotes: Record<string, Quote>,
  eurRates: Record<string, string>,
  names: Record<string, string> = {},
): ValuationInputs => ({
  quotes: new Map(Object.entries(quotes)),
  eurRates: new Map(Object.entries(eurRates)),
  valuedAt,
  names: new Map(Object.entries(names)),
});

const aapl = {
  symbol: 'AAPL',
  currency: 'USD',
  quantity: '2',
  averageCost: '150.5',
  costBasis: '301',
};

describe('valueHoldings', () => {
  it('values holdings and cash in EUR with weights over the total incl. cash', () => {
    const derived: DerivedPortfolio = {
      holdings: [aapl],
      cash: [
        { currency: 'EUR', amount: '100' },
        { currency: 'USD', amount: '699' },
      ],
    };
    const result = valueHoldings(
      derived,
      inputs({ AAPL: quote('180') }, { USD: '1.25' }, { AAPL: 'Apple Inc.' }),
    );
    // marketValue 2 × 180 = 360 USD → 360 / 1.25 = 288 EUR; cost 301 / 1.25 = 240.8; P&L 47.2
    // cash: 100 EUR, 699 / 1.25 = 559.2 EUR; total 288 + 100 + 559.2 = 947.2
    // weight 288 / 947.2 = 0.30405405405… → 0.3040540541 (10 places, half-even)
    expect(result.holdings).toEqual([
      {
        symbol: 'AAPL',
        name: 'Apple Inc.',
        quantity: '2',
        averageCost: '150.5',
        currency: 'USD',
        lastPrice: '180',
        marketValue: '360',
        marketValueEur: '288',
        costBasisEur: '240.8',
        unrealizedPnlEur: '47.2',
        weight: '0.3040540541',
        valuedAt,
        priceAsOf: '2024-03-01T21:00:00.000Z',
        fxAsOf: null,
        stale: false,
        realizedPnlEur: null,
      },
    ]);
    expect(result.cash).toEqual([
      { currency: 'EUR', amount: '100', amountEur: '100', valuedAt, fxAsOf: null },
      { currency: 'USD', amount: '699', amountEur: '559.2', valuedAt, fxAsOf: null },
    ]);
    expect(result.totalValueEur).toBe('947.2');
    expect(result.complete).toBe(true);
    expect(result.issues).toEqual([]);
  });

  it('takes the cost in EUR from the purchase-day rates, and flags an old quote or rate', () => {
    // bought for 301 USD when 1 EUR = 1.1 USD → 273.6363… EUR; today 1 EUR = 1.25 USD
    const derived: DerivedPortfolio = {
      holdings: [{ ...aapl, costBasisEur: '273.6363636364', realizedPnlEur: '5' }],
      cash: [],
    };
    const fresh = valueHoldings(derived, {
      ...inputs({ AAPL: quote('180') }, { USD: '1.25' }),
      eurRateDates: new Map([['USD', '2024-03-01']]),
    });
    // 288 − 273.6363636364: the dollar's fall since the purchase is part of the P&L
    expect(fresh.holdings[0]).toMatchObject({
      costBasisEur: '273.6363636364',
      unrealizedPnlEur: '14.3636363636',
      realizedPnlEur: '5',
      fxAsOf: '2024-03-01',
      stale: false,
    });
    const oldQuote = valueHoldings(derived, {
      ...inputs({ AAPL: { ...quote('180'), asOf: '2024-02-20' } }, { USD: '1.25' }),
      eurRateDates: new Map([['USD', '2024-03-01']]),
    });
    expect(oldQuote.holdings[0]).toMatchObject({
      stale: true,
      priceAsOf: '2024-02-20T00:00:00.000Z',
    });
    const oldRate = valueHoldings(derived, {
      ...inputs({ AAPL: quote('180') }, { USD: '1.25' }),
      eurRateDates: new Map([['USD', '2024-02-01']]),
    });
    expect(oldRate.holdings[0]?.stale).toBe(true);
  });

  it('leaves value fields null (not 0) and reports a missing quote', () => {
    const derived: DerivedPortfolio = {
      holdings: [
        aapl,
        { ...aapl, symbol: 'MSFT', quantity: '1', averageCost: '400', costBasis: '400' },
      ],
      cash: [],
    };
    const result = valueHoldings(derived, inputs({ AAPL: quote('180') }, { USD: '1.25' }));
    const msft = result.holdings.find((h) => h.symbol === 'MSFT');
    expect(msft).toMatchObject({
      name: 'MSFT',
      lastPrice: null,
      marketValue: null,
      marketValueEur: null,
      unrealizedPnlEur: null,
      weight: null,
      costBasisEur: '320', // 400 / 1.25
    });
    // the total covers what could be valued: AAPL alone, so its weight is 1
    expect(result.totalValueEur).toBe('288');
    expect(result.holdings[0]?.weight).toBe('1');
    expect(result.complete).toBe(false);
    expect(result.issues).toEqual([
      expect.objectContaining({ code: 'missing_quote', symbol: 'MSFT' }),
    ]);
  });

  it('cross-converts a quote in another currency through EUR', () => {
    const tsla = {
      symbol: 'TSLA',
      currency: 'EUR',
      quantity: '0.5',
      averageCost: '88',
      costBasis: '44',
    };
    const result = valueHoldings(
      { holdings: [tsla], cash: [] },
      inputs({ TSLA: quote('250') }, { USD: '1.25' }),
    );
    // 250 USD / 1.25 = 200 EUR per share; 0.5 × 200 = 100; P&L 100 − 44 = 56
    expect(result.holdings[0]).toMatchObject({
      currency: 'EUR',
      lastPrice: '200',
      marketValue: '100',
      marketValueEur: '100',
      costBasisEur: '44',
      unrealizedPnlEur: '56',
    });
  });

  it('reports a missing FX rate and leaves the EUR fields null', () => {
    const nestle = {
      symbol: 'NESN',
      currency: 'CHF',
      quantity: '3',
      averageCost: '100',
      costBasis: '300',
    };
    const result = valueHoldings(
      { holdings: [nestle], cash: [{ currency: 'CHF', amount: '10' }] },
      inputs({ NESN: quote('95', 'CHF') }, {}),
    );
    expect(result.holdings[0]).toMatchObject({
      lastPrice: '95',
      marketValue: '285',
      marketValueEur: null,
      costBasisEur: null,
      unrealizedPnlEur: null,
      weight: null,
    });
    expect(result.cash[0]?.amountEur).toBeNull();
    expect(result.issues.map((i) => i.code)).toEqual(['missing_fx_rate', 'missing_fx_rate']);
  });

  it('says on which day the rate was missing and, when told, where the rate data ends', () => {
    const nestle = {
      symbol: 'NESN',
      currency: 'CHF',
      quantity: '3',
      averageCost: '1',
      costBasis: '3',
    };
    const notes = new Map([['CHF', 'the ECB file eurofxref-hist.csv ends on 2026-04-13']]);
    const result = valueHoldings(
      { holdings: [nestle], cash: [{ currency: 'CHF', amount: '10' }] },
      { ...inputs({ NESN: quote('95', 'CHF') }, {}), eurRateNotes: notes },
    );
    const day = valuedAt.slice(0, 10);
    expect(result.issues.map((i) => i.message)).toEqual([
      `no EUR reference rate of CHF on ${day} (needed by NESN); the ECB file eurofxref-hist.csv ends on 2026-04-13`,
      `no EUR reference rate of CHF on ${day}; the ECB file eurofxref-hist.csv ends on 2026-04-13`,
    ]);
  });

  it('rounds EUR values to 10 places and keeps P&L consistent with them', () => {
    const x = { symbol: 'X', currency: 'USD', quantity: '1', averageCost: '1', costBasis: '1' };
    const result = valueHoldings(
      { holdings: [x], cash: [] },
      inputs({ X: quote('2') }, { USD: '3' }),
    );
    // 2 / 3 = 0.6666666666… → 0.6666666667; 1 / 3 → 0.3333333333; P&L 0.3333333334
    expect(result.holdings[0]).toMatchObject({
      marketValueEur: '0.6666666667',
      costBasisEur: '0.3333333333',
      unrealizedPnlEur: '0.3333333334',
      weight: '1',
    });
  });

  it('weighs against the gross value: negative cash stays out of the denominator', () => {
    const result = valueHoldings(
      {
        holdings: [aapl, { ...aapl, symbol: 'MSFT', quantity: '1', costBasis: '100' }],
        cash: [
          { currency: 'EUR', amount: '-1000' },
          { currency: 'USD', amount: '90' },
        ],
      },
      inputs({ AAPL: quote('180'), MSFT: quote('415') }, { USD: '1.25' }),
    );
    // AAPL 2 × 180 / 1.25 = 288 EUR; MSFT 415 / 1.25 = 332 EUR; USD cash 90 / 1.25 = 72 EUR
    // net total 288 + 332 + 72 − 1000 = −308; gross 288 + 332 + 72 = 692
    expect(result.totalValueEur).toBe('-308');
    // 288 / 692 = 0.41618497109… ; 332 / 692 = 0.47976878612…
    expect(result.holdings.map((h) => h.weight)).toEqual(['0.4161849711', '0.4797687861']);
  });

  it('keeps weights within 0–1 when cash is overdrawn but the net value is positive', () => {
    const result = valueHoldings(
      { holdings: [aapl], cash: [{ currency: 'EUR', amount: '-100' }] },
      inputs({ AAPL: quote('180') }, { USD: '1.25' }),
    );
    // net 288 − 100 = 188 would give 288 / 188 = 1.53; gross is 288 → weight 1
    expect(result.totalValueEur).toBe('188');
    expect(result.holdings[0]?.weight).toBe('1');
  });

  it('gives null weights when nothing has a positive EUR value', () => {
    const result = valueHoldings(
      { holdings: [aapl], cash: [{ currency: 'EUR', amount: '-1000' }] },
      inputs({}, { USD: '1.25' }),
    );
    expect(result.holdings[0]?.weight).toBeNull();
  });

  it('weights of holdings lie in [0, 1] and, with positive cash, sum to about 1 (property)', () => {
    const amount = fc
      .integer({ min: -1_000_000, max: 1_000_000 })
      .map((cents) => (cents / 100).toFixed(2));
    const holding = fc.record({
      quantity: fc.integer({ min: 1, max: 10_000 }).map(String),
      price: fc.integer({ min: 0, max: 100_000 }).map((c) => (c / 100).toFixed(2)),
    });
    fc.assert(
      fc.property(
        fc.array(holding, { minLength: 1, maxLength: 5 }),
        fc.array(amount, { maxLength: 3 }),
        (hs, cash) => {
          const derived: DerivedPortfolio = {
            holdings: hs.map((h, i) => ({
              symbol: `S${i}`,
              currency: 'EUR',
              quantity: h.quantity,
              averageCost: '1',
              costBasis: h.quantity,
            })),
            cash: cash.map((a, i) => ({ currency: ['EUR', 'USD', 'GBP'][i] ?? 'EUR', amount: a })),
          };
          const quotes = Object.fromEntries(hs.map((h, i) => [`S${i}`, quote(h.price, 'EUR')]));
          const result = valueHoldings(derived, inputs(quotes, { USD: '1.1', GBP: '0.85' }));
          const positiveCash = result.cash
            .map((c) => Number(c.amountEur))
            .filter((v) => v > 0)
            .reduce((a, b) => a + b, 0);
          const weights = result.holdings.map((h) => h.weight);
          for (const w of weights) {
            if (w === null) continue;
            expect(Number(w)).toBeGreaterThanOrEqual(0);
            expect(Number(w)).toBeLessThanOrEqual(1);
          }
          const holdingsEur = result.holdings.reduce((s, h) => s + Number(h.marketValueEur), 0);
          if (holdingsEur + positiveCash > 0) {
            const sum = weights.reduce((s, w) => s + Number(w), 0);
            expect(sum + positiveCash / (holdingsEur + positiveCash)).toBeCloseTo(1, 6);
          } else {
            expect(weights.every((w) => w === null)).toBe(true);
          }
        },
      ),
    );
  });

  it('treats a quote price that is not a decimal as invalid', () => {
    const result = valueHoldings(
      { holdings: [aapl], cash: [] },
      inputs({ AAPL: quote('NaN') }, { USD: '1.25' }),
    );
    expect(result.holdings[0]?.lastPrice).toBeNull();
    expect(result.issues[0]?.code).toBe('invalid_quote');
  });
});
