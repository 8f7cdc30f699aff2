/**
 * Provider reconciliation in the evaluation flow (issue 39): a second provider's figures of the
 * same ticker and `asOf` reach the scoring as `reconcileWith`; when it lacks the company the
 * evaluation goes on without it and says so; the cache does not serve an evaluation reconciled
 * otherwise than the server is configured. Two hand-made in-memory providers.
 */
import { FundamentalsError, type FundamentalsProvider } from '@svc/fundamentals-client';
import type { CachedEvaluation } from '@svc/portfolio-store';
import {
  type FiscalYearFigures,
  type Fundamentals,
  METRIC_KEYS,
  type MetricKey,
  MoatEvaluation,
} from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { evaluateCompany, RECONCILE_UNAVAILABLE } from '../src/moat/evaluate-company.js';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import type { EvaluationKeeper } from '../src/moat/keep-evaluation.js';

const now = () => new Date('2026-11-28T12:00:00Z');
const START = 2010;
const N = 10;

/** A steady compounder: revenue 1000 growing 8% a year, capex 4% of revenue. */
function company(provider: string, capexFactor: (fiscalYear: number) => number): Fundamentals {
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
function inMemory(name: string, figures: Fundamentals | null) {
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

const primary = inMemory(
  'first',
  company('first', () => 1),
);
/** Six times the first provider's capex in FY2017–FY2019: a dispute on the capex series. */
const disagreeing = inMemory(
  'second',
  company('second', (y) => (y >= 2017 ? 6 : 1)),
);
const base = { fundamentals: primary.provider, quotes: null, now };
const capexOf = (e: { criteria: { key: string; score: number; dataQuality?: unknown }[] }) =>
  e.criteria.find((c) => c.key === 'capex_efficiency');

describe('evaluateCompany with a second provider (issue 39)', () => {
  it('passes the second provider’s figures as reconcileWith: the capex criterion is flagged and earns no points from the gap', async () => {
    const alone = await evaluateCompany('TEST', base);
    const reconciled = await evaluateCompany('TEST', { ...base, reconcile: disagreeing.provider });

    expect(alone._reconciliation).toBeNull();
    expect(alone.dataQuality.some((f) => f.code === 'provider_mismatch')).toBe(false);
    expect(reconciled._reconciliation).toEqual({ provider: 'second', status: 'compared' });
    const mismatch = reconciled.dataQuality.filter((f) => f.code === 'provider_mismatch');
    expect(mismatch).toHaveLength(1);
    expect(mismatch[0]).toMatchObject({ series: 'capitalExpenditure' });
    expect(mismatch[0]?.message).toMatch(/first .* vs second .* FY2019/);

    const capex = capexOf(reconciled);
    const capexAlone = capexOf(alone);
    expect(capex?.dataQuality).toEqual(expect.arrayContaining([mismatch[0]]));
    // scored on the provider whose figures give the lower quality: fewer points, never more
    expect(capexAlone?.score).toBeGreaterThan(0);
    expect(capex?.score).toBeLessThan(capexAlone?.score ?? 0);
    expect(reconciled.totalScore).toBeLessThan(alone.totalScore);
    // criteria that do not rest on capex are untouched
    const gross = (e: typeof alone) => e.criteria.find((c) => c.key === 'gross_margin')?.score;
    expect(gross(reconciled)).toBe(gross(alone));
    expect(MoatEvaluation.safeParse(reconciled).success).toBe(true);
  });

  it('asks the second provider for the same ticker and asOf', async () => {
    disagreeing.asked.length = 0;
    const evaluation = await evaluateCompany(
      'TEST',
      { ...base, reconcile: disagreeing.provider },
      { asOf: '2021-06-30' },
    );
    expect(disagreeing.asked).toEqual([{ symbol: 'TEST', asOf: '2021-06-30' }]);
    expect(evaluation._reconciliation?.status).toBe('compared');
  });

  it('goes on without a second provider that lacks the ticker, and says so', async () => {
    const lacking = inMemory('second', null);
    const alone = await evaluateCompany('TEST', base);
    const evaluation = await evaluateCompany('TEST', { ...base, reconcile: lacking.provider });

    expect(lacking.asked).toEqual([{ symbol: 'TEST', asOf: undefined }]);
    expect(evaluation.totalScore).toBe(alone.totalScore);
    expect(evaluation._reconciliation).toEqual({
      provider: 'second',
      status: 'unavailable',
      detail: 'second has no company TEST',
    });
    const notes = evaluation.dataQuality.filter((f) => f.code === RECONCILE_UNAVAILABLE);
    expect(notes).toEqual([
      {
        code: RECONCILE_UNAVAILABLE,
        series: 'fundamentals',
        message:
          "Not reconciled with second: second has no company TEST; scored on one provider's figures.",
      },
    ]);
    // a note about the evaluation as a whole: no criterion carries it
    for (const c of evaluation.criteria) expect(c.dataQuality ?? []).toEqual([]);
  });

  it('a second provider that cannot read asOf is not compared', async () => {
    const latestOnly: FundamentalsProvider = {
      name: 'latest-only',
      getFundamentals: async () => company('latest-only', () => 6),
    };
    const evaluation = await evaluateCompany(
      'TEST',
      { ...base, reconcile: latestOnly },
      { asOf: '2021-06-30' },
    );
    expect(evaluation._reconciliation).toMatchObject({ status: 'unavailable' });
    expect(evaluation.dataQuality.some((f) => f.code === 'provider_mismatch')).toBe(false);
  });
});

describe('the evaluation cache and reconciliation', () => {
  /** The evaluation flow over an in-memory cache, with or without the second provider. */
  function flow(rows: Map<string, CachedEvaluation>, reconcile: FundamentalsProvider | null) {
    let fetches = 0;
    const keep: EvaluationKeeper = async ({ evaluation, evaluatedAt }) => {
      rows.set(evaluation.symbol, {
        symbol: evaluation.symbol,
        evaluation,
        marketCap: null,
        cachedAt: evaluatedAt.toISOString(),
      });
      return { record: {} as never };
    };
    const fundamentals: FundamentalsProvider = {
      name: 'first',
      getFundamentals: (symbol, options) => {
        fetches += 1;
        return primary.provider.getFundamentals(symbol, options);
      },
    };
    const service = createEvaluationService({
      fundamentals,
      reconcile,
      quotes: null,
      now,
      cache: { get: async (symbol) => rows.get(symbol) },
      quotas: {
        withQuota: (_id: string, _plan: string, _quota: string, work: () => unknown) => work(),
      } as never,
      keep,
    });
    const actor = { id: 'u1', plan: 'pro' as const };
    return {
      get: () => service.getEvaluation({ symbol: 'TEST', fresh: false, actor }),
      fetches: () => fetches,
    };
  }

  it('an unreconciled cached evaluation is computed again once the server reconciles, then served', async () => {
    const rows = new Map<string, CachedEvaluation>();
    const off = flow(rows, null);
    const first = await off.get();
    expect(first._reconciliation).toBeNull();
    expect((await off.get())._cached).toBe(true);

    const on = flow(rows, disagreeing.provider);
    const rescored = await on.get();
    expect(rescored._cached).toBe(false);
    expect(on.fetches()).toBe(1);
    expect(rescored.dataQuality?.map((f) => f.code)).toContain('provider_mismatch');
    const again = await on.get();
    expect(again._cached).toBe(true);
    expect(again.dataQuality?.map((f) => f.code)).toContain('provider_mismatch');
    expect(on.fetches()).toBe(1);

    // reconciliation turned off again: the flagged row is not served as if unreconciled
    const offAgain = flow(rows, null);
    const plain = await offAgain.get();
    expect(plain._cached).toBe(false);
    expect(plain.dataQuality?.map((f) => f.code)).not.toContain('provider_mismatch');
  });
});
