import { ServedEvaluation } from '@svc/schemas';
import { createFundamentalsProvider } from '@svc/service';
import type { FundamentalsProvider } from '@svc/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, registerUser, type TestContext } from './helpers.js';
import { sharedData } from './shared-data.js';

/**
 * Provider reconciliation through the REST route, the moat card page and the screener (issue 39):
 * the SEC snapshot reconciled with SimFin's bulk data, as `RECONCILE_PROVIDER=simfin` does.
 * Delta's FY2019 capex: 4,936 M in its 10-K, 1,592 M in SimFin (only the ground-equipment line).
 */
const simfin = createFundamentalsProvider({
  provider: 'simfin',
  simfinDir: sharedData('fundamentals/raw/simfin_us_annual_2021-04'),
});
/** SimFin without Apple: a company the second provider does not cover. */
const simfinWithoutApple: FundamentalsProvider = {
  name: 'simfin',
  getFundamentals: (symbol, options) =>
    symbol === 'AAPL'
      ? Promise.reject(new Error('SimFin has no company AAPL'))
      : simfin.getFundamentals(symbol, options),
};

describe('GET /api/stock-evaluation with RECONCILE_PROVIDER=simfin', () => {
  let ctx: TestContext;
  let cookie: string;
  const get = (url: string) => ctx.app.inject({ url, headers: { cookie } });

  beforeAll(async () => {
    ctx = await createTestContext({ reconcile: simfinWithoutApple });
    ({ cookie } = await registerUser(ctx.app, 'reconcile@example.com'));
  });
  afterAll(() => ctx.close());

  it('serves DAL with the capex provider_mismatch flag, on the evaluation and its capex criterion', async () => {
    const res = await get('/api/stock-evaluation?symbol=DAL&asOf=2020-06-30');
    expect(res.statusCode).toBe(200);
    const evaluation = res.json();
    expect(ServedEvaluation.safeParse(evaluation).success).toBe(true);
    expect(evaluation._provider).toBe('snapshot');
    expect(evaluation._reconciliation).toEqual({ provider: 'simfin', status: 'compared' });
    const capexFlag = evaluation.dataQuality.find(
      (f: { code: string; series: string }) =>
        f.code === 'provider_mismatch' && f.series === 'capitalExpenditure',
    );
    expect(capexFlag?.message).toMatch(/snapshot .* vs simfin .* FY2019/);
    const capex = evaluation.criteria.find((c: { key: string }) => c.key === 'capex_efficiency');
    expect(capex.dataQuality).toContainEqual(capexFlag);

    // served again from the as-of cache, flags and provenance kept
    const again = (await get('/api/stock-evaluation?symbol=DAL&asOf=2020-06-30')).json();
    expect(again._cached).toBe(true);
    expect(again.dataQuality).toEqual(evaluation.dataQuality);
    expect(again._reconciliation).toEqual(evaluation._reconciliation);
  });

  it('the latest evaluation, the moat card page and the screener show the flag too', async () => {
    const latest = (await get('/api/stock-evaluation?symbol=DAL')).json();
    const codes = latest.dataQuality.map((f: { code: string }) => f.code);
    expect(codes).toContain('provider_mismatch');

    const page = await get('/evaluation/DAL');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-code="provider_mismatch"');
    expect(page.body).toContain('Source: snapshot, reconciled with simfin');

    const screener = (await get('/api/moat-screener?limit=100')).json();
    const row = screener.items.find((r: { symbol: string }) => r.symbol === 'DAL');
    expect(row.dataQualityFlags).toBe(latest.dataQuality.length);
    expect(row.dataQualityCodes).toContain('provider_mismatch');
  });

  it('a company the second provider lacks is evaluated on the first, with a note and no error', async () => {
    const res = await get('/api/stock-evaluation?symbol=AAPL');
    expect(res.statusCode).toBe(200);
    const evaluation = res.json();
    expect(evaluation._reconciliation).toEqual({
      provider: 'simfin',
      status: 'unavailable',
      detail: 'SimFin has no company AAPL',
    });
    expect(evaluation.dataQuality).toContainEqual({
      code: 'reconcile_unavailable',
      series: 'fundamentals',
      message:
        "Not reconciled with simfin: SimFin has no company AAPL; scored on one provider's figures.",
    });
    expect(
      evaluation.dataQuality.some((f: { code: string }) => f.code === 'provider_mismatch'),
    ).toBe(false);
    const page = await get('/evaluation/AAPL');
    expect(page.body).toContain('not reconciled with simfin');
  });
});
