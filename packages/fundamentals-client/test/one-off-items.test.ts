import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Fundamentals } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { parseCompanyFacts } from '../src/index.js';
import {
  companyFacts,
  cy,
  type FactsByConcept,
  netIncomeYears,
} from './support/companyfacts-builder.js';
import { COMPANYFACTS_DIR } from './support/shared-data.js';

/*
 * `unusualItems` from companyfacts (issue 39): a total wins over its components, components are
 * added only when the total is absent, a subtotal is never added to its total; a charge negative.
 */
const parse = (facts: FactsByConcept, asOf?: string) => {
  const f = parseCompanyFacts(
    companyFacts({ NetIncomeLoss: netIncomeYears([2019, 2020, 2021]), ...facts }),
    { ticker: 'ONE', ...(asOf ? { asOf } : {}) },
  );
  Fundamentals.parse(f);
  return f;
};
const unusual = (f: Fundamentals) =>
  f.years.map((y) => [y.fiscalYear, y.unusualItems?.value ?? null]);

describe('one-off items from companyfacts', () => {
  it('is null (not reported) when no one-off concept is tagged', () => {
    expect(unusual(parse({}))).toEqual([
      [2019, null],
      [2020, null],
      [2021, null],
    ]);
  });

  it('reads a total alone as a charge, negative', () => {
    const f = parse({ AssetImpairmentCharges: [cy(2020, 80e6)] });
    expect(unusual(f)).toContainEqual([2020, -80e6]);
    const y = f.years.find((x) => x.fiscalYear === 2020);
    expect(y?.unusualItems?.source).toMatchObject({ tag: 'derived:oneOffItems', derived: true });
    expect(y?.unusualItems?.source.note).toMatch(/AssetImpairmentCharges 80000000/);
  });

  it('adds components when the total is absent, across the branches, gains positive', () => {
    const f = parse({
      GoodwillImpairmentLoss: [cy(2020, 50e6)],
      ImpairmentOfIntangibleAssetsIndefinitelivedExcludingGoodwill: [cy(2020, 10e6)],
      RestructuringCharges: [cy(2020, 30e6), cy(2021, 5e6)],
      GainLossOnSaleOfPropertyPlantEquipment: [cy(2020, 4e6), cy(2021, -2e6)],
    });
    expect(unusual(f)).toEqual([
      [2019, null],
      [2020, -50e6 - 10e6 - 30e6 + 4e6],
      [2021, -5e6 - 2e6],
    ]);
  });

  it('takes the total and not its components when both are tagged (no double count)', () => {
    // PG FY2019: AssetImpairmentCharges 8,345 M = goodwill 6,783 M + intangibles 1,562 M.
    const f = parse({
      AssetImpairmentCharges: [cy(2020, 8345e6)],
      GoodwillImpairmentLoss: [cy(2020, 6783e6)],
      ImpairmentOfIntangibleAssetsExcludingGoodwill: [cy(2020, 1562e6)],
      GoodwillAndIntangibleAssetImpairment: [cy(2020, 8345e6)],
    });
    expect(unusual(f)).toContainEqual([2020, -8345e6]);
  });

  it('never adds a subtotal to its total: restructuring and impairment combined wins', () => {
    const f = parse({
      RestructuringCostsAndAssetImpairmentCharges: [cy(2020, 120e6)],
      RestructuringCharges: [cy(2020, 70e6)],
      AssetImpairmentCharges: [cy(2020, 50e6)],
      GainLossOnDispositionOfAssets1: [cy(2020, 15e6)],
      GainLossOnSaleOfPropertyPlantEquipment: [cy(2020, 9e6)],
    });
    // 120 M combined (not 120 + 70 + 50), disposals total 15 M (not 15 + 9).
    expect(unusual(f)).toContainEqual([2020, -120e6 + 15e6]);
  });

  it('reads alternative tags of one line once, the first in priority order', () => {
    const f = parse({
      RestructuringCharges: [cy(2020, 30e6)],
      RestructuringCosts: [cy(2020, 31e6)],
      GainLossOnDispositionOfAssets1: [cy(2020, 8e6)],
      GainLossOnDispositionOfAssets: [cy(2020, 8e6)],
    });
    expect(unusual(f)).toContainEqual([2020, -30e6 + 8e6]);
  });

  it('chooses total or components per year', () => {
    const f = parse({
      GoodwillAndIntangibleAssetImpairment: [cy(2020, 40e6)],
      GoodwillImpairmentLoss: [cy(2020, 25e6), cy(2021, 22e6)],
      ImpairmentOfIntangibleAssetsExcludingGoodwill: [cy(2021, 5e6)],
    });
    expect(unusual(f)).toEqual([
      [2019, null],
      [2020, -40e6],
      [2021, -27e6],
    ]);
  });

  it('takes an impairment filed negative as the charge it is; a restructuring credit stays', () => {
    const f = parse({
      GoodwillImpairmentLoss: [cy(2020, -1330e6)],
      RestructuringCharges: [cy(2021, -3e6)],
    });
    expect(unusual(f)).toContainEqual([2020, -1330e6]);
    expect(unusual(f)).toContainEqual([2021, 3e6]);
  });

  it('does not read a gain on sale of a business (may sit in discontinued operations)', () => {
    expect(unusual(parse({ GainLossOnSaleOfBusiness: [cy(2020, 5490e6)] }))).toContainEqual([
      2020,
      null,
    ]);
  });

  it('uses the first-filed value as of a date, the latest without one', () => {
    const facts = {
      RestructuringCharges: [
        cy(2020, 30e6, { filed: '2021-02-15' }),
        cy(2020, 45e6, { filed: '2022-02-15' }), // restated in the next 10-K
      ],
    };
    expect(unusual(parse(facts, '2022-06-30'))).toContainEqual([2020, -30e6]);
    expect(unusual(parse(facts, '2021-06-30'))).toContainEqual([2020, -30e6]);
    expect(unusual(parse(facts))).toContainEqual([2020, -45e6]);
    // A total filed only later does not exist before its filing date.
    const later = { ...facts, AssetImpairmentCharges: [cy(2020, 60e6, { filed: '2022-02-15' })] };
    expect(unusual(parse(later, '2021-06-30'))).toContainEqual([2020, -30e6]);
    expect(unusual(parse(later, '2022-06-30'))).toContainEqual([2020, -30e6 - 60e6]);
  });
});

describe('one-off items: a value repeated to the unit', () => {
  it('drops a year that repeats the year before (a mis-dated comparative), with an issue', () => {
    // SPGI: the 1,100 M gain of 2016 tagged again as FY2017 in the 10-K filed 2018-02-09.
    const f = parse({
      DisposalGroupNotDiscontinuedOperationGainLossOnDisposal: [cy(2019, 1100e6), cy(2020, 1100e6)],
      GainLossOnSaleOfPropertyPlantEquipment: [cy(2020, 3e6)],
      RestructuringCharges: [cy(2020, 0), cy(2021, 0)],
    });
    expect(unusual(f)).toEqual([
      [2019, 1100e6],
      [2020, 3e6],
      [2021, 0],
    ]);
    expect(f.issues).toContainEqual(
      expect.objectContaining({
        fiscalYear: 2020,
        metric: 'unusualItems',
        kind: 'dropped_outlier',
      }),
    );
  });
});

describe('one-off items in real filings (shared SEC snapshot)', () => {
  const real = (file: string, ticker: string, asOf?: string) =>
    parseCompanyFacts(JSON.parse(readFileSync(join(COMPANYFACTS_DIR, file), 'utf8')), {
      ticker,
      ...(asOf ? { asOf } : {}),
    });
  const year = (f: Fundamentals, fy: number) => f.years.find((y) => y.fiscalYear === fy);

  it('PG FY2019: the impairment total 8,345 M, not plus the goodwill 6,783 M inside it', () => {
    const fy2019 = year(real('PG_CIK0000080424.json', 'PG'), 2019);
    expect(fy2019?.unusualItems?.value).toBe(-(8345e6 + 754e6));
    expect(fy2019?.unusualItems?.source.note).not.toMatch(/GoodwillImpairmentLoss/);
  });

  it('PG FY2012 as of 2013-06-30: the goodwill impairment first filed as −1,330 M is a charge', () => {
    const fy2012 = year(real('PG_CIK0000080424.json', 'PG', '2013-06-30'), 2012);
    expect(fy2012?.unusualItems?.value).toBe(-(1052e6 + 1330e6));
    expect(fy2012?.unusualItems?.source.note).toMatch(/filed 2012-08-08.*taken as 1330000000/);
  });

  it('SPGI FY2017: the 2016 disposal gain tagged again under 2017 is not read', () => {
    const f = real('SPGI_CIK0000064040.json', 'SPGI');
    expect(year(f, 2016)?.unusualItems?.value).toBeCloseTo(1100e6 - 24e6, -3);
    expect(year(f, 2017)?.unusualItems?.value).toBe(0);
  });
});
