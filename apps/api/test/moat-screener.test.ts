import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, registerUser, type TestContext } from './helpers.js';

const TICKERS = ['AAPL', 'JNJ', 'PG', 'V', 'MCD', 'COST', 'F', 'DAL', 'XOM', 'MU', 'NVDA', 'KR'];

interface Row {
  symbol: string;
  companyName: string;
  sector: string | null;
  industry: string | null;
  totalScore: number;
  maxScore: number;
  verdict: string;
  peRatio: number | null;
  marketCap: number | null;
  cachedAt: string;
  /** Null: each company was evaluated once here. */
  scoreChange: number | null;
  /** The evaluation's data-quality flags, counted. */
  dataQualityFlags: number;
  dataQualityCodes: string[];
}

type Dir = 'asc' | 'desc';
/** Independent ordering: the key in `dir`, nulls last, ties by symbol ascending. */
function ordered(rows: Row[], key: (r: Row) => number | string | null, dir: Dir): Row[] {
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (x !== y) {
      const cmp = x < y ? -1 : 1;
      return dir === 'asc' ? cmp : -cmp;
    }
    return a.symbol < b.symbol ? -1 : 1;
  });
}

describe.each(ENGINES)('GET /api/moat-screener (%s)', (engine) => {
  let ctx: TestContext;
  let cookie: string;
  let all: Row[];
  const screen = async (query: string) =>
    ctx.app.inject({ url: `/api/moat-screener${query}`, headers: { cookie } });
  const symbols = (res: { json(): { items: Row[] } }) => res.json().items.map((r) => r.symbol);

  beforeAll(async () => {
    ctx = await createTestContext({ engine });
    // Fill the cache with real evaluations through the evaluation flow (a pro user's quota).
    const pro = await ctx.repos.users.create({ email: 'filler@example.com', plan: 'pro' });
    const evaluations = [];
    for (const symbol of TICKERS) {
      evaluations.push(
        await ctx.app.moat.evaluations.getEvaluation({
          symbol,
          fresh: false,
          actor: { id: pro.id, plan: 'pro' },
        }),
      );
    }
    // The rows the screener should show, derived here from the evaluations themselves.
    all = evaluations.map((e) => ({
      symbol: e.symbol,
      companyName: e.companyName,
      sector: e.sector ?? null,
      industry: e.industry ?? null,
      totalScore: e.totalScore,
      maxScore: e.maxScore,
      verdict: e.verdict,
      peRatio: e.valuation?.peRatio ?? null,
      marketCap: (e as { _marketCap?: number | null })._marketCap ?? null,
      cachedAt: e._cachedAt,
      scoreChange: null,
      dataQualityFlags: (e.dataQuality ?? []).length,
      dataQualityCodes: [...new Set((e.dataQuality ?? []).map((f) => f.code))].sort(),
    }));
    ({ cookie } = await registerUser(ctx.app, 'screener@example.com'));
  });
  afterAll(() => ctx.close());

  it('answers 401 without a session', async () => {
    for (const url of ['/api/moat-screener', '/api/moat-screener?action=meta']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });

  it('pages every cached evaluation by score, highest first (defaults: page 1, limit 20)', async () => {
    const res = await screen('');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, limit: 20, total: TICKERS.length, totalPages: 1 });
    expect(body.items).toEqual(ordered(all, (r) => r.totalScore, 'desc'));
    // Real data carries the spread the filters below rely on.
    expect(new Set(all.map((r) => r.verdict)).size).toBeGreaterThan(1);
    expect(all.filter((r) => r.peRatio !== null).length).toBeGreaterThan(3);
    expect(all.filter((r) => r.marketCap !== null).length).toBeGreaterThan(3);
  });

  it('filters by score, verdict, sector, industry, P/E and market cap (inclusive bounds)', async () => {
    const scores = all.map((r) => r.totalScore).sort((a, b) => a - b);
    const low = scores[3] as number;
    const high = scores[8] as number;
    const expectSame = async (query: string, keep: (r: Row) => boolean) => {
      const res = await screen(`${query}&limit=100`);
      expect(res.statusCode, query).toBe(200);
      const want = ordered(all.filter(keep), (r) => r.totalScore, 'desc').map((r) => r.symbol);
      expect(symbols(res), query).toEqual(want);
      expect(res.json().total, query).toBe(want.length);
      return want;
    };
    expect(
      await expectSame(
        `?scoreMin=${low}&scoreMax=${high}`,
        (r) => r.totalScore >= low && r.totalScore <= high,
      ),
    ).toHaveLength(6);
    const verdict = all[0]?.verdict as string;
    await expectSame(`?verdict=${encodeURIComponent(verdict)}`, (r) => r.verdict === verdict);
    const sector = all.find((r) => r.sector)?.sector as string;
    await expectSame(`?sector=${encodeURIComponent(sector)}`, (r) => r.sector === sector);
    const industry = all.find((r) => r.industry)?.industry as string;
    await expectSame(`?industry=${encodeURIComponent(industry)}`, (r) => r.industry === industry);
    await expectSame(
      '?peMin=10&peMax=30',
      (r) => r.peRatio !== null && r.peRatio >= 10 && r.peRatio <= 30,
    );
    await expectSame(
      '?marketCapMin=100000000000',
      (r) => r.marketCap !== null && r.marketCap >= 1e11,
    );
    await expectSame(
      `?scoreMin=${low}&marketCapMax=500000000000`,
      (r) => r.totalScore >= low && r.marketCap !== null && r.marketCap <= 5e11,
    );
    await expectSame('?verdict=No%20Clear%20Moat%20Detected&sector=Nowhere', () => false);
  });

  it('sorts by score, symbol, P/E and market cap in either direction, nulls last', async () => {
    const keys = {
      score: (r: Row) => r.totalScore,
      symbol: (r: Row) => r.symbol,
      pe: (r: Row) => r.peRatio,
      marketCap: (r: Row) => r.marketCap,
    } as const;
    const defaults = { score: 'desc', symbol: 'asc', pe: 'asc', marketCap: 'desc' } as const;
    for (const [sortBy, key] of Object.entries(keys) as [keyof typeof keys, (r: Row) => never][]) {
      const byDefault = await screen(`?sortBy=${sortBy}`);
      expect(symbols(byDefault), sortBy).toEqual(
        ordered(all, key, defaults[sortBy]).map((r) => r.symbol),
      );
      for (const dir of ['asc', 'desc'] as const) {
        const res = await screen(`?sortBy=${sortBy}&sortDir=${dir}`);
        expect(symbols(res), `${sortBy} ${dir}`).toEqual(
          ordered(all, key, dir).map((r) => r.symbol),
        );
      }
    }
  });

  it('pages with page and limit', async () => {
    const order = ordered(all, (r) => r.symbol, 'asc').map((r) => r.symbol);
    const second = (await screen('?sortBy=symbol&limit=5&page=2')).json();
    expect(second).toMatchObject({ page: 2, limit: 5, total: TICKERS.length, totalPages: 3 });
    expect(second.items.map((r: Row) => r.symbol)).toEqual(order.slice(5, 10));
    const last = (await screen('?sortBy=symbol&limit=5&page=3')).json();
    expect(last.items.map((r: Row) => r.symbol)).toEqual(order.slice(10));
    const beyond = (await screen('?sortBy=symbol&limit=5&page=9')).json();
    expect(beyond).toMatchObject({ items: [], page: 9, total: TICKERS.length });
    expect((await screen('?limit=100')).statusCode).toBe(200);
  });

  it('answers the cache statistics for action=meta', async () => {
    const res = await screen('?action=meta&scoreMin=99');
    expect(res.statusCode).toBe(200);
    const meta = res.json();
    const verdicts: Record<string, number> = {};
    for (const r of all) verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
    const sectors = new Map<string, number>();
    for (const r of all) if (r.sector) sectors.set(r.sector, (sectors.get(r.sector) ?? 0) + 1);
    expect(meta.count).toBe(TICKERS.length);
    expect(meta.verdicts).toEqual(verdicts);
    expect(meta.sectors).toEqual(
      [...sectors]
        .map(([sector, count]) => ({ sector, count }))
        .sort((a, b) => b.count - a.count || (a.sector < b.sector ? -1 : 1)),
    );
    const scores = all.map((r) => r.totalScore);
    expect(meta.scoreRange).toEqual({ min: Math.min(...scores), max: Math.max(...scores) });
    const newest = Math.max(...all.map((r) => Date.parse(r.cachedAt)));
    expect(Date.parse(meta.lastUpdatedAt)).toBe(newest);
  });

  it('answers 400 validation_failed for limit 101, an unknown action and malformed filters', async () => {
    for (const query of [
      '?limit=101',
      '?limit=0',
      '?page=0',
      '?page=1.5',
      '?action=stats',
      '?sortBy=name',
      '?sortDir=up',
      '?scoreMin=high',
      '?verdict=Great',
      '?peMax=NaN',
    ]) {
      const res = await screen(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe('validation_failed');
      expect(res.json().errors[0].path, query).toMatch(/^querystring\./);
    }
  });
});
