import { Valuation } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { computeValuation, SELL_TRIGGER_PE } from './compute-valuation.js';
import { ValuationError } from './errors.js';
import { epsHistory, makeFundamentals, usd } from './test-fixtures.js';

// Compounder: EPS 2.00 → 3.22102 over FY2019→FY2024 is 2 × 1.1^5, so the CAGR is exactly 10 %.
const compounderEps = [2.0, 2.2, 2.45, 2.7, 2.95, 3.22102];
const payoutExtras = { netIncome: 100e9, dividendsPaid: 15e9, shareRepurchases: 75e9 };
const compounder = makeFundamentals(epsHistory(compounderEps, payoutExtras));

describe('computeValuation: hand-computed table', () => {
  const cases = [
    {
      name: 'compounder at P/E 30 (96.6306 / 3.22102), growth 10 %/yr → PEG 3',
      input: { fundamentals: compounder, price: usd(96.6306) },
      expected: { peRatio: 30, pegRatio: 3, augmentedPayoutRatio: 90, sellTrigger: false },
      growth: 10,
    },
    {
      name: 'P/E exactly 40 (40 / 1) fires the sell trigger',
      input: {
        fundamentals: makeFundamentals(epsHistory([0.5, 0.6, 0.7, 0.8, 0.9, 1])),
        price: usd(40),
      },
      // growth (1/0.5)^(1/5) − 1 = 14.8698 % → PEG 40 / 14.8698 = 2.69001
      expected: { peRatio: 40, pegRatio: 2.69001, augmentedPayoutRatio: null, sellTrigger: true },
      growth: 14.8698,
    },
    {
      name: 'P/E 39.99 does not fire it',
      input: {
        fundamentals: makeFundamentals(epsHistory([0.5, 0.6, 0.7, 0.8, 0.9, 1])),
        price: usd(39.99),
      },
      expected: {
        peRatio: 39.99,
        pegRatio: 2.68934,
        augmentedPayoutRatio: null,
        sellTrigger: false,
      },
      growth: 14.8698,
    },
    {
      name: 'loss at the start endpoint: 3-year means 1 → 8 give 100 %/yr; P/E 250 / 10 = 25',
      input: { fundamentals: makeFundamentals(epsHistory([-1, 1, 3, 6, 8, 10])), price: usd(250) },
      expected: { peRatio: 25, pegRatio: 0.25, augmentedPayoutRatio: null, sellTrigger: false },
      growth: 100,
    },
    {
      name: 'NVDA-like: FY EPS 11.93 as filed, price 121.79 after a 10:1 split → P/E 102.0872',
      input: {
        fundamentals: makeFundamentals(epsHistory([1, 2, 4, 4.5, 1.8, 11.93])),
        price: usd(121.79),
        splitFactor: 10,
      },
      // growth (11.93 / 1)^(1/5) − 1 = 64.18296 % → PEG 102.08718 / 64.18296 = 1.59057
      expected: {
        peRatio: 102.0872,
        pegRatio: 1.59057,
        augmentedPayoutRatio: null,
        sellTrigger: true,
      },
      growth: 64.18296,
    },
  ];

  for (const { name, input, expected, growth } of cases) {
    it(name, () => {
      const result = computeValuation(input);
      for (const [key, value] of Object.entries(expected)) {
        const actual = result[key as keyof typeof expected];
        if (typeof value === 'number') expect(actual, key).toBeCloseTo(value, 3);
        else expect(actual, key).toBe(value);
      }
      expect(result._epsGrowthPercent).toBeCloseTo(growth, 3);
      expect(() => Valuation.parse(result)).not.toThrow();
    });
  }
});

describe('computeValuation: explanation fields', () => {
  it('names the EPS year, the price and the growth basis', () => {
    const result = computeValuation({
      fundamentals: compounder,
      price: { value: 96.6306, currency: 'usd', asOf: '2025-03-03', source: 'yahoo-csv' },
    });
    expect(result).toMatchObject({
      _price: 96.6306,
      _priceCurrency: 'USD',
      _priceAsOf: '2025-03-03',
      _priceSource: 'yahoo-csv',
      _epsFiscalYear: 2024,
      _epsPeriodEnd: '2024-12-31',
      _trailingEps: 3.22102,
      _trailingEpsDerived: false,
      _pegGrowthBasis: '5-year diluted EPS CAGR FY2019→FY2024 (endpoints)',
      _payoutFiscalYear: 2024,
      _payoutComponents: 'dividends+buybacks',
      _notes: ['no analyst estimate available: forward P/E not computed'],
    });
  });

  it('says when the 3-year-mean growth was used', () => {
    const result = computeValuation({
      fundamentals: makeFundamentals(epsHistory([-1, 1, 3, 6, 8, 10])),
      price: usd(250),
    });
    expect(result._pegGrowthBasis).toContain('3-year means FY2019–FY2021 → FY2022–FY2024');
  });
});

describe('computeValuation: nulls and their notes', () => {
  it('without a price: no price-based ratio, sell trigger false, payout still computed', () => {
    const result = computeValuation({ fundamentals: compounder, price: null, forwardEps: 4 });
    expect(result.peRatio).toBeNull();
    expect(result.forwardPE).toBeNull();
    expect(result.pegRatio).toBeNull();
    expect(result.sellTrigger).toBe(false);
    expect(result.augmentedPayoutRatio).toBeCloseTo(90, 10);
    expect(result._epsGrowthPercent).toBeCloseTo(10, 6);
    expect(result._notes[0]).toMatch(/^no price available/);
  });

  it('loss year: P/E not meaningful, PEG null although growth exists', () => {
    // FY2019–21 mean 1, FY2022–24 mean (2 + 2 − 0.5) / 3 = 1.16667 → growth 5.27266 %/yr
    const result = computeValuation({
      fundamentals: makeFundamentals(epsHistory([1, 1, 1, 2, 2, -0.5], { netIncome: -5e8 })),
      price: usd(30),
    });
    expect(result.peRatio).toBeNull();
    expect(result.pegRatio).toBeNull();
    expect(result.sellTrigger).toBe(false);
    expect(result.augmentedPayoutRatio).toBeNull();
    expect(result._epsGrowthPercent).toBeCloseTo(5.27266, 4);
    expect(result._notes).toContain('loss year FY2024 (diluted EPS ≤ 0): P/E not meaningful');
    expect(result._notes).toContain('loss year FY2024: augmented payout not meaningful');
  });

  it('stale earnings: no P/E, PEG or sell trigger when the EPS year ended > 18 months before the price', () => {
    // FY2024 ends 2024-12-31; a price of 2026-07-06 is 552 days later (> 548): stale.
    const stale = computeValuation({
      fundamentals: makeFundamentals(epsHistory([1, 1.1, 1.2, 1.3, 1.4, 1.5])),
      price: { ...usd(30), asOf: '2026-07-06' },
    });
    expect(stale.peRatio).toBeNull();
    expect(stale.pegRatio).toBeNull();
    expect(stale.sellTrigger).toBe(false);
    expect(stale._trailingEps).toBe(1.5);
    expect(stale._notes.some((n) => n.includes('552 days before the price'))).toBe(true);
    // 2026-07-01 is 547 days later: still current, P/E = 30 / 1.5 = 20.
    const current = computeValuation({
      fundamentals: makeFundamentals(epsHistory([1, 1.1, 1.2, 1.3, 1.4, 1.5])),
      price: { ...usd(30), asOf: '2026-07-01' },
    });
    expect(current.peRatio).toBeCloseTo(20, 10);
  });

  it('stale earnings: EPS exactly 548 days old is too old (the 18-month bound is exclusive)', () => {
    // FY2024 ends 2024-12-31; 2026-07-02 is 365 + 183 = 548 days later.
    const edge = computeValuation({
      fundamentals: makeFundamentals(epsHistory([1, 1.1, 1.2, 1.3, 1.4, 1.5])),
      price: { ...usd(30), asOf: '2026-07-02' },
    });
    expect(edge.peRatio).toBeNull();
    expect(edge._notes.some((n) => n.includes('548 days before the price'))).toBe(true);
    expect(edge._notes.some((n) => n.includes('less than 548 days old'))).toBe(true);
  });

  it('reports _trailingEpsDerived when the provider derived the EPS (its provenance says so)', () => {
    const fundamentals = makeFundamentals(epsHistory([1, 1.1, 1.2, 1.3, 1.4, 1.5]));
    const latest = fundamentals.years.at(-1) as (typeof fundamentals.years)[number];
    latest.dilutedEps = {
      value: 1.5,
      source: {
        tag: 'derived:netIncome/dilutedShares',
        form: null,
        accession: null,
        filed: null,
        derived: true,
      },
    };
    const result = computeValuation({ fundamentals, price: usd(30) });
    expect(result._trailingEpsDerived).toBe(true);
    expect(result._notes).toContain(
      'FY2024 diluted EPS derived by the provider (derived:netIncome/dilutedShares), not reported',
    );
    const reported = computeValuation({
      fundamentals: makeFundamentals(epsHistory([1, 1.1, 1.2, 1.3, 1.4, 1.5])),
      price: usd(30),
    });
    expect(reported._trailingEpsDerived).toBe(false);
  });

  it('PEG: no endpoint growth rate from a base EPS too small to carry one (F: 0.01 → 1.46)', () => {
    // F FY2019–FY2024 EPS: 0.01, −0.32, 4.45, −0.49, 1.08, 1.46. Endpoint CAGR would be
    // (1.46 / 0.01)^(1/5) − 1 = 170.9%/yr. Median |EPS| = (0.49 + 1.08) / 2 = 0.785; 0.01 < 10% of
    // it, so the 3-year means are used: (0.01 − 0.32 + 4.45) / 3 = 1.38 → (−0.49 + 1.08 + 1.46) / 3
    // = 0.683: growth (0.683 / 1.38)^(1/3) − 1 < 0 → no PEG, with the reason.
    const ford = computeValuation({
      fundamentals: makeFundamentals(epsHistory([0.01, -0.32, 4.45, -0.49, 1.08, 1.46])),
      price: usd(10),
    });
    expect(ford.pegRatio).toBeNull();
    expect(ford._epsGrowthPercent).toBeLessThan(0);
    expect(ford._pegGrowthBasis).toMatch(/FY2019 EPS 0.01 is below 10% of the median \|EPS\| 0.79/);
    expect(ford._notes.some((n) => n.includes('PEG not meaningful'))).toBe(true);
    // A real base (0.5 against a median around 1) keeps the endpoint CAGR.
    const grower = computeValuation({
      fundamentals: makeFundamentals(epsHistory([0.5, 0.7, 0.9, 1.1, 1.3, 1.5])),
      price: usd(30),
    });
    expect(grower._pegGrowthBasis).toMatch(/\(endpoints\)/);
  });

  it('explains a payout above 100% as real (buybacks above earnings)', () => {
    const result = computeValuation({
      fundamentals: makeFundamentals(
        epsHistory([1, 1.1, 1.2, 1.3, 1.4, 1.5], {
          netIncome: 1_000e6,
          dividendsPaid: 300e6,
          shareRepurchases: 1_590e6,
        }),
      ),
      price: usd(30),
    });
    expect(result.augmentedPayoutRatio).toBeCloseTo(189, 10);
    expect(result._notes).toContain(
      'payout 189% above 100% is real, not an error: in FY2024 dividends (300 M) plus buybacks (1,590 M) exceeded net income (1,000 M); the excess came from cash, debt or earlier earnings',
    );
  });

  it('forward P/E: computed from an estimate, null and explained without or with a loss estimate', () => {
    expect(
      computeValuation({ fundamentals: compounder, price: usd(96.6306), forwardEps: 4 }).forwardPE,
    ).toBeCloseTo(24.15765, 5);
    const negative = computeValuation({
      fundamentals: compounder,
      price: usd(96.6306),
      forwardEps: -1,
    });
    expect(negative.forwardPE).toBeNull();
    expect(negative._notes).toContain('estimated EPS ≤ 0: forward P/E not meaningful');
  });

  it('falling EPS: PEG not meaningful', () => {
    const result = computeValuation({
      fundamentals: makeFundamentals(epsHistory([4, 3.5, 3, 2.5, 2.2, 2])),
      price: usd(20),
    });
    expect(result.peRatio).toBeCloseTo(10, 10);
    expect(result.pegRatio).toBeNull();
    // (2 / 4)^(1/5) − 1 = −12.9449 %
    expect(result._epsGrowthPercent).toBeCloseTo(-12.9449, 3);
    expect(result._notes.some((n) => /PEG not meaningful/.test(n))).toBe(true);
  });

  it('short history: PEG not computed, the reason names the missing year', () => {
    const result = computeValuation({
      fundamentals: makeFundamentals([
        { fiscalYear: 2023, dilutedEps: 1 },
        { fiscalYear: 2024, dilutedEps: 1.2 },
      ]),
      price: usd(12),
    });
    expect(result.peRatio).toBeCloseTo(10, 10);
    expect(result.pegRatio).toBeNull();
    expect(result._pegGrowthBasis).toBeNull();
    expect(result._notes.join('\n')).toContain('need diluted EPS for FY2019 and FY2024');
  });

  it('uses net income / diluted shares when no diluted EPS is reported (Visa) and says so', () => {
    const result = computeValuation({
      fundamentals: makeFundamentals([{ fiscalYear: 2024, netIncome: 20e9, dilutedShares: 2e9 }]),
      price: usd(300),
    });
    expect(result.peRatio).toBeCloseTo(30, 10);
    expect(result._trailingEps).toBeCloseTo(10, 10);
    expect(result._trailingEpsDerived).toBe(true);
    expect(result._notes).toContain('FY2024 diluted EPS derived as net income / diluted shares');
  });

  it('flags EPS that disagrees with net income / diluted shares (share-basis mismatch)', () => {
    const result = computeValuation({
      fundamentals: makeFundamentals([
        { fiscalYear: 2024, dilutedEps: 12, netIncome: 30e9, dilutedShares: 25e9 },
      ]),
      price: usd(120),
    });
    expect(result._notes.join('\n')).toMatch(/differs from net income \/ diluted shares by 90%/);
  });
});

describe('computeValuation: currency guard', () => {
  const eur = { value: 100, currency: 'EUR', asOf: '2025-03-03', source: 'test' };

  it('refuses to divide a EUR price by USD earnings', () => {
    const result = computeValuation({ fundamentals: compounder, price: eur, forwardEps: 4 });
    expect(result.peRatio).toBeNull();
    expect(result.forwardPE).toBeNull();
    expect(result.pegRatio).toBeNull();
    expect(result.sellTrigger).toBe(false);
    expect(result._notes[0]).toContain('price currency EUR differs from reporting currency USD');
  });

  it('converts with an fxRate (USD per EUR): 100 EUR × 1.1 = 110 USD, P/E 110 / 3.22102', () => {
    const result = computeValuation({ fundamentals: compounder, price: eur, fxRate: 1.1 });
    expect(result.peRatio).toBeCloseTo(34.15067, 4);
    expect(result._fxRate).toBe(1.1);
    expect(result._price).toBe(100);
  });
});

describe('computeValuation: augmented payout components', () => {
  const oneYear = (extras: Record<string, number>) =>
    makeFundamentals([{ fiscalYear: 2024, dilutedEps: 5, ...extras }]);

  it('dividends only: a lower bound, said in the notes', () => {
    const result = computeValuation({
      fundamentals: oneYear({ netIncome: 10e9, dividendsPaid: 4e9 }),
      price: null,
    });
    expect(result.augmentedPayoutRatio).toBeCloseTo(40, 10);
    expect(result._payoutComponents).toBe('dividends-only');
    expect(result._notes.join('\n')).toContain('share repurchases not reported for FY2024');
  });

  it('buybacks above net income give more than 100 %', () => {
    const result = computeValuation({
      fundamentals: oneYear({ netIncome: 10e9, dividendsPaid: 3e9, shareRepurchases: 12e9 }),
      price: null,
    });
    expect(result.augmentedPayoutRatio).toBeCloseTo(150, 10);
  });

  it('neither component reported: null, never 0', () => {
    const result = computeValuation({ fundamentals: oneYear({ netIncome: 10e9 }), price: null });
    expect(result.augmentedPayoutRatio).toBeNull();
    expect(result._notes.join('\n')).toContain('neither dividends paid nor share repurchases');
  });
});

describe('computeValuation: input validation', () => {
  it.each([
    ['a negative price', { price: usd(-1) }],
    ['a zero price', { price: usd(0) }],
    ['a NaN forward EPS', { price: usd(10), forwardEps: Number.NaN }],
    ['a zero fxRate', { price: usd(10), fxRate: 0 }],
    ['an infinite split factor', { price: usd(10), splitFactor: Number.POSITIVE_INFINITY }],
    ['a malformed date', { price: { ...usd(10), asOf: '03/03/2025' } }],
  ])('throws invalid_input for %s', (_label, overrides) => {
    expect(() => computeValuation({ fundamentals: compounder, ...overrides })).toThrow(
      expect.objectContaining({ name: 'ValuationError', code: 'invalid_input' }),
    );
    expect(() => computeValuation({ fundamentals: compounder, ...overrides })).toThrow(
      ValuationError,
    );
  });

  it('exports the Buffett & Clark threshold', () => {
    expect(SELL_TRIGGER_PE).toBe(40);
  });

  it('values an empty history to all-null with a note', () => {
    const result = computeValuation({ fundamentals: makeFundamentals([]), price: usd(10) });
    expect(result.peRatio).toBeNull();
    expect(result.augmentedPayoutRatio).toBeNull();
    expect(result._notes).toContain('no fiscal years in the fundamentals: nothing to value');
  });
});
