import { Fundamentals } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { FundamentalsError, parseCompanyFacts } from '../src/index.js';
import { companyFacts, cy, dec31, netIncomeYears } from './support/companyfacts-builder.js';

const parse = (
  facts: Parameters<typeof companyFacts>[0],
  meta?: Parameters<typeof companyFacts>[1],
) => {
  const f = parseCompanyFacts(companyFacts(facts, meta), { ticker: 'TEST' });
  Fundamentals.parse(f); // every result honours the shared schema
  return f;
};
const year = (f: ReturnType<typeof parse>, label: number) => {
  const y = f.years.find((r) => r.fiscalYear === label);
  if (!y) throw new Error(`no FY${label}`);
  return y;
};
const issues = (f: ReturnType<typeof parse>, kind: string) =>
  f.issues.filter((i) => i.kind === kind);

describe('parseCompanyFacts: document validation', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['no facts', { cik: 1, entityName: 'X' }],
    ['facts not an object', { cik: 1, entityName: 'X', facts: 3 }],
    ['cik not numeric', { cik: 'abc', entityName: 'X', facts: {} }],
    ['no entityName', { cik: 1, facts: {} }],
  ])('throws parse_failed for %s', (_name, json) => {
    expect(() => parseCompanyFacts(json, { ticker: 'X' })).toThrowError(
      expect.objectContaining({ code: 'parse_failed' }),
    );
  });

  it('throws parse_failed for a concept without a units map', () => {
    const json = {
      cik: 1,
      entityName: 'X',
      facts: { 'us-gaap': { NetIncomeLoss: { label: 'x' } } },
    };
    let error: unknown;
    try {
      parseCompanyFacts(json, { ticker: 'X' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FundamentalsError);
    expect((error as FundamentalsError).code).toBe('parse_failed');
  });

  it('skips malformed facts and reports how many', () => {
    const f = parse({ NetIncomeLoss: [...netIncomeYears([2020, 2021]), { end: 'soon', val: 1 }] });
    expect(f.years).toHaveLength(2);
    expect(
      issues(f, 'other')
        .map((i) => i.message)
        .join(),
    ).toMatch(/1 malformed fact/);
  });

  it('rejects a malformed ticker with invalid_symbol', () => {
    expect(() => parseCompanyFacts(companyFacts({}), { ticker: 'not a ticker' })).toThrowError(
      expect.objectContaining({ code: 'invalid_symbol' }),
    );
  });
});

describe('parseCompanyFacts: annual periods by dates and forms', () => {
  it('selects years by 350–380 day durations, not by fy/fp/frame', () => {
    const f = parse({
      NetIncomeLoss: [
        cy(2022, 10e6, { fy: 2023, fp: 'FY', frame: 'CY2022' }),
        cy(2023, 20e6, { fy: null, fp: null }),
        // a Q4 quarter inside the 10-K, with fp FY: must not become a year or a value
        { start: '2023-10-01', end: '2023-12-31', val: 5e6, filed: '2024-02-15', fp: 'FY' },
      ],
    });
    expect(f.years.map((y) => [y.fiscalYear, y.netIncome?.value])).toEqual([
      [2022, 10e6],
      [2023, 20e6],
    ]);
  });

  it('keeps a 371-day (53-week) year and drops an 11-month transition period', () => {
    const f = parse({
      NetIncomeLoss: [
        { start: '2021-09-26', end: '2022-09-24', val: 1e6, filed: '2022-10-28' },
        { start: '2022-09-25', end: '2023-09-30', val: 2e6, filed: '2023-11-03' }, // 371 days
        { start: '2023-10-01', end: '2024-08-31', val: 3e6, filed: '2024-10-30', form: '10-KT' }, // 335 days
        { start: '2024-09-01', end: '2025-08-31', val: 4e6, filed: '2025-10-30' },
      ],
    });
    expect(f.years.map((y) => y.fiscalYear)).toEqual([2022, 2023, 2025]);
    expect(issues(f, 'missing_year').map((i) => i.fiscalYear)).toEqual([2024]);
  });

  it('reads only 10-K, 10-K/A and 10-KT facts (not 10-Q, 8-K, DEF 14A)', () => {
    const f = parse({
      NetIncomeLoss: [
        cy(2020, 1e6),
        cy(2021, 2e6, { form: '10-K/A' }),
        cy(2022, 3e6, { form: '10-KT' }),
        cy(2023, 4e6, { form: 'DEF 14A', fy: null, fp: null, frame: 'CY2023' }),
        cy(2020, 9e6, { form: '8-K', filed: '2022-05-01' }),
      ],
      Revenues: [cy(2021, 50e6, { form: '10-Q', filed: '2022-05-01' })],
    });
    expect(f.years.map((y) => [y.fiscalYear, y.netIncome?.value])).toEqual([
      [2020, 1e6],
      [2021, 2e6],
      [2022, 3e6],
    ]);
    expect(year(f, 2021).revenue).toBeNull();
  });

  it('takes balance-sheet instants only at fiscal year ends', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2021, 2022]),
      RetainedEarningsAccumulatedDeficit: [
        dec31(2021, 500e6),
        { end: '2022-01-01', val: 480e6, filed: '2023-02-15' }, // opening balance after a new standard
        { end: '2022-06-30', val: 1, filed: '2022-08-01', form: '10-Q' },
        dec31(2022, 600e6),
      ],
    });
    expect(f.years.map((y) => y.retainedEarnings?.value)).toEqual([500e6, 600e6]);
  });

  it.each([
    ['2026-01-31', 2025], // Walmart FY2026 → Compustat 2025
    ['2025-02-01', 2024], // Target fiscal 2024
    ['2025-05-31', 2024],
    ['2025-06-30', 2025], // PG, MSFT
    ['2025-09-27', 2025],
  ])('labels a year ending %s as FY%i', (end, label) => {
    const start = `${Number(end.slice(0, 4)) - 1}${end.slice(4, 8)}${end.slice(8)}`;
    const f = parse({ NetIncomeLoss: [{ start, end, val: 1, filed: '2025-12-01' }] });
    expect(f.years[0]?.fiscalYear).toBe(label);
    expect(f.years[0]?.periodEnd).toBe(end);
  });
});

describe('parseCompanyFacts: restatements and tag merging', () => {
  it('uses the latest-filed value and records a material restatement', () => {
    const f = parse({
      NetIncomeLoss: [
        cy(2008, 4834e6, { filed: '2009-10-27' }),
        cy(2008, 6119e6, { filed: '2010-01-25', form: '10-K/A', accn: '0000000000-10-000009' }),
        cy(2009, 100e6),
      ],
    });
    expect(year(f, 2008).netIncome?.value).toBe(6119e6);
    expect(year(f, 2008).netIncome?.source).toMatchObject({
      form: '10-K/A',
      accession: '0000000000-10-000009',
      filed: '2010-01-25',
    });
    const restated = issues(f, 'restated');
    expect(restated).toHaveLength(1);
    expect(restated[0]).toMatchObject({ fiscalYear: 2008, metric: 'netIncome' });
  });

  it('does not report a change below 1% as a restatement', () => {
    const f = parse({
      NetIncomeLoss: [cy(2020, 1000e6), cy(2020, 1004e6, { filed: '2022-02-15' })],
    });
    expect(f.years[0]?.netIncome?.value).toBe(1004e6);
    expect(issues(f, 'restated')).toHaveLength(0);
  });

  it('merges candidate tags per period, not per company (ASC 606 switch)', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2016, 2017, 2018]),
      SalesRevenueNet: [cy(2016, 10e9), cy(2017, 11e9)],
      RevenueFromContractWithCustomerExcludingAssessedTax: [cy(2018, 12e9)],
    });
    expect(f.years.map((y) => [y.revenue?.value, y.revenue?.source.tag])).toEqual([
      [10e9, 'us-gaap:SalesRevenueNet'],
      [11e9, 'us-gaap:SalesRevenueNet'],
      [12e9, 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'],
    ]);
  });

  it('prefers revenue excluding assessed tax over including it, and the Revenues total over both', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2020, 2021]),
      RevenueFromContractWithCustomerIncludingAssessedTax: [cy(2020, 5056e6), cy(2021, 5100e6)],
      RevenueFromContractWithCustomerExcludingAssessedTax: [cy(2020, 3975e6), cy(2021, 21831e6)],
      Revenues: [cy(2021, 14950e6)],
    });
    expect(year(f, 2020).revenue?.value).toBe(3975e6);
    expect(year(f, 2021).revenue).toMatchObject({
      value: 14950e6,
      source: { tag: 'us-gaap:Revenues' },
    });
  });

  it('falls back to ProfitLoss per year when NetIncomeLoss stops (MA after FY2013)', () => {
    const f = parse({
      NetIncomeLoss: [cy(2012, 2.7e9), cy(2013, 3.1e9)],
      ProfitLoss: [cy(2013, 3.2e9), cy(2014, 3.6e9)],
    });
    expect(f.years.map((y) => y.netIncome?.source.tag)).toEqual([
      'us-gaap:NetIncomeLoss',
      'us-gaap:NetIncomeLoss',
      'us-gaap:ProfitLoss',
    ]);
  });
});

describe('parseCompanyFacts: units, signs and scale errors', () => {
  it('reads EPS filed under the unit "pure" (COST FY2008)', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2008, 2009]),
      EarningsPerShareDiluted: [cy(2008, 2.89, { unit: 'pure' }), cy(2009, 2.47)],
    });
    expect(year(f, 2008).dilutedEps?.value).toBe(2.89);
    expect(year(f, 2008).dilutedEps?.source.note).toMatch(/pure/);
    expect(year(f, 2009).dilutedEps?.value).toBe(2.47);
  });

  it('makes outflows positive and records sign_normalised (LUV FY2008 capex)', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2008]),
      PaymentsToAcquirePropertyPlantAndEquipment: [
        cy(2008, 923e6, { filed: '2010-01-29' }),
        cy(2008, -923e6, { filed: '2011-02-08' }),
      ],
      PaymentsOfDividends: [cy(2008, -13e6)],
      PaymentsForRepurchaseOfCommonStock: [cy(2008, 54e6)],
    });
    const y = year(f, 2008);
    expect([
      y.capitalExpenditure?.value,
      y.dividendsPaid?.value,
      y.shareRepurchases?.value,
    ]).toEqual([923e6, 13e6, 54e6]);
    expect(
      issues(f, 'sign_normalised')
        .map((i) => i.metric)
        .sort(),
    ).toEqual(['capitalExpenditure', 'dividendsPaid']);
    expect(issues(f, 'restated')).toHaveLength(0); // |−923| = 923: not a restatement
  });

  it('keeps the sign of income figures (losses stay negative)', () => {
    const f = parse({ NetIncomeLoss: [cy(2020, -1076e6)], OperatingIncomeLoss: [cy(2020, -5e6)] });
    expect([f.years[0]?.netIncome?.value, f.years[0]?.operatingIncome?.value]).toEqual([
      -1076e6, -5e6,
    ]);
  });

  it('rescales a share count filed in millions (DAL FY2008 "468")', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2007, 2008, 2009, 2010]),
      WeightedAverageNumberOfDilutedSharesOutstanding: [
        cy(2007, 400e6),
        cy(2008, 468),
        cy(2009, 827e6),
        cy(2010, 830e6),
      ],
    });
    expect(f.years.map((y) => y.dilutedShares?.value)).toEqual([400e6, 468e6, 827e6, 830e6]);
    expect(issues(f, 'rescaled')).toEqual([
      expect.objectContaining({ fiscalYear: 2008, metric: 'dilutedShares' }),
    ]);
    expect(year(f, 2008).dilutedShares?.source.note).toMatch(/rescaled ×1,000,000/);
  });

  it('rescales a run of years filed in thousands (NVDA FY2007–FY2008)', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2007, 2008, 2009, 2010]),
      WeightedAverageNumberOfDilutedSharesOutstanding: [
        cy(2007, 606_732),
        cy(2008, 548_126),
        cy(2009, 549e6),
        cy(2010, 575e6),
      ],
    });
    expect(f.years.map((y) => y.dilutedShares?.value)).toEqual([
      606_732_000, 548_126_000, 549e6, 575e6,
    ]);
    expect(issues(f, 'rescaled')).toHaveLength(2);
  });

  it('drops a share count no power of 1000 can fix, and a zero', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2019, 2020, 2021, 2022]),
      WeightedAverageNumberOfDilutedSharesOutstanding: [
        cy(2019, 700e6),
        cy(2020, 25_000), // ×1000 → 25 M, ×10^6 → 25 bn: neither within 10× of ~700 M
        cy(2021, 710e6),
        cy(2022, 0),
      ],
    });
    expect(f.years.map((y) => y.dilutedShares?.value ?? null)).toEqual([700e6, null, 710e6, null]);
    expect(
      issues(f, 'dropped_outlier')
        .map((i) => i.fiscalYear)
        .sort(),
    ).toEqual([2020, 2022]);
  });
});

describe('parseCompanyFacts: derived values and nulls', () => {
  const base = {
    NetIncomeLoss: [cy(2020, 90e6)],
    Revenues: [cy(2020, 1000e6)],
    CostOfRevenue: [cy(2020, 600e6)],
    IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest: [
      cy(2020, 120e6),
    ],
    InterestExpense: [cy(2020, 30e6)],
    WeightedAverageNumberOfDilutedSharesOutstanding: [cy(2020, 45e6)],
    LongTermDebt: [dec31(2020, 500e6)],
    LongTermDebtCurrent: [dec31(2020, 50e6)],
  };

  it('derives gross profit, operating income, EPS and long-term debt, marked derived', () => {
    const y = parse(base).years[0];
    const expectDerived = (fig: unknown, value: number, tag: string) =>
      expect(fig).toMatchObject({
        value,
        source: { tag, derived: true, form: null, accession: null },
      });
    expectDerived(y?.grossProfit, 400e6, 'derived:revenue-costOfRevenue');
    expectDerived(y?.operatingIncome, 150e6, 'derived:pretaxIncome+interestExpense');
    expectDerived(y?.dilutedEps, 2, 'derived:netIncome/dilutedShares');
    expectDerived(y?.longTermDebt, 450e6, 'derived:longTermDebtTotal-longTermDebtCurrent');
    // only one short-term component is tagged: used as reported, not derived
    expect(y?.shortTermDebt).toMatchObject({
      value: 50e6,
      source: { tag: 'us-gaap:LongTermDebtCurrent', derived: false },
    });
  });

  it('prefers reported values over formulas', () => {
    const y = parse({
      ...base,
      GrossProfit: [cy(2020, 401e6)],
      OperatingIncomeLoss: [cy(2020, 140e6)],
      EarningsPerShareDiluted: [cy(2020, 1.99)],
    }).years[0];
    expect([y?.grossProfit?.value, y?.operatingIncome?.value, y?.dilutedEps?.value]).toEqual([
      401e6, 140e6, 1.99,
    ]);
    expect(y?.grossProfit?.source.derived).toBe(false);
  });

  it('leaves a metric null (never 0) when neither it nor its inputs are reported', () => {
    const y = parse({ NetIncomeLoss: [cy(2020, 5e6)], Revenues: [cy(2020, 50e6)] }).years[0];
    expect(y?.grossProfit).toBeNull();
    expect(y?.operatingIncome).toBeNull();
    expect(y?.dilutedEps).toBeNull();
    expect(y?.capitalExpenditure).toBeNull();
  });

  it('uses a reported total of all debt as long-term debt only when no split is tagged (Ford FY2017)', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2017, 2018]),
      DebtAndCapitalLeaseObligations: [dec31(2017, 154_287e6), dec31(2018, 600e6)],
      LongTermDebtNoncurrent: [dec31(2018, 600e6)],
    });
    const fy2017 = year(f, 2017);
    expect(fy2017.longTermDebt).toMatchObject({
      value: 154_287e6,
      source: { tag: 'us-gaap:DebtAndCapitalLeaseObligations', derived: false },
    });
    expect(fy2017.longTermDebt?.source.note).toMatch(/including the current portion/);
    expect(fy2017.shortTermDebt).toBeNull();
    // FY2018 tags a non-current line: the split wins, the total is not added on top.
    expect(year(f, 2018).longTermDebt?.source.tag).toBe('us-gaap:LongTermDebtNoncurrent');
  });

  it('does not use the debt total when a current portion is tagged', () => {
    const y = parse({
      NetIncomeLoss: netIncomeYears([2020]),
      DebtAndCapitalLeaseObligations: [dec31(2020, 900e6)],
      DebtCurrent: [dec31(2020, 100e6)],
    }).years[0];
    expect(y?.shortTermDebt?.value).toBe(100e6);
    expect(y?.longTermDebt).toBeNull();
  });

  it('reads income from continuing operations, preferring the attributable-to-parent tag', () => {
    const f = parse({
      NetIncomeLoss: [cy(2022, 17_941e6), cy(2023, 35_153e6), cy(2024, 14_066e6)],
      IncomeLossFromContinuingOperations: [cy(2022, 16_370e6), cy(2023, 13_400e6)],
      IncomeLossFromContinuingOperationsAttributableToParent: [cy(2023, 13_326e6)],
    });
    expect(year(f, 2022).incomeFromContinuingOperations).toMatchObject({
      value: 16_370e6,
      source: { tag: 'us-gaap:IncomeLossFromContinuingOperations' },
    });
    expect(year(f, 2023).incomeFromContinuingOperations?.source.tag).toBe(
      'us-gaap:IncomeLossFromContinuingOperationsAttributableToParent',
    );
    expect(year(f, 2023).incomeFromContinuingOperations?.value).toBe(13_326e6);
    // Not tagged that year: null, never copied from net income.
    expect(year(f, 2024).incomeFromContinuingOperations).toBeNull();
  });
});

describe('parseCompanyFacts: gaps between fiscal years', () => {
  it('reports a missing year between reported years', () => {
    const f = parse({ NetIncomeLoss: netIncomeYears([2010, 2011, 2013, 2014]) });
    expect(f.years.map((y) => y.fiscalYear)).toEqual([2010, 2011, 2013, 2014]);
    expect(issues(f, 'missing_year').map((i) => i.fiscalYear)).toEqual([2012]);
  });

  it('reports a missing latest year when later quarters were filed (SPGI FY2024)', () => {
    const f = parse({
      NetIncomeLoss: [
        ...netIncomeYears([2021, 2022, 2023]),
        { start: '2025-01-01', end: '2025-03-31', val: 1e6, form: '10-Q', filed: '2025-04-29' },
      ],
    });
    expect(issues(f, 'missing_year').map((i) => i.fiscalYear)).toEqual([2024]);
  });

  it('does not report the current year as missing when only its first quarters are filed', () => {
    const f = parse({
      NetIncomeLoss: [
        ...netIncomeYears([2023, 2024]),
        { start: '2025-01-01', end: '2025-06-30', val: 1e6, form: '10-Q', filed: '2025-08-01' },
      ],
    });
    expect(issues(f, 'missing_year')).toEqual([]);
  });
});

describe('parseCompanyFacts: stock splits', () => {
  // A 4:1 split in 2020: the 10-K filed 2020-02 reports 2018–2019 on the old basis, the 10-K
  // filed 2021-02 restates 2019 on the new basis; 2017–2018 exist only on the old basis.
  const splitDoc = {
    NetIncomeLoss: netIncomeYears([2017, 2018, 2019, 2020], 400e6),
    EarningsPerShareDiluted: [
      cy(2017, 4.0, { filed: '2018-02-15' }),
      cy(2018, 4.4, { filed: '2020-02-15' }),
      cy(2019, 4.8, { filed: '2020-02-15' }),
      cy(2019, 1.2, { filed: '2021-02-15', accn: '0000000000-21-000001' }),
      cy(2020, 1.3, { filed: '2021-02-15', accn: '0000000000-21-000001' }),
    ],
    WeightedAverageNumberOfDilutedSharesOutstanding: [
      cy(2017, 100e6, { filed: '2018-02-15' }),
      cy(2018, 98e6, { filed: '2020-02-15' }),
      cy(2019, 96e6, { filed: '2020-02-15' }),
      cy(2019, 384e6, { filed: '2021-02-15', accn: '0000000000-21-000001' }),
      cy(2020, 380e6, { filed: '2021-02-15', accn: '0000000000-21-000001' }),
    ],
  };

  it('detects a split from restated share counts and puts old years on the latest basis', () => {
    const f = parse(splitDoc);
    expect(f.years.map((y) => y.dilutedEps?.value)).toEqual([1.0, 1.1, 1.2, 1.3]);
    expect(f.years.map((y) => y.dilutedShares?.value)).toEqual([400e6, 392e6, 384e6, 380e6]);
    expect(year(f, 2017).dilutedEps?.source.note).toMatch(/split-adjusted ÷4 .*filed as 4/);
    const split = issues(f, 'split_adjusted');
    expect(split).toHaveLength(1);
    expect(split[0]?.message).toMatch(/4:1 split/);
    expect(issues(f, 'restated')).toHaveLength(0); // a split is not a restatement
  });

  it('dates a split from StockholdersEquityNoteStockSplitConversionRatio1 alone', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2021, 2022, 2023], 300e6),
      EarningsPerShareDiluted: [
        cy(2021, 3.0, { filed: '2022-02-15' }),
        cy(2022, 1.02, { filed: '2023-02-15' }),
        cy(2023, 1.05, { filed: '2024-02-15' }),
      ],
      StockholdersEquityNoteStockSplitConversionRatio1: [
        { end: '2022-07-15', val: 3, unit: 'pure', form: '10-Q', filed: '2022-08-01' },
        // a duration-tagged ratio dates nothing and must not create a second split
        {
          start: '2021-01-01',
          end: '2021-09-30',
          val: 3,
          unit: 'pure',
          form: '10-Q',
          filed: '2022-11-01',
        },
      ],
    });
    expect(f.years.map((y) => y.dilutedEps?.value)).toEqual([1, 1.02, 1.05]);
    expect(issues(f, 'split_adjusted')).toHaveLength(1);
  });

  it('handles a 3:2 split', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2011, 2012, 2013]),
      WeightedAverageNumberOfDilutedSharesOutstanding: [
        cy(2011, 144e6, { filed: '2012-06-27' }),
        cy(2012, 144e6, { filed: '2012-06-27' }),
        cy(2012, 216e6, { filed: '2013-06-27' }),
        cy(2013, 215e6, { filed: '2013-06-27' }),
      ],
    });
    expect(f.years.map((y) => y.dilutedShares?.value)).toEqual([216e6, 216e6, 215e6]);
  });

  it('does not take one EPS restatement with a split-like ratio for a split', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2014, 2015]),
      EarningsPerShareDiluted: [
        cy(2014, 1.2, { filed: '2015-02-15' }),
        cy(2014, 0.6, { filed: '2016-02-15' }), // restated by exactly ½, no share evidence
        cy(2015, 0.9, { filed: '2016-02-15' }),
      ],
    });
    expect(f.years.map((y) => y.dilutedEps?.value)).toEqual([0.6, 0.9]);
    expect(issues(f, 'split_adjusted')).toHaveLength(0);
  });
});

describe('parseCompanyFacts: company profile', () => {
  it('pads the CIK, names the company and reads the currency from the units', () => {
    const f = parseCompanyFacts(
      companyFacts(
        {
          NetIncomeLoss: [cy(2020, 5e6, { unit: 'EUR' })],
          Revenues: [cy(2020, 50e6, { unit: 'EUR' })],
        },
        { cik: '320193', entityName: 'Euro SE' },
      ),
      { ticker: 'euro' },
    );
    expect(f.company).toMatchObject({
      ticker: 'EURO',
      cik: '0000320193',
      name: 'Euro SE',
      currency: 'EUR',
      fiscalYearEnd: '12-31',
      sicCode: null,
      sector: null,
    });
    expect(f.years[0]?.revenue?.value).toBe(50e6);
  });

  it('fills sector and industry from a given SIC code', () => {
    const f = parseCompanyFacts(companyFacts({ NetIncomeLoss: [cy(2020, 1)] }, { cik: 320193 }), {
      ticker: 'AAPL',
      profile: { sicCode: '3571', sicDescription: 'Electronic Computers', fiscalYearEnd: '09-26' },
      provider: 'snapshot',
      retrievedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(f.company).toMatchObject({
      sector: 'Manufacturing',
      industry: 'Electronic Computers',
      fiscalYearEnd: '09-26',
    });
    expect([f.provider, f.retrievedAt]).toEqual(['snapshot', '2026-01-01T00:00:00.000Z']);
  });

  it('takes shares outstanding from the cover page when the balance sheet has none', () => {
    const f = parse({
      NetIncomeLoss: netIncomeYears([2020]),
      'dei:EntityCommonStockSharesOutstanding': [
        { end: '2021-02-05', val: 750e6, unit: 'shares', filed: '2021-02-15' },
        { end: '2021-07-30', val: 740e6, unit: 'shares', filed: '2021-08-01', form: '10-Q' },
      ],
    });
    expect(f.years[0]?.sharesOutstanding).toMatchObject({
      value: 750e6,
      source: { tag: 'dei:EntityCommonStockSharesOutstanding' },
    });
  });

  it('keeps only the latest maxYears years', () => {
    const f = parseCompanyFacts(
      companyFacts({ NetIncomeLoss: netIncomeYears([2018, 2019, 2020]) }),
      {
        ticker: 'X',
        maxYears: 2,
      },
    );
    expect(f.years.map((y) => y.fiscalYear)).toEqual([2019, 2020]);
  });
});
