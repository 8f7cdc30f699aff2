import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FiscalYearFigures, Fundamentals } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { parseCompanyFacts } from '../src/index.js';
import { COMPANYFACTS_DIR } from './support/shared-data.js';

/**
 * One scope per series (issue 12), on the real companyfacts files. Every expected figure was read
 * by hand from the raw JSON (latest 10-K copy per period end, python3), not computed with the code
 * under test; the arithmetic is in the comments.
 */
const cache = new Map<string, Fundamentals>();
function get(ticker: string): Fundamentals {
  let f = cache.get(ticker);
  if (!f) {
    const name = readdirSync(COMPANYFACTS_DIR).find((n) => n.startsWith(`${ticker}_CIK`));
    if (!name) throw new Error(`${ticker} not in the data set`);
    const json: unknown = JSON.parse(readFileSync(join(COMPANYFACTS_DIR, name), 'utf8'));
    f = parseCompanyFacts(json, { ticker, provider: 'snapshot' });
    cache.set(ticker, f);
  }
  return f;
}
const fy = (ticker: string, label: number): FiscalYearFigures => {
  const y = get(ticker).years.find((r) => r.fiscalYear === label);
  if (!y) throw new Error(`${ticker} has no FY${label}`);
  return y;
};
const margin = (y: FiscalYearFigures) =>
  y.grossProfit && y.revenue ? y.grossProfit.value / y.revenue.value : null;
const ALL = readdirSync(COMPANYFACTS_DIR)
  .map((n) => /^(.+)_CIK\d{10}\.json$/.exec(n)?.[1])
  .filter((t): t is string => t !== undefined);

describe('gross margin: cost of revenue on the scope of revenue', () => {
  /*
   * GM revenue (us-gaap:Revenues) includes GM Financial; CostOfGoodsAndServicesSold is automotive
   * only. Company-wide cost = CostsAndExpenses − SellingGeneralAndAdministrativeExpense:
   * FY2018 142,604 − 9,650 = 132,954 M; revenue 147,049 M → margin 9.6% (automotive cost alone
   * gave (147,049 − 120,656) / 147,049 = 17.9%). FY2015 130,187 − 11,888 = 118,299 M of 135,725 M
   * → 12.8%.
   */
  it('GM: total costs less SG&A, every year 9–15%, not the 18–20% of automotive cost alone', () => {
    const y = fy('GM', 2018);
    expect(y.costOfRevenue?.value).toBe(132_954e6);
    expect(y.costOfRevenue?.source).toMatchObject({
      tag: 'derived:costsAndExpenses-sellingGeneralAdministrative',
      derived: true,
    });
    expect(y.costOfRevenue?.source.note).toMatch(/finance arm/);
    expect(fy('GM', 2015).costOfRevenue?.value).toBe(118_299e6);
    for (const label of [2015, 2016, 2017, 2018, 2019, 2020, 2021]) {
      const m = margin(fy('GM', label)) as number;
      expect(m, `GM FY${label}`).toBeGreaterThan(0.09);
      expect(m, `GM FY${label}`).toBeLessThan(0.15);
    }
  });

  /* F FY2018: CostsAndExpenses 157,135 − SG&A 11,403 = 145,732 M; revenue 160,338 M → 9.1%. */
  it('F: the same rule for Ford Credit', () => {
    expect(fy('F', 2018).costOfRevenue?.value).toBe(145_732e6);
    expect(margin(fy('F', 2018))).toBeCloseTo((160_338 - 145_732) / 160_338, 10);
  });

  /*
   * COST FY2019 tags GrossProfit 16,465 M = net sales 149,351 − cost 132,886; every other year is
   * total revenue − cost of sales. FY2019 on that scope: 152,703 − 132,886 = 19,817 M.
   */
  it('COST FY2019: gross profit on total revenue like its other years', () => {
    const y = fy('COST', 2019);
    expect(y.grossProfit?.value).toBe(19_817e6);
    expect(y.grossProfit?.source.derived).toBe(true);
    expect(y.grossProfit?.source.note).toMatch(/16465000000/);
    const margins = [2018, 2019, 2020].map((l) => margin(fy('COST', l)) as number);
    expect(Math.abs((margins[1] as number) - (margins[0] as number))).toBeLessThan(0.005);
  });

  /*
   * BF-B FY2013–FY2015 (years ending April 2014–2016) tag SalesRevenueGoodsNet including excise
   * taxes (3,946 / 4,096 / 4,011 M) and GrossProfit on net sales (2,078 / 2,183 / 2,144 M);
   * ExciseAndSalesTaxes 955 / 962 / 922 M. Net sales: 2,991 / 3,134 / 3,089 M, the scope of its
   * RevenueFromContractWithCustomerExcludingAssessedTax from FY2016 (2,994 M).
   */
  it('BF-B FY2013–FY2015: revenue net of excise taxes, the scope of its later years', () => {
    expect([2013, 2014, 2015].map((l) => fy('BF-B', l).revenue?.value)).toEqual([
      2_991e6, 3_134e6, 3_089e6,
    ]);
    expect([2013, 2014, 2015].map((l) => fy('BF-B', l).grossProfit?.value)).toEqual([
      2_078e6, 2_183e6, 2_144e6,
    ]);
    expect(fy('BF-B', 2015).revenue?.source.tag).toBe('derived:revenue-exciseTaxes');
  });

  it('UBER and KR: a cost line excluding D&A says so on cost and gross profit', () => {
    for (const t of ['UBER', 'KR']) {
      const y = get(t).years.at(-1) as FiscalYearFigures;
      expect(y.costOfRevenue?.source.tag).toMatch(/ExcludingDepreciation/);
      expect(y.costOfRevenue?.source.note).toMatch(/excludes depreciation/);
      expect(y.grossProfit?.source.note).toMatch(/before D&A/);
    }
  });

  it.each(ALL)('%s: a reported gross profit always equals revenue − cost when both exist', (t) => {
    for (const y of get(t).years) {
      if (!y.grossProfit || !y.revenue || !y.costOfRevenue) continue;
      const gap = Math.abs(y.grossProfit.value - (y.revenue.value - y.costOfRevenue.value));
      expect(gap, `${t} FY${y.fiscalYear}`).toBeLessThanOrEqual(0.01 * y.revenue.value);
    }
  });
});

describe('net income, EPS and D&A keep one scope', () => {
  /*
   * F tags no NetIncomeLoss for FY2016–FY2020; ProfitLoss includes noncontrolling interests
   * (FY2019 84 M), NetIncomeLossAvailableToCommonStockholdersBasic is Ford's share: 4,589 / 7,731 /
   * 3,677 / 47 / −1,279 M (latest copies, 0000037996-20-000005 for FY2017, -21-000012 for FY2018).
   */
  it('F FY2016–FY2020: net income attributable to Ford, not including minority interests', () => {
    expect([2016, 2017, 2018, 2019, 2020].map((l) => fy('F', l).netIncome?.value)).toEqual([
      4_589e6, 7_731e6, 3_677e6, 47e6, -1_279e6,
    ]);
    expect(fy('F', 2019).netIncome?.source.tag).toBe(
      'us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic',
    );
  });

  /*
   * F FY2016 tags only Depreciation 2,130 M (the FY2015/FY2017 DepreciationDepletionAndAmortization
   * are 7,993 / 9,241 M; FY2015 Depreciation was 2,049 M beside 7,993 M): a component, left empty.
   */
  it('F FY2016 D&A from a narrower tag is left empty, with an issue', () => {
    expect(fy('F', 2016).depreciationAmortization).toBeNull();
    expect(fy('F', 2015).depreciationAmortization?.value).toBe(7_993e6);
    expect(fy('F', 2017).depreciationAmortization?.value).toBe(9_241e6);
    expect(get('F').issues).toContainEqual(
      expect.objectContaining({
        fiscalYear: 2016,
        metric: 'depreciationAmortization',
        kind: 'dropped_outlier',
      }),
    );
  });

  /*
   * MCD from FY2018 tags DepreciationDepletionAndAmortization 215–447 M beside its
   * DepreciationAndAmortization total 1,482.0 / 1,617.9 / 1,751.4 / 1,868.1 / 1,871 / 1,978 /
   * 2,097 M (FY2018–FY2024), the line of its earlier years (1,363.4 M in FY2017).
   */
  it('MCD FY2018–FY2024 D&A is the DepreciationAndAmortization total', () => {
    const labels = [2018, 2019, 2020, 2021, 2022, 2023, 2024];
    expect(labels.map((l) => fy('MCD', l).depreciationAmortization?.value)).toEqual([
      1_482_000_000, 1_617_900_000, 1_751_400_000, 1_868_100_000, 1_871e6, 1_978e6, 2_097e6,
    ]);
    expect(fy('MCD', 2017).depreciationAmortization?.value).toBe(1_363_400_000);
    expect(fy('MCD', 2024).depreciationAmortization?.source.tag).toBe(
      'us-gaap:DepreciationAndAmortization',
    );
  });

  it.each(ALL)('%s: no D&A year below half of both neighbours', (t) => {
    const years = get(t).years.filter((y) => y.depreciationAmortization);
    for (let i = 1; i + 1 < years.length; i += 1) {
      const [a, b, c] = [years[i - 1], years[i], years[i + 1]].map(
        (y) => y?.depreciationAmortization?.value as number,
      ) as [number, number, number];
      expect(b < 0.5 * a && b < 0.5 * c, `${t} FY${years[i]?.fiscalYear}`).toBe(false);
    }
  });

  /*
   * PG: EarningsPerShareDiluted 5.59 (FY2017) and 3.69 (FY2016) include the beauty brands sold;
   * IncomeLossFromContinuingOperationsPerDilutedShare 3.69 and 3.49. Continuing income FY2017:
   * NetIncomeLoss 15,326 − IncomeLossFromDiscontinuedOperationsNetOfTax 5,217 = 10,109 M (PG's
   * continuing 10,194 M less 85 M noncontrolling) on revenue 65,058 M: 15.5%.
   */
  it('PG FY2016–FY2017: EPS and income from continuing operations', () => {
    expect([fy('PG', 2016).dilutedEps?.value, fy('PG', 2017).dilutedEps?.value]).toEqual([
      3.49, 3.69,
    ]);
    expect(fy('PG', 2017).dilutedEps?.source.tag).toBe(
      'us-gaap:IncomeLossFromContinuingOperationsPerDilutedShare',
    );
    const y = fy('PG', 2017);
    expect(y.incomeFromContinuingOperations?.value).toBe(10_109e6);
    expect(y.netIncome?.value).toBe(15_326e6);
    expect(
      (y.incomeFromContinuingOperations?.value as number) / (y.revenue?.value as number),
    ).toBeCloseTo(0.155, 3);
  });
});
