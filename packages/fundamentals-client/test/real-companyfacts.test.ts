import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FiscalYearFigures, Fundamentals, METRIC_KEYS } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { parseCompanyFacts } from '../src/index.js';
import { COMPANYFACTS_DIR } from './support/shared-data.js';

/**
 * Fiscal years per file, counted independently of this package with a python3 script over the
 * raw JSON: distinct `end` dates of NetIncomeLoss / ProfitLoss /
 * NetIncomeLossAvailableToCommonStockholdersBasic facts in 10-K, 10-K/A, 10-KT, 10-KT/A filings
 * with a 350–380 day duration. [count, first period end, last period end].
 */
const EXPECTED_YEARS: Record<string, [number, string, string]> = {
  AAPL: [19, '2007-09-29', '2025-09-27'],
  BBY: [17, '2008-03-01', '2025-02-01'],
  'BF-B': [17, '2009-04-30', '2025-04-30'],
  CCL: [18, '2007-11-30', '2024-11-30'],
  CL: [18, '2007-12-31', '2024-12-31'],
  COST: [18, '2008-08-31', '2025-08-31'],
  DAL: [17, '2008-12-31', '2024-12-31'],
  F: [18, '2007-12-31', '2024-12-31'],
  GM: [15, '2010-12-31', '2024-12-31'],
  GOOGL: [13, '2013-12-31', '2025-12-31'],
  JNJ: [19, '2007-12-30', '2025-12-28'],
  KR: [18, '2008-02-02', '2025-02-01'],
  LUV: [18, '2007-12-31', '2024-12-31'],
  MA: [19, '2007-12-31', '2025-12-31'],
  MCD: [18, '2007-12-31', '2024-12-31'],
  MNST: [17, '2008-12-31', '2024-12-31'],
  MOS: [16, '2009-05-31', '2024-12-31'],
  MU: [17, '2009-09-03', '2025-08-28'],
  NUE: [18, '2007-12-31', '2024-12-31'],
  NVDA: [19, '2008-01-27', '2026-01-25'],
  PG: [18, '2008-06-30', '2025-06-30'],
  SNOW: [7, '2019-01-31', '2025-01-31'],
  SPGI: [17, '2007-12-31', '2023-12-31'],
  TGT: [18, '2008-02-02', '2025-02-01'],
  TSLA: [17, '2009-12-31', '2025-12-31'],
  UAL: [17, '2008-12-31', '2024-12-31'],
  UBER: [8, '2017-12-31', '2024-12-31'],
  V: [19, '2007-09-30', '2025-09-30'],
  WMT: [19, '2008-01-31', '2026-01-31'],
  XOM: [18, '2007-12-31', '2024-12-31'],
};

const files = readdirSync(COMPANYFACTS_DIR).filter((n) => n.endsWith('.json'));
const parsed = new Map(
  files.map((name) => {
    const ticker = name.split('_')[0] as string;
    const json: unknown = JSON.parse(readFileSync(join(COMPANYFACTS_DIR, name), 'utf8'));
    return [ticker, parseCompanyFacts(json, { ticker, provider: 'snapshot' })] as const;
  }),
);
const get = (ticker: string) => {
  const f = parsed.get(ticker);
  if (!f) throw new Error(`${ticker} not parsed`);
  return f;
};
const fy = (ticker: string, label: number): FiscalYearFigures => {
  const y = get(ticker).years.find((r) => r.fiscalYear === label);
  if (!y) throw new Error(`${ticker} has no FY${label}`);
  return y;
};

/** Clean split ratios for the consistency check (independent of the parser's own list). */
const SPLITS = [1.5, 2, 3, 4, 5, 7, 10, 20];
const near = (x: number, target: number, tol: number) => Math.abs(x / target - 1) <= tol;

describe('all 30 real companyfacts files', () => {
  it('covers the 30 files of the data set', () => {
    expect([...parsed.keys()].sort()).toEqual(Object.keys(EXPECTED_YEARS).sort());
  });

  it.each(Object.entries(EXPECTED_YEARS))(
    '%s: fiscal years match the independent count',
    (t, exp) => {
      const years = get(t).years;
      expect([years.length, years[0]?.periodEnd, years.at(-1)?.periodEnd]).toEqual(exp);
    },
  );

  it.each(Object.keys(EXPECTED_YEARS))('%s: schema-valid, no NaN, derived values tagged', (t) => {
    const f = get(t);
    expect(() => Fundamentals.parse(f)).not.toThrow();
    for (const y of f.years) {
      for (const key of METRIC_KEYS) {
        const fig = y[key];
        if (fig === null || fig === undefined) continue;
        expect(Number.isFinite(fig.value), `${t} FY${y.fiscalYear} ${key}`).toBe(true);
        expect(fig.source.derived).toBe(fig.source.tag.startsWith('derived:'));
        if (fig.source.derived)
          expect([fig.source.form, fig.source.accession]).toEqual([null, null]);
        else expect(fig.source.accession).toMatch(/^\d{10}-\d{2}-\d{6}$/);
      }
    }
  });

  it.each(Object.keys(EXPECTED_YEARS))('%s: EPS and share counts are split-consistent', (t) => {
    const years = get(t).years;
    for (let i = 1; i < years.length; i++) {
      const [a, b] = [years[i - 1], years[i]] as [FiscalYearFigures, FiscalYearFigures];
      const [sa, sb] = [a.dilutedShares?.value, b.dilutedShares?.value];
      if (sa && sb) {
        expect(Math.max(sa / sb, sb / sa), `${t} FY${b.fiscalYear} share jump`).toBeLessThan(50);
      }
      const [ea, eb] = [a.dilutedEps?.value, b.dilutedEps?.value];
      if (!ea || !eb || !sa || !sb || Math.abs(ea) < 0.1) continue;
      for (const k of SPLITS) {
        const splitLike = near(ea / eb, k, 0.03) && near(sb / sa, k, 0.05);
        expect(splitLike, `${t} FY${b.fiscalYear}: EPS ÷${k} with shares ×${k}`).toBe(false);
      }
    }
  });
});

describe('hand-checked figures', () => {
  it('AAPL FY2025 (end 2025-09-27), all from accession 0000320193-25-000079', () => {
    const y = fy('AAPL', 2025);
    expect(y.periodEnd).toBe('2025-09-27');
    const m = (v: number) => v * 1e6;
    expect({
      revenue: y.revenue?.value,
      netIncome: y.netIncome?.value,
      dilutedEps: y.dilutedEps?.value,
      operatingCashFlow: y.operatingCashFlow?.value,
      capitalExpenditure: y.capitalExpenditure?.value,
      dividendsPaid: y.dividendsPaid?.value,
      shareRepurchases: y.shareRepurchases?.value,
      longTermDebt: y.longTermDebt?.value,
      totalEquity: y.totalEquity?.value,
      retainedEarnings: y.retainedEarnings?.value,
    }).toEqual({
      revenue: m(416_161),
      netIncome: m(112_010),
      dilutedEps: 7.46,
      operatingCashFlow: m(111_482),
      capitalExpenditure: m(12_715),
      dividendsPaid: m(15_421),
      shareRepurchases: m(90_711),
      longTermDebt: m(78_328),
      totalEquity: m(73_733),
      retainedEarnings: m(-14_264),
    });
    for (const key of [
      'revenue',
      'netIncome',
      'dilutedEps',
      'capitalExpenditure',
      'retainedEarnings',
    ] as const) {
      expect(y[key]?.source.accession).toBe('0000320193-25-000079');
    }
  });

  it('JNJ FY2025 and V FY2025', () => {
    const j = fy('JNJ', 2025);
    expect([
      j.revenue?.value,
      j.netIncome?.value,
      j.dilutedEps?.value,
      j.dividendsPaid?.value,
    ]).toEqual([94_193e6, 26_804e6, 11.03, 12_381e6]);
    expect(j.dividendsPaid?.source.tag).toBe('us-gaap:PaymentsOfOrdinaryDividends');
    // Issue 39: the lines of cash earnings and of acquisitions (Intra-Cellular Therapies, 2025).
    expect([
      j.shareBasedCompensation?.value,
      j.amortizationOfIntangibles?.value,
      j.acquisitions?.value,
    ]).toEqual([1_354e6, 4_600e6, 17_541e6]);
    expect(j.acquisitions?.source.tag).toBe('us-gaap:PaymentsToAcquireBusinessesNetOfCashAcquired');
    const v = fy('V', 2025);
    expect([v.revenue?.value, v.netIncome?.value, v.capitalExpenditure?.value]).toEqual([
      40_000e6, 20_058e6, 1_482e6,
    ]);
    expect(v.capitalExpenditure?.source.tag).toBe('us-gaap:PaymentsToAcquireProductiveAssets');
    expect(v.dilutedEps).toBeNull(); // class-based EPS only; no diluted share count to derive it
  });

  /*
   * JNJ after the Kenvue separation (python3 over the raw JSON, latest 10-K per period end):
   * IncomeLossFromContinuingOperations 17,801 (FY2021, 0000200406-24-000013), 16,370 (FY2022,
   * -25-000038), 13,326 (FY2023, -26-000016); NetIncomeLoss 20,878 / 17,941 / 35,153 in the same
   * filings; the difference is IncomeLossFromDiscontinuedOperationsNetOfTaxAttributableToReporting
   * Entity 3,077 / 1,571 / 21,827 (17,801 + 3,077 = 20,878 …).
   */
  it('JNJ FY2021–FY2023 income from continuing operations excludes Kenvue', () => {
    const rows: [number, number, number, string][] = [
      [2021, 17_801e6, 20_878e6, '0000200406-24-000013'],
      [2022, 16_370e6, 17_941e6, '0000200406-25-000038'],
      [2023, 13_326e6, 35_153e6, '0000200406-26-000016'],
    ];
    for (const [label, continuing, net, accession] of rows) {
      const y = fy('JNJ', label);
      expect(y.incomeFromContinuingOperations?.value, `FY${label}`).toBe(continuing);
      expect(y.incomeFromContinuingOperations?.source.accession, `FY${label}`).toBe(accession);
      expect(y.netIncome?.value, `FY${label}`).toBe(net);
    }
    expect(fy('JNJ', 2020).incomeFromContinuingOperations).toBeNull();
  });

  /*
   * Ford tags its total debt as DebtAndCapitalLeaseObligations up to 2017-12-31 (154,287 M,
   * 0000037996-18-000015; 142,970 M at 2016-12-31) and nothing with its full debt afterwards:
   * from FY2018 only a stray LongTermDebtNoncurrent remains (600 / 470 / 291 M for 2018–2020,
   * none from 2021; checked with python3 over every us-gaap concept whose name contains Debt).
   */
  it('F total debt comes from DebtAndCapitalLeaseObligations until FY2017, then only the stray line', () => {
    expect(fy('F', 2017).longTermDebt?.value).toBe(154_287e6);
    expect(fy('F', 2017).longTermDebt?.source.accession).toBe('0000037996-18-000015');
    expect(fy('F', 2016).longTermDebt?.value).toBe(142_970e6);
    expect(fy('F', 2018).longTermDebt?.value).toBe(600e6);
    expect(fy('F', 2020).longTermDebt?.value).toBe(291e6);
    for (const label of [2021, 2022, 2023, 2024]) {
      expect([fy('F', label).shortTermDebt, fy('F', label).longTermDebt]).toEqual([null, null]);
    }
  });

  it('DAL FY2008 diluted shares filed as 468 (10-K/A 0000950123-11-022002) are rescaled', () => {
    const y = fy('DAL', 2008);
    expect(y.dilutedShares?.value).toBe(468e6);
    expect(y.dilutedShares?.source.accession).toBe('0000950123-11-022002');
    expect(get('DAL').issues).toContainEqual(
      expect.objectContaining({ fiscalYear: 2008, metric: 'dilutedShares', kind: 'rescaled' }),
    );
  });

  it('MCD FY2021–FY2024 diluted shares filed in millions (751.8 … 721.9) are rescaled', () => {
    expect([2021, 2022, 2023, 2024].map((l) => fy('MCD', l).dilutedShares?.value)).toEqual([
      751.8e6, 741.3e6, 732.3e6, 721.9e6,
    ]);
  });

  it('LUV FY2008 capex filed as −923 M is normalised to +923 M', () => {
    const y = fy('LUV', 2008);
    expect(y.capitalExpenditure?.value).toBe(923e6);
    expect(y.capitalExpenditure?.source.accession).toBe('0001193125-11-026045');
    expect(get('LUV').issues).toContainEqual(
      expect.objectContaining({
        fiscalYear: 2008,
        metric: 'capitalExpenditure',
        kind: 'sign_normalised',
      }),
    );
  });

  it('COST FY2008 diluted EPS 2.89 comes from the "pure" unit', () => {
    const eps = fy('COST', 2008).dilutedEps;
    expect(eps?.value).toBe(2.89);
    expect(eps?.source.accession).toBe('0001193125-10-230379');
    expect(eps?.source.note).toMatch(/pure/);
  });

  it('MA net income uses ProfitLoss after FY2013', () => {
    expect(fy('MA', 2013).netIncome?.source.tag).toBe('us-gaap:NetIncomeLoss');
    expect(fy('MA', 2014).netIncome).toMatchObject({
      value: 3_617e6,
      source: { tag: 'us-gaap:ProfitLoss' },
    });
  });

  it('SPGI FY2024 is reported missing; BBY FY2012 and MOS FY2013 (transition periods) too', () => {
    const missing = (t: string) =>
      get(t)
        .issues.filter((i) => i.kind === 'missing_year')
        .map((i) => i.fiscalYear);
    expect(missing('SPGI')).toEqual([2024]);
    expect(missing('BBY')).toEqual([2012]);
    expect(missing('MOS')).toEqual([2013]);
    expect(missing('AAPL')).toEqual([]);
  });

  it('WMT and TGT fiscal years are labelled by the Compustat convention', () => {
    expect(get('WMT').years.at(-1)).toMatchObject({ fiscalYear: 2025, periodEnd: '2026-01-31' });
    expect(get('TGT').years.at(-1)).toMatchObject({ fiscalYear: 2024, periodEnd: '2025-02-01' });
    expect(fy('WMT', 2022).dilutedEps?.value).toBe(1.42); // 4.27 before the 2024 3:1 split
  });

  it('puts pre-split EPS and shares on the latest basis (AAPL 7:1 + 4:1, NVDA 4:1 + 10:1)', () => {
    // AAPL FY2012: 44.15 (2013 10-K) → 6.31 (2014 10-K, after 7:1) → ÷4 for the 2020 split
    expect(fy('AAPL', 2012).dilutedEps?.value).toBeCloseTo(6.31 / 4, 10);
    // NVDA FY2007 (end 2008-01-27): EPS 1.31, shares 606,732 (thousands), both filed 2010
    const n = fy('NVDA', 2007);
    expect(n.dilutedEps?.value).toBeCloseTo(1.31 / 40, 10);
    expect(n.dilutedShares?.value).toBe(606_732 * 1000 * 40);
    expect(fy('NVDA', 2025).dilutedEps?.value).toBe(4.9);
    const splits = get('NVDA')
      .issues.filter((i) => i.kind === 'split_adjusted')
      .map((i) => i.message);
    expect(splits.join('\n')).toMatch(/4:1 split[\s\S]*10:1 split/);
  });
});
