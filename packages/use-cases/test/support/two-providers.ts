/**
 * Two hand-made in-memory fundamentals providers of one company, `TEST`, for the reconciliation
 * tests (issue 39): `primary` ("first") and `disagreeing` ("second", six times the first's capex
 * in FY2017–FY2019: a dispute on the capex series that costs the capex criterion its points).
 */
import { FundamentalsError, type FundamentalsProvider } from '@svc/fundamentals-client';
import {
  type FiscalYearFigures,
  type Fundamentals,
  METRIC_KEYS,
  type MetricKey,
} from '@svc/schemas';

const START = 2010;
const N = 10;

/** A steady compounder: revenue 1000 growing 8% a year, capex 4% of revenue. */
export function company(
  provider: string,
  capexFactor: (fiscalYear: number) => number,
): Fundamentals {
  const years: FiscalYearFigures[] = [];
  for (let i = 0; i < N; i += 1) {
    const fiscalYear = START + i;
    const revenue = 1000 * 1.08 ** i;
    const values: Partial<Record<MetricKey, number>> = {
      revenue,
      costOfRevenue: revenue * 0.4,
      sellingGeneralAdministrative: revenue * 0.2,
      researchDevelopment: revenue * 0.03,
      depreciationAmortization: revenue * 0.03,
      operatingIncome: revenue * 0.3,
      interestExpense: 10,
      pretaxIncome: revenue * 0.3 - 10,
      incomeTaxExpense: (revenue * 0.3 - 10) * 0.25,
      netIncome: (revenue * 0.3 - 10) * 0.75,
      dilutedEps: ((revenue * 0.3 - 10) * 0.75) / (100 * 0.98 ** i),
      dilutedShares: 100 * 0.98 ** i,
      operatingCashFlow: revenue * 0.27,
      capitalExpenditure: revenue * 0.04 * capexFactor(fiscalYear),
      dividendsPaid: revenue * 0.06,
      shareRepurchases: revenue * 0.08,
      cash: 300,
      shortTermDebt: 50,
      longTermDebt: 250,
      totalEquity: revenue * 0.8,
      retainedEarnings: 1500 * 1.09 ** i,
      currentAssets: revenue * 0.6,
      currentLiabilities: revenue * 0.35,
      propertyPlantEquipmentNet: revenue * 0.3,
      goodwill: 200,
      intangibleAssets: 50,
      sharesOutstanding: 100 * 0.98 ** i,
    };
    const record: Record<string, unknown> = {
      fiscalYear,
      periodStart: `${fiscalYear}-01-01`,
      periodEnd: `${fiscalYear}-12-31`,
    };
    for (const key of METRIC_KEYS) {
      const v = values[key];
      record[key] =
        v === undefined
          ? null
          : {
              value: v,
              source: {
                tag: `${provider}:fixture`,
                form: '10-K',
                accession: null,
                filed: null,
                derived: false,
              },
            };
    }
    years.push(record as FiscalYearFigures);
  }
  return {
    company: {
      ticker: 'TEST',
      cik: null,
      name: 'Test Corp',
      sicCode: '2080',
      sicDescription: null,
      sector: 'Manufacturing',
      industry: 'Beverages',
      fiscalYearEnd: '12-31',
      currency: 'USD',
    },
    years,
    provider,
    retrievedAt: null,
    issues: [],
  };
}

/** An in-memory provider serving `figures` for its ticker, recording what it was asked. */
export function inMemory(name: string, figures: Fundamentals | null) {
  const asked: { symbol: string; asOf: string | undefined }[] = [];
  const provider: FundamentalsProvider = {
    name,
    async getFundamentals(symbol, options) {
      asked.push({ symbol, asOf: options?.asOf });
      if (figures === null || symbol !== figures.company.ticker) {
        throw new FundamentalsError('invalid_symbol', `${name} has no company ${symbol}`);
      }
      return options?.asOf === undefined ? figures : { ...figures, asOf: options.asOf };
    },
  };
  return { provider, asked };
}

export const primary = inMemory(
  'first',
  company('first', () => 1),
);
/** Six times the first provider's capex in FY2017–FY2019: a dispute on the capex series. */
export const disagreeing = inMemory(
  'second',
  company('second', (y) => (y >= 2017 ? 6 : 1)),
);
