import { Fundamentals } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { simfinToFundamentals } from './simfin-to-fundamentals.js';
import { rowsOfTicker, simfinCsv } from './test-csv.js';

const INCOME_COLUMNS = [
  'Shares (Diluted)',
  'Revenue',
  'Cost of Revenue',
  'Gross Profit',
  'Selling, General & Administrative',
  'Interest Expense, Net',
  'Income Tax (Expense) Benefit, Net',
  'Net Income',
  'Net Income (Common)',
];
const BALANCE_COLUMNS = ['Cash, Cash Equivalents & Short Term Investments', 'Total Equity'];
const CASHFLOW_COLUMNS = [
  'Depreciation & Amortization',
  'Change in Fixed Assets & Intangibles',
  'Dividends Paid',
  'Cash from (Repurchase of) Equity',
];

/** Key cells of a row: ticker, id, currency, SimFin FY, period, report, publish, restated. */
const keys = (fy: number, period: string, end: string, published = '', restated = '') =>
  ['ACME', 1, 'USD', fy, period, end, published, restated] as const;

async function acme(
  income: (string | number)[][],
  balance: (string | number)[][] = [],
  cashflow: (string | number)[][] = [],
) {
  const rows = await rowsOfTicker(
    {
      income: simfinCsv(INCOME_COLUMNS, income),
      balance: simfinCsv(BALANCE_COLUMNS, balance),
      cashflow: simfinCsv(CASHFLOW_COLUMNS, cashflow),
    },
    'ACME',
  );
  const f = simfinToFundamentals(rows, { ticker: 'acme', retrievedAt: '2021-04-03T00:00:00Z' });
  expect(Fundamentals.safeParse(f).success).toBe(true);
  return f;
}

describe('simfinToFundamentals', () => {
  it('normalises signs: costs, tax, capex, dividends and buybacks become the model’s amounts', async () => {
    // Shares, revenue, CoR, GP, SG&A, interest, tax, NI, NI (common)
    const f = await acme(
      [
        [
          ...keys(2019, 'FY', '2019-12-31', '2020-02-24'),
          200,
          1000,
          -600,
          400,
          -150,
          -20,
          -50,
          180,
          170,
        ],
      ],
      [[...keys(2019, 'Q4', '2019-12-31', '2020-02-24'), 90, 700]],
      [[...keys(2019, 'FY', '2019-12-31', '2020-02-24'), 35, -60, -40, -25]],
    );
    const y = f.years[0];
    expect(f.years).toHaveLength(1);
    expect(y).toMatchObject({
      fiscalYear: 2019,
      periodStart: null,
      periodEnd: '2019-12-31',
      revenue: { value: 1000 },
      costOfRevenue: { value: 600 },
      grossProfit: { value: 400 },
      sellingGeneralAdministrative: { value: 150 },
      interestExpense: { value: 20 },
      incomeTaxExpense: { value: 50 },
      netIncome: { value: 180 },
      dilutedShares: { value: 200 },
      cash: { value: 90 },
      totalEquity: { value: 700 },
      depreciationAmortization: { value: 35 },
      capitalExpenditure: { value: 60 },
      dividendsPaid: { value: 40 },
      shareRepurchases: { value: 25 },
    });
    expect(y?.revenue?.source).toEqual({
      tag: 'simfin:Revenue',
      form: null,
      accession: null,
      filed: '2020-02-24',
      derived: false,
    });
    expect(y?.capitalExpenditure?.source.note).toMatch(/net of disposals/);
    expect(y?.shareRepurchases?.source.note).toMatch(/net of share issuance/);
    // EPS = Net Income (Common) / Shares (Diluted) = 170 / 200, derived.
    expect(y?.dilutedEps?.value).toBe(0.85);
    expect(y?.dilutedEps?.source).toMatchObject({ derived: true, filed: null });
    expect(y?.dilutedEps?.source.tag).toMatch(/^derived:/);
    expect(f.company).toMatchObject({
      ticker: 'ACME',
      name: 'ACME',
      cik: null,
      sector: null,
      industry: null,
      fiscalYearEnd: '12-31',
      currency: 'USD',
    });
    expect(f.provider).toBe('simfin');
    expect(f.retrievedAt).toBe('2021-04-03T00:00:00Z');
  });

  it('reads a blank debt cell of a classified balance sheet as no debt, and nothing else (issue 39)', async () => {
    const rows = await rowsOfTicker(
      {
        income: simfinCsv(INCOME_COLUMNS, [
          [...keys(2017, 'FY', '2017-12-31'), 1, 100, '', '', '', '', '', 10, 10],
          [...keys(2018, 'FY', '2018-12-31'), 1, 100, '', '', '', '', '', 10, 10],
          [...keys(2019, 'FY', '2019-12-31'), 1, 100, '', '', '', '', '', 10, 10],
        ]),
        balance: simfinCsv(
          [
            'Short Term Debt',
            'Total Current Liabilities',
            'Long Term Debt',
            'Total Noncurrent Liabilities',
            'Total Liabilities',
          ],
          [
            // A classified balance sheet (noncurrent 300 of 340): blank debt = none.
            [...keys(2017, 'Q4', '2017-12-31'), '', 40, 250, 300, 340],
            // Unclassified, a homebuilder's (noncurrent 5 of 500): a blank stays missing.
            [...keys(2018, 'Q4', '2018-12-31'), '', 495, '', 5, 500],
            // No balance-sheet totals: a blank stays missing.
            [...keys(2019, 'Q4', '2019-12-31'), '', '', '', '', ''],
          ],
        ),
        cashflow: simfinCsv(CASHFLOW_COLUMNS, []),
      },
      'ACME',
    );
    const f = simfinToFundamentals(rows, { ticker: 'ACME' });
    const [y2017, y2018, y2019] = f.years;
    expect(y2017?.shortTermDebt).toMatchObject({
      value: 0,
      source: { tag: 'simfin:Short Term Debt', derived: true },
    });
    expect(y2017?.shortTermDebt?.source.note).toContain('blank in SimFin');
    expect(y2017?.longTermDebt?.value).toBe(250);
    expect(y2018?.shortTermDebt).toBeNull();
    expect(y2018?.longTermDebt).toBeNull();
    expect(y2019?.shortTermDebt).toBeNull();
    expect(y2019?.longTermDebt).toBeNull();
  });

  it('reads net acquisitions as an outflow and a net divestiture as none (issue 39)', async () => {
    const rows = await rowsOfTicker(
      {
        income: simfinCsv(INCOME_COLUMNS, [
          [...keys(2018, 'FY', '2018-12-31'), 1, 100, '', '', '', '', '', 10, 10],
          [...keys(2019, 'FY', '2019-12-31'), 1, 100, '', '', '', '', '', 10, 10],
        ]),
        balance: simfinCsv(BALANCE_COLUMNS, []),
        cashflow: simfinCsv(
          ['Net Cash from Acquisitions & Divestitures'],
          [
            [...keys(2018, 'FY', '2018-12-31'), -250],
            [...keys(2019, 'FY', '2019-12-31'), 40],
          ],
        ),
      },
      'ACME',
    );
    const [y2018, y2019] = simfinToFundamentals(rows, { ticker: 'ACME' }).years;
    expect(y2018?.acquisitions).toMatchObject({
      value: 250,
      source: { tag: 'simfin:Net Cash from Acquisitions & Divestitures' },
    });
    expect(y2019?.acquisitions).toBeNull();
  });

  it('reads Abnormal Gains (Losses) as signed one-off items: a charge negative, a gain positive (issue 39)', async () => {
    const rows = await rowsOfTicker(
      {
        income: simfinCsv(
          ['Revenue', 'Abnormal Gains (Losses)', 'Net Income'],
          [
            [...keys(2017, 'FY', '2017-12-31'), 100, -40, -5],
            [...keys(2018, 'FY', '2018-12-31'), 100, 20, 30],
            [...keys(2019, 'FY', '2019-12-31'), 100, '', 15],
          ],
        ),
        balance: simfinCsv(BALANCE_COLUMNS, []),
        cashflow: simfinCsv(CASHFLOW_COLUMNS, []),
      },
      'ACME',
    );
    const [y2017, y2018, y2019] = simfinToFundamentals(rows, { ticker: 'ACME' }).years;
    expect(y2017?.unusualItems).toMatchObject({
      value: -40,
      source: { tag: 'simfin:Abnormal Gains (Losses)' },
    });
    expect(y2018?.unusualItems?.value).toBe(20);
    expect(y2019?.unusualItems).toBeNull();
  });

  it('keeps blank cells and missing columns null, never 0, and a tax benefit negative', async () => {
    const f = await acme(
      [[...keys(2019, 'FY', '2019-12-31'), '', 1000, '', 1000, '', '', 30, 80, 80]],
      [[...keys(2019, 'Q4', '2019-12-31'), '', 0]],
      [[...keys(2019, 'FY', '2019-12-31'), '', '', '', '']],
    );
    const y = f.years[0];
    expect(y).toMatchObject({
      costOfRevenue: null,
      sellingGeneralAdministrative: null,
      interestExpense: null,
      dilutedShares: null,
      dilutedEps: null, // no shares: not derived
      cash: null,
      totalEquity: { value: 0 }, // a reported zero stays zero
      capitalExpenditure: null,
      dividendsPaid: null,
      shareRepurchases: null,
      depreciationAmortization: null,
      // Columns absent from these files:
      researchDevelopment: null,
      operatingIncome: null,
      longTermDebt: null,
      goodwill: null,
      sharesOutstanding: null,
    });
    expect(y?.incomeTaxExpense?.value).toBe(-30);
    expect(y?.revenue?.source.filed).toBeNull();
    // No Cost of Revenue and Gross Profit = Revenue: SimFin's filler, not a gross profit.
    expect(y?.grossProfit).toBeNull();
    expect(f.issues).toContainEqual(
      expect.objectContaining({
        metric: 'grossProfit',
        message: expect.stringContaining('FY2019'),
      }),
    );
  });

  it('leaves costs and outflows stored positive null, with an issue; net issuance is no buyback', async () => {
    const f = await acme(
      [[...keys(2019, 'FY', '2019-12-31'), 100, 1000, 5, 1005, -10, 12, -5, 20, 20]],
      [],
      [[...keys(2019, 'FY', '2019-12-31'), 3, 8, '', 40]],
    );
    const y = f.years[0];
    expect(y?.costOfRevenue).toBeNull();
    expect(y?.grossProfit?.value).toBe(1005); // reported: a Cost of Revenue cell exists
    expect(y?.interestExpense).toBeNull(); // net interest income
    expect(y?.capitalExpenditure).toBeNull(); // net disposals
    expect(y?.shareRepurchases).toBeNull(); // net issuance
    expect(y?.cash).toBeNull(); // no balance row
    const flagged = f.issues.filter((i) => i.kind === 'other').map((i) => i.metric);
    expect(flagged.sort()).toEqual(['capitalExpenditure', 'costOfRevenue', 'interestExpense']);
  });

  it('labels years by the Compustat convention, derives period starts and reports gaps', async () => {
    const row = (fy: number, end: string) => [
      ...keys(fy, 'FY', end),
      10,
      100,
      -60,
      40,
      '',
      '',
      '',
      5,
      5,
    ];
    // SimFin labels a May year end with its own calendar year; the schema's convention does not.
    const f = await acme([
      row(2015, '2015-05-31'),
      row(2016, '2016-05-31'),
      row(2018, '2018-05-31'),
      row(2019, '2019-05-31'),
    ]);
    expect(f.years.map((y) => [y.fiscalYear, y.periodStart, y.periodEnd])).toEqual([
      [2014, null, '2015-05-31'],
      [2015, '2015-06-01', '2016-05-31'],
      [2017, null, '2018-05-31'],
      [2018, '2018-06-01', '2019-05-31'],
    ]);
    expect(f.issues).toContainEqual(
      expect.objectContaining({ fiscalYear: 2016, kind: 'missing_year' }),
    );
    expect(f.company.fiscalYearEnd).toBe('05-31');
  });

  it('keeps the latest restated row of a period and reports the restatement', async () => {
    const f = await acme([
      [
        ...keys(2019, 'FY', '2019-12-31', '2020-02-24', '2021-02-20'),
        10,
        1100,
        -600,
        500,
        '',
        '',
        '',
        60,
        60,
      ],
      [
        ...keys(2019, 'FY', '2019-12-31', '2020-02-24', '2020-02-24'),
        10,
        1000,
        -600,
        400,
        '',
        '',
        '',
        50,
        50,
      ],
    ]);
    expect(f.years).toHaveLength(1);
    expect(f.years[0]?.revenue?.value).toBe(1100);
    expect(f.issues).toContainEqual(
      expect.objectContaining({
        kind: 'restated',
        fiscalYear: 2019,
        message: expect.stringContaining('2021-02-20'),
      }),
    );
  });

  it('keeps the later of two year ends with one label, and drops rows in another currency', async () => {
    const row = (end: string) => [...keys(2019, 'FY', end), 10, 100, -60, 40, '', '', '', 5, 5];
    const f = await acme(
      [row('2019-01-31'), row('2019-03-31')],
      [['ACME', 1, 'EUR', 2018, 'Q4', '2019-03-31', '', '', 7, 9]],
    );
    expect(f.years.map((y) => y.periodEnd)).toEqual(['2019-03-31']);
    expect(f.years[0]?.cash).toBeNull();
    expect(f.issues.map((i) => i.kind).sort()).toEqual(['dropped_outlier', 'other']);
  });

  it('uses the companies file’s name, sector and industry when given', async () => {
    const rows = await rowsOfTicker(
      {
        income: simfinCsv(INCOME_COLUMNS, [
          [...keys(2019, 'FY', '2019-12-31'), 1, 1, '', '', '', '', '', 1, 1],
        ]),
        balance: simfinCsv([], []),
        cashflow: simfinCsv([], []),
      },
      'ACME',
    );
    const f = simfinToFundamentals(rows, {
      ticker: 'ACME',
      company: { name: 'Acme Corp', sector: 'Industrials', industry: 'Tools' },
    });
    expect(f.company).toMatchObject({
      name: 'Acme Corp',
      sector: 'Industrials',
      industry: 'Tools',
    });
    expect(f.retrievedAt).toBeNull();
    expect(f.years[0]?.dilutedEps?.source.filed).toBeNull(); // no share basis date given
    const withBasis = simfinToFundamentals(rows, { ticker: 'ACME', shareBasisDate: '2021-03-31' });
    expect(withBasis.years[0]?.dilutedEps?.source.filed).toBe('2021-03-31');
  });
});

describe('simfinToFundamentals: continuing operations like the snapshot', () => {
  it('takes discontinued operations out of income and EPS (PG FY2017 shape)', async () => {
    const columns = [
      'Shares (Diluted)',
      'Revenue',
      'Net Extraordinary Gains (Losses)',
      'Net Income',
      'Net Income (Common)',
    ];
    const rows = await rowsOfTicker(
      {
        income: simfinCsv(columns, [
          [...keys(2016, 'FY', '2016-06-30', '2016-08-09'), 100, 1000, 0, 90, 90],
          [...keys(2017, 'FY', '2017-06-30', '2017-08-07'), 100, 1000, 52, 153, 153],
        ]),
        balance: simfinCsv(BALANCE_COLUMNS, []),
        cashflow: simfinCsv(CASHFLOW_COLUMNS, []),
      },
      'ACME',
    );
    const f = simfinToFundamentals(rows, { ticker: 'ACME' });
    const [y2016, y2017] = f.years;
    // FY2017: 153 − 52 = 101 continuing; EPS (153 − 52) / 100 = 1.01 (not 1.53)
    expect(y2017?.incomeFromContinuingOperations?.value).toBe(101);
    expect(y2017?.incomeFromContinuingOperations?.source.derived).toBe(true);
    expect(y2017?.dilutedEps?.value).toBeCloseTo(1.01, 12);
    expect(y2017?.netIncome?.value).toBe(153);
    // FY2016 has no such items: no separate continuing line, EPS = 90 / 100.
    expect(y2016?.incomeFromContinuingOperations ?? null).toBeNull();
    expect(y2016?.dilutedEps?.value).toBeCloseTo(0.9, 12);
  });
});
