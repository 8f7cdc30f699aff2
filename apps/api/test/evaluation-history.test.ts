import type { FundamentalsProvider } from '@svc/service/testing';
import { EvaluationDiff, EvaluationHistoryPage } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  ENGINES,
  registerUser,
  snapshotProvider,
  type TestContext,
} from './helpers.js';

/** The real companyfacts; while `truncated`, without each company's latest fiscal year. */
function switchableProvider() {
  const state = { truncated: true };
  const provider: FundamentalsProvider = {
    name: snapshotProvider.name,
    async getFundamentals(ticker, options) {
      const full = await snapshotProvider.getFundamentals(ticker, options);
      return state.truncated ? { ...full, years: full.years.slice(0, -1) } : full;
    },
  };
  return { provider, state };
}

describe.each(ENGINES)('GET /api/stock-evaluation/history[/diff] (%s)', (engine) => {
  let ctx: TestContext;
  const source = switchableProvider();
  const get = (url: string, cookie?: string) =>
    ctx.app.inject({ url, headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    ctx = await createTestContext({ engine, fundamentals: source.provider });
  });
  afterAll(() => ctx.close());

  it('needs a session', async () => {
    for (const url of [
      '/api/stock-evaluation/history?symbol=AAPL',
      '/api/stock-evaluation/history/diff?symbol=AAPL',
    ]) {
      const res = await get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });

  it('lists every fresh evaluation newest first, for any user, and diffs the last two', async () => {
    const alice = await registerUser(ctx.app, `hist-alice-${engine}@example.com`);
    const bob = await registerUser(ctx.app, `hist-bob-${engine}@example.com`);
    const history = async (query: string, cookie = alice.cookie) => {
      const res = await get(`/api/stock-evaluation/history?${query}`, cookie);
      expect(res.statusCode).toBe(200);
      return EvaluationHistoryPage.parse(res.json());
    };
    expect(await history('symbol=AAPL')).toMatchObject({ symbol: 'AAPL', items: [], total: 0 });

    const older = (await get('/api/stock-evaluation?symbol=AAPL', alice.cookie)).json();
    await get('/api/stock-evaluation?symbol=AAPL', alice.cookie); // a cache hit: not kept
    const single = await get('/api/stock-evaluation/history/diff?symbol=aapl', alice.cookie);
    expect(single.statusCode).toBe(404);
    expect(single.json()).toMatchObject({ code: 'not_found' });

    source.state.truncated = false;
    const newer = (await get('/api/stock-evaluation?symbol=AAPL&fresh=1', bob.cookie)).json();
    const page = await history('symbol=aapl&limit=1');
    expect(page).toMatchObject({ total: 2, totalPages: 2, page: 1, limit: 1 });
    expect(page.items[0]).toMatchObject({
      totalScore: newer.totalScore,
      fiscalYears: newer._fiscalYears,
      filings: newer._filings,
      provider: 'snapshot',
      trigger: 'request',
    });
    // Bob reads the same history: it is about the company, not about who asked.
    const second = await history('symbol=AAPL&page=2&limit=1', bob.cookie);
    expect(second.items.map((i) => i.totalScore)).toEqual([older.totalScore]);

    const res = await get('/api/stock-evaluation/history/diff?symbol=AAPL', alice.cookie);
    expect(res.statusCode).toBe(200);
    const diff = EvaluationDiff.parse(res.json());
    expect(diff.to.id).toBe(page.items[0]?.id);
    expect(diff.from.id).toBe(second.items[0]?.id);
    expect(diff.newFiscalYears).toEqual([newer._fiscalYears.at(-1)]);
    expect(diff.totalScore.from).toBe(older.totalScore);
    expect(diff.totalScore.to).toBe(newer.totalScore);
    expect(diff.moved).toEqual(
      newer.criteria
        .filter((c: { key: string; score: number; value: string; status: string }) => {
          const o = older.criteria.find((x: { key: string }) => x.key === c.key);
          return o.score !== c.score || o.value !== c.value || o.status !== c.status;
        })
        .map((c: { key: string }) => c.key),
    );

    // By ids, reversed.
    const back = await get(
      `/api/stock-evaluation/history/diff?symbol=AAPL&from=${diff.to.id}&to=${diff.from.id}`,
      alice.cookie,
    );
    expect(back.statusCode).toBe(200);
    expect(back.json().droppedFiscalYears).toEqual(diff.newFiscalYears);

    // The screener filters on the change since the previous evaluation.
    const screened = await get(
      `/api/moat-screener?minScoreChange=${diff.totalScore.change}&maxScoreChange=${diff.totalScore.change}`,
      alice.cookie,
    );
    expect(screened.statusCode).toBe(200);
    expect(screened.json().items).toEqual([
      expect.objectContaining({ symbol: 'AAPL', scoreChange: diff.totalScore.change }),
    ]);
  });

  it('answers clear problems for bad input', async () => {
    const { cookie } = await registerUser(ctx.app, `hist-carol-${engine}@example.com`);
    const cases: [string, number, string][] = [
      ['/api/stock-evaluation/history', 400, 'validation_failed'],
      ['/api/stock-evaluation/history?symbol=AAPL&limit=101', 400, 'validation_failed'],
      ['/api/stock-evaluation/history?symbol=AAPL&page=0', 400, 'validation_failed'],
      ['/api/stock-evaluation/history?symbol=%24%24', 400, 'validation_failed'],
      [
        '/api/stock-evaluation/history/diff?symbol=AAPL&from=nope&to=nope',
        400,
        'validation_failed',
      ],
      [
        '/api/stock-evaluation/history/diff?symbol=AAPL&from=00000000-0000-4000-8000-000000000000',
        404,
        'not_found',
      ],
      [
        '/api/stock-evaluation/history/diff?symbol=AAPL&from=00000000-0000-4000-8000-000000000000&to=00000000-0000-4000-8000-000000000000',
        404,
        'not_found',
      ],
      ['/api/moat-screener?minScoreChange=lots', 400, 'validation_failed'],
    ];
    for (const [url, status, code] of cases) {
      const res = await get(url, cookie);
      expect([url, res.statusCode, res.json().code]).toEqual([url, status, code]);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });
});
