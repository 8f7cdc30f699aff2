import type { MoatEvaluation } from '@svc/schemas';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { backends, migratorOf, type TestDatabase } from '../test-support/backends.js';
import { createRepositories, type Repositories } from './index.js';
import { type ScreenerQuery, screenerPageStatement } from './screener.js';

interface Fixture {
  symbol: string;
  score: number;
  verdict: string;
  sector?: string;
  industry?: string;
  pe: number | null;
  cap: string | null;
}

const STRONG = 'Strong Durable Competitive Advantage';
const MODERATE = 'Moderate Competitive Advantage';
const NARROW = 'Narrow Moat — Proceed with Caution';
const NONE = 'No Clear Moat Detected';

const FIXTURES: Fixture[] = [
  {
    symbol: 'AAPL',
    score: 87.5,
    verdict: STRONG,
    sector: 'Tech',
    industry: 'Hardware',
    pe: 31.2,
    cap: '3400000000000',
  },
  {
    symbol: 'MSFT',
    score: 81.25,
    verdict: STRONG,
    sector: 'Tech',
    industry: 'Software',
    pe: 35.9,
    cap: '3100000000000',
  },
  {
    symbol: 'KO',
    score: 62.5,
    verdict: MODERATE,
    sector: 'Staples',
    industry: 'Beverages',
    pe: 24.1,
    cap: '270000000000',
  },
  {
    symbol: 'PEP',
    score: 56.25,
    verdict: MODERATE,
    sector: 'Staples',
    industry: 'Beverages',
    pe: 22.8,
    cap: '210000000000',
  },
  {
    symbol: 'F',
    score: 37.5,
    verdict: NARROW,
    sector: 'Autos',
    industry: 'Cars',
    pe: 6.4,
    cap: '45000000000',
  },
  { symbol: 'GME', score: 12.5, verdict: NONE, sector: 'Retail', pe: null, cap: '9000000000' },
  {
    symbol: 'NVDA',
    score: 75,
    verdict: STRONG,
    sector: 'Tech',
    industry: 'Semis',
    pe: 55.3,
    cap: null,
  },
  { symbol: 'XYZ', score: 50, verdict: MODERATE, pe: 18, cap: '12000000000.5' },
];

function evaluation(f: Fixture): MoatEvaluation {
  return {
    symbol: f.symbol,
    companyName: `${f.symbol} Corp`,
    ...(f.sector ? { sector: f.sector } : {}),
    ...(f.industry ? { industry: f.industry } : {}),
    totalScore: f.score,
    maxScore: 100,
    verdict: f.verdict as MoatEvaluation['verdict'],
    criteria: [],
    valuation: {
      peRatio: f.pe,
      forwardPE: null,
      pegRatio: null,
      augmentedPayoutRatio: null,
      sellTrigger: false,
    },
  };
}

/** An independent model of the screener over the fixtures, in plain JavaScript. */
function expected(q: ScreenerQuery): string[] {
  const rows = FIXTURES.filter(
    (f) =>
      (q.scoreMin === undefined || f.score >= q.scoreMin) &&
      (q.scoreMax === undefined || f.score <= q.scoreMax) &&
      (q.verdict === undefined || f.verdict === q.verdict) &&
      (q.sector === undefined || f.sector === q.sector) &&
      (q.industry === undefined || f.industry === q.industry) &&
      (q.peMin === undefined || (f.pe !== null && f.pe >= q.peMin)) &&
      (q.peMax === undefined || (f.pe !== null && f.pe <= q.peMax)) &&
      (q.marketCapMin === undefined ||
        (f.cap !== null && Number(f.cap) >= Number(q.marketCapMin))) &&
      (q.marketCapMax === undefined || (f.cap !== null && Number(f.cap) <= Number(q.marketCapMax))),
  );
  const sortBy = q.sortBy ?? 'score';
  const key = (f: Fixture) =>
    ({
      score: f.score,
      symbol: f.symbol,
      pe: f.pe,
      marketCap: f.cap === null ? null : Number(f.cap),
    })[sortBy];
  const dir = q.sortDir ?? (sortBy === 'symbol' || sortBy === 'pe' ? 'asc' : 'desc');
  rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null && y !== null) return 1;
    if (y === null && x !== null) return -1;
    if (x !== null && y !== null && x !== y) return (x < y ? -1 : 1) * (dir === 'asc' ? 1 : -1);
    return a.symbol < b.symbol ? -1 : 1;
  });
  return rows.map((r) => r.symbol);
}

const QUERIES: ScreenerQuery[] = [
  {},
  { sortBy: 'symbol' },
  { sortBy: 'pe' },
  { sortBy: 'pe', sortDir: 'desc' },
  { sortBy: 'marketCap' },
  { sortBy: 'marketCap', sortDir: 'asc' },
  { scoreMin: 50, scoreMax: 81.25 },
  { verdict: STRONG },
  { sector: 'Tech', sortBy: 'symbol', sortDir: 'desc' },
  { industry: 'Beverages' },
  { peMin: 20, peMax: 36 },
  { marketCapMin: 10_000_000_000, marketCapMax: '300000000000' },
  { marketCapMin: '12000000000.5' },
  { verdict: NONE, sector: 'Tech' },
];

describe.each(backends)('screener on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
    for (const [i, f] of FIXTURES.entries()) {
      await repos.evaluations.upsert(evaluation(f), {
        marketCap: f.cap,
        cachedAt: new Date(Date.UTC(2026, 0, 1 + i)),
      });
    }
  });
  afterAll(() => database.cleanup());

  it.each(QUERIES)('matches the reference model for %j', async (query) => {
    const page = await repos.screener.screen({ ...query, limit: 100 });
    const symbols = expected(query);
    expect(page.items.map((r) => r.symbol)).toEqual(symbols);
    expect(page.total).toBe(symbols.length);
  });

  it('pages with total and totalPages', async () => {
    const all = expected({});
    const pages = await Promise.all(
      [1, 2, 3, 4].map((page) => repos.screener.screen({ page, limit: 3 })),
    );
    expect(pages.map((p) => p.items.map((r) => r.symbol))).toEqual([
      all.slice(0, 3),
      all.slice(3, 6),
      all.slice(6, 9),
      [],
    ]);
    expect(pages[0]).toMatchObject({ page: 1, limit: 3, total: 8, totalPages: 3 });
    await expect(repos.screener.screen({ limit: 101 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(repos.screener.screen({ page: 0 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(repos.screener.screen({ marketCapMin: 'lots' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('returns CONTRACT rows with exact market caps', async () => {
    const [row] = (await repos.screener.screen({ sortBy: 'symbol', sortDir: 'desc', limit: 1 }))
      .items;
    expect(row).toEqual({
      symbol: 'XYZ',
      companyName: 'XYZ Corp',
      sector: null,
      industry: null,
      totalScore: 50,
      maxScore: 100,
      verdict: MODERATE,
      peRatio: 18,
      marketCap: '12000000000.5',
      cachedAt: '2026-01-08T00:00:00.000Z',
      scoreChange: null,
      dataQualityFlags: 0,
      dataQualityCodes: [],
    });
  });

  it('counts the data-quality flags of each evaluation', async () => {
    const flag = { code: 'ppe_rollforward', series: 'capex', message: 'capex below PP&E growth' };
    const base = evaluation({ ...(FIXTURES[0] as Fixture), symbol: 'FLAG' });
    await repos.evaluations.upsert({
      ...base,
      dataQuality: [flag, { ...flag, series: 'depreciation' }],
    });
    const find = async () =>
      (await repos.screener.screen({ sortBy: 'symbol', limit: 100 })).items.find(
        (r) => r.symbol === 'FLAG',
      );
    expect((await find())?.dataQualityFlags).toBe(2);
    expect((await find())?.dataQualityCodes).toEqual(['ppe_rollforward']);
    await repos.evaluations.upsert({
      ...base,
      dataQuality: [flag, { code: 'provider_mismatch', series: 'capex', message: 'apart' }],
    });
    expect((await find())?.dataQualityCodes).toEqual(['ppe_rollforward', 'provider_mismatch']);
    await repos.evaluations.upsert({ ...base, dataQuality: [] });
    expect((await find())?.dataQualityFlags).toBe(0);
    expect((await find())?.dataQualityCodes).toEqual([]);
    await repos.evaluations.delete('FLAG');
  });

  it('writes cachedAt as the evaluation cache does, to the millisecond (microseconds cut)', async () => {
    // the database's now(): microseconds, in the session's time zone
    await repos.evaluations.upsert(evaluation({ ...(FIXTURES[0] as Fixture), symbol: 'NOW' }), {
      marketCap: null,
    });
    const page = await repos.screener.screen({ verdict: STRONG, sortBy: 'symbol', limit: 100 });
    const row = page.items.find((r) => r.symbol === 'NOW');
    expect(row?.cachedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(row?.cachedAt).toBe((await repos.evaluations.get('NOW'))?.cachedAt);
    await repos.evaluations.delete('NOW');
  });

  it('answers the meta statistics', async () => {
    const meta = await repos.screener.meta();
    expect(meta).toEqual({
      count: 8,
      lastUpdatedAt: '2026-01-08T00:00:00.000Z',
      verdicts: { [STRONG]: 3, [MODERATE]: 3, [NARROW]: 1, [NONE]: 1 },
      sectors: [
        { sector: 'Tech', count: 3 },
        { sector: 'Staples', count: 2 },
        { sector: 'Autos', count: 1 },
        { sector: 'Retail', count: 1 },
      ],
      scoreRange: { min: 12.5, max: 87.5 },
    });
  });

  it('replaces a symbol on upsert and reads it back', async () => {
    const updated = { ...evaluation(FIXTURES[0] as Fixture), totalScore: 90 };
    await repos.evaluations.upsert(updated, {
      marketCap: '1',
      cachedAt: new Date('2026-02-01T00:00:00Z'),
    });
    const cached = await repos.evaluations.get('aapl');
    expect(cached?.evaluation.totalScore).toBe(90);
    expect(cached?.marketCap).toBe('1');
    expect(cached?.cachedAt).toBe('2026-02-01T00:00:00.000Z');
    expect((await repos.screener.meta()).count).toBe(8);
    expect(await repos.evaluations.get('NOPE')).toBeUndefined();
  });

  it('reads several cached symbols in one statement (the portfolio X-ray)', async () => {
    const found = await repos.evaluations.getMany(['aapl', 'MSFT', 'NOPE']);
    expect(found.map((row) => row.symbol).sort()).toEqual(['AAPL', 'MSFT']);
    const aapl = found.find((row) => row.symbol === 'AAPL');
    expect(aapl).toEqual(await repos.evaluations.get('AAPL'));
    expect(await repos.evaluations.getMany([])).toEqual([]);
  });
});

describe.each(backends.filter((b) => b.name === 'postgres'))(
  'screener statement on $name',
  (backend) => {
    let database: TestDatabase;
    let repos: Repositories;
    beforeAll(async () => {
      // one connection, so the statement's preparation is seen by the next query
      database = await backend.open({ pool: { max: 1 } });
      repos = createRepositories(database.db);
      // 600 rows, so that reading a page in index order beats sorting every match
      for (let i = 0; i < 600; i += 1) {
        await repos.evaluations.upsert(
          evaluation({
            symbol: `S${String(i).padStart(4, '0')}`,
            score: (i * 37) % 100,
            verdict: NONE,
            pe: i % 7 === 0 ? null : (i * 13) % 90,
            cap: String(1_000_000 * ((i * 101) % 997)),
          }),
          { marketCap: String(1_000_000 * ((i * 101) % 997)) },
        );
      }
      await repos.evaluations.analyze();
    }, 60_000);
    afterAll(() => database.cleanup());

    it('runs as a named prepared statement, parsed and planned once per connection', async () => {
      const query: ScreenerQuery = { scoreMin: 10, sortBy: 'marketCap', page: 2, limit: 20 };
      const first = await repos.screener.screen(query);
      const { rows } = await sql<{ name: string; statement: string; calls: string }>`
        select name, statement, generic_plans + custom_plans as calls
        from pg_prepared_statements where name like 'svc_%'`.execute(database.db);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.statement).toContain('from "evaluation_cache"');
      for (let i = 0; i < 6; i += 1) {
        expect(await repos.screener.screen(query)).toEqual(first);
      }
      const after = await sql<{ calls: string }>`
        select generic_plans + custom_plans as calls
        from pg_prepared_statements where name like 'svc_%'`.execute(database.db);
      // seven runs of the one statement prepared on this connection
      expect(Number(after.rows[0]?.calls)).toBe(7);
    });

    it.each([
      ['score', 'desc', 'evaluation_cache_score_desc_idx'],
      ['score', 'asc', 'evaluation_cache_score_asc_idx'],
      ['pe', 'asc', 'evaluation_cache_pe_asc_idx'],
      ['pe', 'desc', 'evaluation_cache_pe_desc_idx'],
      ['marketCap', 'desc', 'evaluation_cache_market_cap_desc_idx'],
      ['marketCap', 'asc', 'evaluation_cache_market_cap_asc_idx'],
    ] as const)(
      'reads a page sorted by %s %s from its index, without a sort',
      async (sortBy, sortDir, index) => {
        const compiled = screenerPageStatement(database.db, {
          scoreMin: 10,
          sortBy,
          sortDir,
          page: 2,
        });
        const plan = await database.db.executeQuery<{ 'QUERY PLAN': string }>({
          ...compiled,
          sql: `explain ${compiled.sql}`,
        });
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toContain(index);
        expect(text).not.toMatch(/\bSort\b/);
        expect(text).not.toContain('WindowAgg');
      },
    );
  },
);

describe.each(backends)('migration 0022 (data-quality flags as a column) on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  it('counts the flags of the evaluations cached before it, and the screener reads the column', async () => {
    const migrator = migratorOf(database);
    expect((await migrator.migrateTo('0021-evaluation-as-of-cache')).error).toBeUndefined();
    const flag = { code: 'ppe_rollforward', series: 'capex', message: 'capex below PP&E growth' };
    const stored = (symbol: string, dataQuality: unknown) => ({
      symbol,
      evaluation: JSON.stringify({
        ...evaluation({ ...(FIXTURES[0] as Fixture), symbol }),
        ...(dataQuality === undefined ? {} : { dataQuality }),
      }),
      total_score: 50,
      max_score: 100,
      verdict: MODERATE,
      company_name: symbol,
      cached_at: new Date('2026-01-08T00:00:00Z'),
    });
    await database.db
      .insertInto('evaluation_cache')
      .values([
        stored('OLD3', [flag, { ...flag, code: 'cost_line_partial' }, flag]),
        stored('OLD0', []),
        stored('NONE', undefined),
      ])
      .execute();
    await migrateToLatest(database.db);
    const page = await createRepositories(database.db).screener.screen({
      sortBy: 'symbol',
      limit: 10,
    });
    expect(page.items.map((r) => [r.symbol, r.dataQualityFlags, r.dataQualityCodes])).toEqual([
      ['NONE', 0, []],
      ['OLD0', 0, []],
      ['OLD3', 3, ['cost_line_partial', 'ppe_rollforward']],
    ]);
  });
});
